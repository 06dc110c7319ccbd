import { spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import type { Message } from 'esbuild'
import { DuetError } from 'duetkit/protocol'
import { COMPILE_WORKER_PROGRAM, type CompileReply, type CompileRequest } from './compile-worker.js'
import { MOUNT_GLOBAL, SHARED_MODULES_GLOBAL } from './shell/globals.js'

/**
 * The modules a `display_component` module may import. The display shell already carries them and
 * publishes them on `globalThis[SHARED_MODULES_GLOBAL]`, so a compiled component is only its own code.
 */
export const SHARED_MODULE_IDS = ['duetkit', 'duetkit/jsx-runtime', 'duetkit/jsx-dev-runtime', 'duetkit/mcp'] as const
export type SharedModuleId = (typeof SHARED_MODULE_IDS)[number]

/** Where a compile error sits in the agent's source: 1-based line and column. */
export interface CompileProblem {
  text: string
  line?: number
  column?: number
  lineText?: string
}

/** A compiled component: one classic script that mounts the component through the display shell. */
export interface CompiledComponent {
  script: string
}

const SOURCE_FILE = 'component.jsx'
// esbuild names a file of a plugin namespace `<namespace>:<path>` in its messages.
const SOURCE_LOCATION = `duet-agent:${SOURCE_FILE}`
const COMPONENT = 'duet-display:component'
const ENTRY = `import Component from '${COMPONENT}'\nglobalThis.${MOUNT_GLOBAL}(Component)\n`

let exportsOf: Promise<Record<SharedModuleId, string[]>> | undefined

// The export names come from the very modules the shell bundles, so the two cannot drift apart.
function sharedExports(): Promise<Record<SharedModuleId, string[]>> {
  exportsOf ??= Promise.all([import('duetkit'), import('duetkit/jsx-runtime'), import('duetkit/mcp')]).then(([duet, jsx, mcp]) => ({
    duetkit: Object.keys(duet),
    'duetkit/jsx-runtime': Object.keys(jsx),
    'duetkit/jsx-dev-runtime': Object.keys(jsx),
    'duetkit/mcp': Object.keys(mcp),
  }))
  return exportsOf
}

/** Source of a virtual module that re-exports one shared module from the shell's global. */
function sharedModule(id: SharedModuleId, names: string[]): string {
  const lines = [`const m = globalThis.${SHARED_MODULES_GLOBAL}[${JSON.stringify(id === 'duetkit/jsx-dev-runtime' ? 'duetkit/jsx-runtime' : id)}]`]
  for (const name of names) lines.push(`export const ${name} = m.${name}`)
  return lines.join('\n')
}

const IMPORT_REFUSAL =
  `Cannot import "%PATH%": a display_component module may import only ${SHARED_MODULE_IDS.filter((m) => !m.includes('jsx')).join(' and ')} ` +
  '(JSX needs no import). Put helpers and data in the module itself, or store bulky data with put_app_data and read it with get_app_data.'

function problemOf(message: Message): CompileProblem {
  const loc = message.location
  // A missing default export is reported at our entry's import; say what to change in the agent's file.
  if (loc && loc.file !== SOURCE_LOCATION && /No matching export .* for import "default"/.test(message.text)) {
    return { text: 'The module has no default export: end it with `export default MyView`, where MyView is the view function with its statics.' }
  }
  if (!loc || loc.file !== SOURCE_LOCATION) return { text: message.text }
  return { text: message.text, line: loc.line, column: loc.column + 1, lineText: loc.lineText }
}

/** One line per problem: `line 3, column 12: Expected ";" but found "x"`, then the line and a caret. */
export function formatProblems(problems: CompileProblem[]): string {
  return problems
    .map((p) => {
      if (p.line === undefined) return p.text
      const head = `line ${p.line}, column ${p.column}: ${p.text}`
      return p.lineText === undefined ? head : `${head}\n    ${p.lineText}\n    ${' '.repeat(Math.max(0, (p.column ?? 1) - 1))}^`
    })
    .join('\n')
}

/**
 * The limits of one compile. Source past `maxSourceBytes` or nested deeper than `maxNesting` is
 * refused before any compiler sees it; the compile process gets `timeoutMs` of wall time and
 * `maxMemoryMb` of heap (Node's, and esbuild's Go runtime as a soft limit), and its script may be at
 * most `maxOutputBytes`.
 */
export interface CompileLimits {
  maxSourceBytes: number
  maxNesting: number
  timeoutMs: number
  maxMemoryMb: number
  maxOutputBytes: number
}

export const DEFAULT_COMPILE_LIMITS: Readonly<CompileLimits> = Object.freeze({
  // A component is a screenful of code; bulky data belongs in put_app_data.
  maxSourceBytes: 1024 * 1024,
  // Real modules nest brackets a few dozen deep; esbuild's recursive parser overflows its stack far deeper.
  maxNesting: 1000,
  timeoutMs: 10_000,
  maxMemoryMb: 256,
  maxOutputBytes: 2 * 1024 * 1024,
})

/** Which limit a `COMPILE_ERROR` hit, in `data.limit`. */
export type CompileLimit = 'size' | 'nesting' | 'time' | 'memory' | 'output' | 'crash'

const limitError = (limit: CompileLimit, message: string, extra: Record<string, unknown> = {}) =>
  new DuetError('COMPILE_ERROR', message, { limit, ...extra, problems: [{ text: message }] })

/**
 * The deepest bracket nesting of `(`, `[` and `{`, outside strings and comments, stopping once past
 * `max`. A cheap scan, so a source built to overflow the parser is refused with a clear reason.
 */
export function nestingDepth(source: string, max = Number.POSITIVE_INFINITY): number {
  let depth = 0
  let deepest = 0
  for (let i = 0; i < source.length; i++) {
    const c = source[i]
    if (c === '/' && source[i + 1] === '/') {
      const end = source.indexOf('\n', i)
      i = end < 0 ? source.length : end
    } else if (c === '/' && source[i + 1] === '*') {
      const end = source.indexOf('*/', i + 2)
      i = end < 0 ? source.length : end + 1
    } else if (c === '"' || c === "'") {
      // A quoted string ends at its quote or the end of the line (a broken one is esbuild's to report).
      let j = i + 1
      while (j < source.length && source[j] !== c && source[j] !== '\n') j += source[j] === '\\' ? 2 : 1
      i = j
    } else if (c === '(' || c === '[' || c === '{') {
      depth++
      if (depth > deepest) {
        deepest = depth
        if (deepest > max) return deepest
      }
    } else if (c === ')' || c === ']' || c === '}') {
      depth = Math.max(0, depth - 1)
    }
  }
  return deepest
}

let esbuildPath: string | undefined

/** Where esbuild, an optional peer of @duetkit/server (the CLI brings it), is installed; a clear error when it is not. */
function resolveEsbuild(): string {
  try {
    return createRequire(import.meta.url).resolve('esbuild')
  } catch (err) {
    if ((err as { code?: unknown }).code !== 'MODULE_NOT_FOUND') throw err
    throw new DuetError(
      'UNSUPPORTED',
      "display_component needs the package esbuild, which is not installed on this server: run `npm install esbuild` in the server's project (or use @duetkit/cli, which brings it). display_ui_to_user works without it.",
      { package: 'esbuild' },
      { cause: err },
    )
  }
}

// What V8 (and Go) print when a heap limit is hit.
const OUT_OF_MEMORY = /heap out of memory|out of memory|Allocation failed|Last few GCs/i

/** Runs one build in a fresh child process and gives back its answer, or why there is none. */
function runCompileProcess(request: CompileRequest, limits: CompileLimits): Promise<CompileReply> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [`--max-old-space-size=${limits.maxMemoryMb}`, '-e', COMPILE_WORKER_PROGRAM], {
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      env: { PATH: process.env.PATH ?? '', GOMEMLIMIT: `${limits.maxMemoryMb}MiB`, GOMAXPROCS: '1' },
      serialization: 'advanced',
    })
    let stderr = ''
    let settled = false
    let timedOut = false
    child.stderr!.setEncoding('utf8')
    let outOfMemory = false
    child.stderr!.on('data', (chunk: string) => {
      // Keep only the head: a Go stack overflow prints megabytes of goroutine traces.
      if (stderr.length < 2000) stderr += chunk
      outOfMemory ||= OUT_OF_MEMORY.test(chunk)
    })
    const finish = (fn: () => void) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      fn()
    }
    const timer = setTimeout(() => {
      timedOut = true
      child.kill('SIGKILL')
    }, limits.timeoutMs)
    child.on('message', (reply: CompileReply) => finish(() => resolve(reply)))
    child.on('error', (err) => finish(() => reject(limitError('crash', `The compiler could not start (${err.message}); try again.`))))
    child.on('exit', (code, signal) =>
      finish(() => {
        if (timedOut) {
          reject(
            limitError('time', `The compile took longer than its limit of ${limits.timeoutMs} ms and was stopped. Simplify the module.`, {
              timeoutMs: limits.timeoutMs,
            }),
          )
          return
        }
        const head = stderr.split('\n').find((l) => l.trim() !== '') ?? ''
        if (outOfMemory) {
          reject(
            limitError('memory', `The compile ran out of its ${limits.maxMemoryMb} MB of memory and was stopped. Simplify the module.`, {
              maxMemoryMb: limits.maxMemoryMb,
            }),
          )
          return
        }
        const why = signal ? `signal ${signal}` : `exit code ${code}`
        reject(
          limitError(
            'crash',
            `The compiler crashed on this module (${why}${head ? `: ${head.trim().slice(0, 200)}` : ''}). Simplify the module; the server is unaffected.`,
          ),
        )
      }),
    )
    child.send(request)
  })
}

