import { DuetError } from 'duetkit/protocol'
import { limitError, type CompileLimits } from './compile-limits.js'
import { createCompilePool, type CompilePool } from './compile-pool.js'
import type { CompileRequest } from './compile-worker.js'
import type { EsbuildMessage } from './esbuild-peer.js'
import { COMPONENT_SCRIPT_NAME, MOUNT_GLOBAL, SHARED_MODULES_GLOBAL } from './shell/globals.js'

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

/** What a compile error can name besides the message: the exports of the agent's module and of the shared modules. */
interface ProblemContext {
  agentExports?: string[]
  shared: Record<SharedModuleId, string[]>
}

const listed = (names: string[]) => (names.length === 0 ? 'nothing' : names.map((n) => (n === 'default' ? 'default' : `\`${n}\``)).join(', '))

function problemOf(message: EsbuildMessage, context: ProblemContext): CompileProblem {
  const loc = message.location
  // A missing default export is reported at our entry's import; say what to change in the agent's file, and what it has.
  if (loc && loc.file !== SOURCE_LOCATION && /No matching export .* for import "default"/.test(message.text)) {
    const has = context.agentExports === undefined ? '' : ` It exports ${listed(context.agentExports)}.`
    return { text: `The module has no default export: end it with \`export default MyView\`, where MyView is the view function with its statics.${has}` }
  }
  if (!loc || loc.file !== SOURCE_LOCATION) return { text: message.text }
  const at = { line: loc.line, column: loc.column + 1, lineText: loc.lineText }
  const missing = /^No matching export in "duet-shared:([^"]+)" for import "([^"]+)"$/.exec(message.text)
  if (missing && Object.hasOwn(context.shared, missing[1])) {
    const names = [...context.shared[missing[1] as SharedModuleId]].sort()
    return { text: `${missing[1]} has no export named "${missing[2]}". It exports: ${listed(names)}.`, ...at }
  }
  if (/^Unterminated regular expression$/.test(message.text)) return unclosedJsx(loc.lineText, at)
  return { text: message.text, ...at }
}

/**
 * esbuild's words for JSX left open: inside a `{` or `(` that is not closed, a closing tag's `/` starts a
 * regular expression to the parser, which then fails at the end of the line. Point at the closing tag
 * instead, and name the bracket on the line that is still open, if there is one.
 */
function unclosedJsx(lineText: string, at: Required<Omit<CompileProblem, 'text'>>): CompileProblem {
  const upTo = lineText.slice(0, at.column - 1)
  const tagAt = upTo.lastIndexOf('</')
  const end = tagAt < 0 ? upTo.length : tagAt
  const open: number[] = []
  for (let i = 0; i < end; i++) {
    const c = lineText[i]
    if (c === '{' || c === '(') open.push(i)
    else if ((c === '}' || c === ')') && open.length > 0) open.pop()
  }
  const tag = tagAt < 0 ? undefined : /^<\/[\w.-]*>?/.exec(lineText.slice(tagAt))![0]
  const before = tag ? ` before \`${tag}\`` : ''
  const which =
    open.length > 0
      ? `the "${lineText[open.at(-1)!]}" at column ${open.at(-1)! + 1} is not closed${before}`
      : `a "{" or "(" opened earlier is not closed${before}`
  return {
    text: `JSX left open: ${which}, so the parser read the closing tag's "/" as the start of a regular expression. Close each { and ( inside the JSX before its closing tag.`,
    ...at,
    ...(tagAt >= 0 && { column: tagAt + 1 }),
  }
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

export { DEFAULT_COMPILE_LIMITS, type CompileLimits } from './compile-limits.js'

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

/**
 * Compiles an agent's Duet component module (JSX or TSX, default export = the view with its statics)
 * into one script for the display shell, on a worker of `pool`, for `subject` (its share of the pool's
 * line). esbuild only parses and prints it; nothing in it runs here. Imports other than `duetkit` and
 * `duetkit/mcp` fail, as do syntax errors, with the line and column in `data.problems` of a
 * `COMPILE_ERROR`. A limit hit or a crash is a `COMPILE_ERROR` whose `data.limit` says which; a full
 * line is `BUSY` with `data.retryAfterSeconds`.
 */
export async function compileIn(pool: CompilePool, source: string, subject: string): Promise<CompiledComponent> {
  if (typeof source !== 'string' || source.trim() === '') {
    throw new DuetError('INVALID_ARGUMENT', 'display_component: source must be the non-empty text of a component module', { field: 'source' })
  }
  // A cooled-down subject is answered before its source is even scanned: its hostile sources cost nothing more.
  const cooling = pool.coolingDown(subject)
  if (cooling) throw cooling
  const limits = pool.limits
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
  const reply = await pool.run(subject, { ...(await sharedRequest()), source })
  if (reply.ok) {
    // The limit is on the code; the inline source map (about the size of the source again) is kept only while
    // the whole still fits, so a large module that compiled before still does, its runtime errors unmapped.
    const mapAt = reply.script.lastIndexOf('//# sourceMappingURL=')
    const code = mapAt < 0 ? reply.script : reply.script.slice(0, mapAt)
    const outBytes = Buffer.byteLength(code, 'utf8')
    if (outBytes > limits.maxOutputBytes) {
      throw limitError('output', `The compiled module is ${outBytes} bytes, over the limit of ${limits.maxOutputBytes}.`, { bytes: outBytes })
    }
    const script = Buffer.byteLength(reply.script, 'utf8') > limits.maxOutputBytes ? code : reply.script
    // Named, so the browser's stack frames say which script they are in and the shell maps those to the agent's lines.
    return { script: `${script}//# sourceURL=${COMPONENT_SCRIPT_NAME}\n` }
  }
  if ('fatal' in reply)
    throw limitError('crash', `The compiler failed on this module (${reply.fatal.slice(0, 300)}). Simplify the module; the server is unaffected.`)
  const context: ProblemContext = { shared: await sharedExports(), ...('exports' in reply && reply.exports && { agentExports: reply.exports }) }
  const problems = (reply.errors as EsbuildMessage[]).map((m) => problemOf(m, context))
  throw new DuetError('COMPILE_ERROR', `The component does not compile:\n${formatProblems(problems)}`, { problems })
}

let shared: Promise<Omit<CompileRequest, 'source'>> | undefined

/** Everything of a compile request but the source: the same for every compile. */
function sharedRequest(): Promise<Omit<CompileRequest, 'source'>> {
  shared ??= sharedExports().then((exports) => {
    const modules: Record<string, string> = {}
    for (const id of SHARED_MODULE_IDS) modules[id] = sharedModule(id, exports[id])
    return { entry: ENTRY, component: COMPONENT, sourceFile: SOURCE_FILE, sharedIds: SHARED_MODULE_IDS, shared: modules, refusal: IMPORT_REFUSAL }
  })
  return shared
}

/**
 * Compiles one module on a pool of its own, closed after: for a one-off compile within `overrides` of
 * `DEFAULT_COMPILE_LIMITS`. A server keeps one pool ({@link createCompilePool}) and calls {@link compileIn}.
 */
export async function compileComponent(source: string, overrides: Partial<CompileLimits> = {}): Promise<CompiledComponent> {
  const pool = createCompilePool({ workers: 1, compileLimits: overrides })
  try {
    return await compileIn(pool, source, '')
  } finally {
    await pool.close()
  }
}
