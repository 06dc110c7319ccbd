/**
 * The program of the compile process, run with `node -e`: one esbuild build of one agent module,
 * then exit. It lives in its own process so that whatever the untrusted source does to esbuild (a
 * parser stack overflow, a runaway allocation, a hang) ends that process only: the server's own
 * esbuild, its shell and every other call are untouched, and the next compile starts fresh.
 *
 * Plain CommonJS text rather than a module file, so the same code runs from the sources under test
 * and from dist without a build step or a loader.
 *
 * Protocol (IPC): the parent sends one `CompileRequest`; the child answers one `CompileReply` and exits.
 */

/** What the parent sends. */
export interface CompileRequest {
  esbuild: string
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

/** What the child answers. */
export type CompileReply = { ok: true; script: string } | { ok: false; errors: unknown[] } | { ok: false; fatal: string }

export const COMPILE_WORKER_PROGRAM = `
'use strict'
process.once('message', async (req) => {
  const reply = (m) => process.send(m, () => process.exit(0))
  let esbuild
  try {
    esbuild = require(req.esbuild)
  } catch (err) {
    return reply({ ok: false, fatal: 'cannot load esbuild: ' + (err && err.message) })
  }
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
      plugins: [sandbox],
    })
    reply({ ok: true, script: result.outputFiles[0].text })
  } catch (err) {
    if (err && Array.isArray(err.errors) && err.errors.length > 0) reply({ ok: false, errors: err.errors })
    else reply({ ok: false, fatal: String((err && err.message) || err) })
  }
})
`