/**
 * Compiles an agent's Duet component module (JSX or TSX, default export = the view with its statics)
 * into one script for the display shell. esbuild only parses and prints it; nothing in it runs here.
 * Imports other than `duetkit` and `duetkit/mcp` fail, as do syntax errors, with the line and column in
 * `data.problems` of a `COMPILE_ERROR`. Each compile runs in its own short-lived process within
 * {@link CompileLimits}; a limit hit or a crash is a `COMPILE_ERROR` whose `data.limit` says which.
 */
export async function compileComponent(source: string, overrides: Partial<CompileLimits> = {}): Promise<CompiledComponent> {
  if (typeof source !== 'string' || source.trim() === '') {
    throw new DuetError('INVALID_ARGUMENT', 'display_component: source must be the non-empty text of a component module', { field: 'source' })
  }
  const limits = { ...DEFAULT_COMPILE_LIMITS, ...overrides }
  const bytes = Buffer.byteLength(source, 'utf8')
  if (bytes > limits.maxSourceBytes) {
    throw limitError(
      'size',
      `The module is ${bytes} bytes, over the compile limit of ${limits.maxSourceBytes}. Keep the component's code in it and store bulky data with put_app_data.`,
      { bytes, maxSourceBytes: limits.maxSourceBytes },
    )
  }
  const depth = nestingDepth(source, limits.maxNesting)
  if (depth > limits.maxNesting) {
    throw limitError('nesting', `The module nests brackets more than ${limits.maxNesting} deep. Flatten it (name the inner parts).`, {
      maxNesting: limits.maxNesting,
    })
  }
  const exports = await sharedExports()
  esbuildPath ??= resolveEsbuild()
  const shared: Record<string, string> = {}
  for (const id of SHARED_MODULE_IDS) shared[id] = sharedModule(id, exports[id])
  const reply = await runCompileProcess(
    {
      esbuild: esbuildPath,
      source,
      entry: ENTRY,
      component: COMPONENT,
      sourceFile: SOURCE_FILE,
      sharedIds: SHARED_MODULE_IDS,
      shared,
      refusal: IMPORT_REFUSAL,
    },
    limits,
  )
  if (reply.ok) {
    const outBytes = Buffer.byteLength(reply.script, 'utf8')
    if (outBytes > limits.maxOutputBytes) {
      throw limitError('output', `The compiled module is ${outBytes} bytes, over the limit of ${limits.maxOutputBytes}.`, { bytes: outBytes })
    }
    return { script: reply.script }
  }
  if ('fatal' in reply)
    throw limitError('crash', `The compiler failed on this module (${reply.fatal.slice(0, 300)}). Simplify the module; the server is unaffected.`)
  const problems = (reply.errors as Message[]).map(problemOf)
  throw new DuetError('COMPILE_ERROR', `The component does not compile:\n${formatProblems(problems)}`, { problems })
}
