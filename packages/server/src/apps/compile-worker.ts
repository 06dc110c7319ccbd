/**
 * The program of a compiler worker, run with `node -e`: a long-lived process of the compile pool that
 * loads esbuild once and builds one agent module at a time. It lives in its own process (with
 * esbuild's native service as its child) so that whatever the untrusted source does to esbuild (a
 * parser stack overflow, a runaway allocation, a hang) ends that worker only: the pool kills it, answers
 * the call, and starts another; the server's own esbuild, its shell and every other call are untouched.
 *
 * Plain CommonJS text rather than a module file, so the same code runs from the sources under test
 * and from dist without a build step or a loader. Its arguments: the path of esbuild, then
 * {@link COMPILE_WORKER_MARK} (so a process listing shows what it is).
 *
 * Protocol (IPC): the worker sends `{ ready: true }` once esbuild's service runs; then the parent sends
 * one `CompileJob` at a time and the worker answers each with its `CompileResult`. It exits when the
 * parent goes away (the IPC channel closes), so a server killed outright leaves no worker behind; its
 * esbuild service exits when the worker's pipe to it closes.
 */

/** What the parent sends for one build. */
export interface CompileRequest {
  source: string
  entry: string
  component: string
  sourceFile: string
  sharedIds: readonly string[]
  /** Module id -> source of its virtual re-export module. */
  shared: Record<string, string>
  /** The refusal text for an import, with %PATH% where the import goes. */
  refusal: string
}

/**
 * What the worker answers for one build. A failure for want of a default export also names what the
 * agent's module does export (`exports`), so the error can list them.
 */
export type CompileReply = { ok: true; script: string } | { ok: false; errors: unknown[]; exports?: string[] } | { ok: false; fatal: string }

/** One build, numbered so a late answer of a cancelled build cannot be taken for the next one's. */
export interface CompileJob {
  id: number
  request: CompileRequest
}

/** A worker's message: ready, or the answer to the job `id`. */
export type CompileWorkerMessage = { ready: true } | { id: number; reply: CompileReply }

/** The last argument of every worker's command line. */
export const COMPILE_WORKER_MARK = 'duet-compile-worker'

export const COMPILE_WORKER_PROGRAM = `
'use strict'
process.on('disconnect', () => process.exit(0))
// Below the server's priority (before esbuild starts: its service inherits it), so requests win a busy core.
try {
  require('node:os').setPriority(Number(process.env.DUET_COMPILE_NICENESS || 0))
} catch {}
let esbuild
try {
  esbuild = require(process.argv[1])
} catch (err) {
  console.error('cannot load esbuild: ' + (err && err.message))
  process.exit(1)
}
async function build(req) {
  const sandbox = {
    name: 'duet-display-component',
    setup(b) {
      // Every import is answered here, so esbuild never touches the file system or the network.
      b.onResolve({ filter: /.*/ }, (args) => {
        if (args.path === req.component && args.namespace !== 'duet-agent') return { path: req.sourceFile, namespace: 'duet-agent' }
        if (req.sharedIds.includes(args.path)) return { path: args.path, namespace: 'duet-shared' }
        return { errors: [{ text: req.refusal.replace('%PATH%', args.path) }] }
      })
      b.onLoad({ filter: /.*/, namespace: 'duet-agent' }, () => ({ contents: req.source, loader: 'tsx' }))
      b.onLoad({ filter: /.*/, namespace: 'duet-shared' }, (args) => ({ contents: req.shared[args.path], loader: 'js' }))
    },
  }
  try {
    const result = await esbuild.build({
      stdin: { contents: req.entry, loader: 'js', sourcefile: 'duet-display-entry.js' },
      bundle: true,
      write: false,
      format: 'iife',
      platform: 'browser',
      target: 'es2020',
      jsx: 'automatic',
      jsxImportSource: 'duetkit',
      tsconfigRaw: {},
      charset: 'utf8',
      legalComments: 'none',
      logLevel: 'silent',
      // Inline, with the agent's text: the shell maps a runtime stack back to the agent's lines with it.
      sourcemap: 'inline',
      sourcesContent: true,
      plugins: [sandbox],
    })
    return { ok: true, script: result.outputFiles[0].text }
  } catch (err) {
    if (err && Array.isArray(err.errors) && err.errors.length > 0) {
      const noDefault = err.errors.some((e) => /for import "default"/.test(e.text))
      return { ok: false, errors: err.errors, ...(noDefault && { exports: await exportsOf(req) }) }
    }
    return { ok: false, fatal: String((err && err.message) || err) }
  }
}
// The names the agent's module exports, read from esbuild's metafile of the module alone (nothing bundled).
async function exportsOf(req) {
  try {
    const result = await esbuild.build({
      stdin: { contents: req.source, loader: 'tsx', sourcefile: req.sourceFile },
      bundle: false,
      write: false,
      format: 'esm',
      jsx: 'automatic',
      jsxImportSource: 'duetkit',
      tsconfigRaw: {},
      logLevel: 'silent',
      metafile: true,
      outfile: 'out.js',
    })
    const outputs = Object.values(result.metafile.outputs)
    return outputs.length > 0 ? outputs[0].exports : []
  } catch {
    return []
  }
}
process.on('message', async (job) => {
  const reply = await build(job.request)
  process.send({ id: job.id, reply })
})
// Start esbuild's service now, so the first compile finds it warm.
esbuild.transform('', {}).then(
  () => process.send({ ready: true }),
  (err) => {
    console.error('cannot start esbuild: ' + (err && err.message))
    process.exit(1)
  },
)
`
