import { build, type BuildResult, type Message, type Plugin } from 'esbuild'
import { DuetError } from 'duetkit/protocol'
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

function sandbox(source: string, exports: Record<SharedModuleId, string[]>): Plugin {
  return {
    name: 'duet-display-component',
    setup(b) {
      // Every import is answered here, so esbuild never touches the file system or the network.
      b.onResolve({ filter: /.*/ }, (args) => {
        if (args.path === COMPONENT) return { path: SOURCE_FILE, namespace: 'duet-agent' }
        if ((SHARED_MODULE_IDS as readonly string[]).includes(args.path)) return { path: args.path, namespace: 'duet-shared' }
        return {
          errors: [
            {
              text:
                `Cannot import "${args.path}": a display_component module may import only ${SHARED_MODULE_IDS.filter((m) => !m.includes('jsx')).join(' and ')} ` +
                '(JSX needs no import). Put helpers and data in the module itself, or store bulky data with put_app_data and read it with get_app_data.',
            },
          ],
        }
      })
      b.onLoad({ filter: /.*/, namespace: 'duet-agent' }, () => ({ contents: source, loader: 'tsx' }))
      b.onLoad({ filter: /.*/, namespace: 'duet-shared' }, (args) => ({
        contents: sharedModule(args.path as SharedModuleId, exports[args.path as SharedModuleId]),
        loader: 'js',
      }))
    },
  }
}

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
 * Compiles an agent's Duet component module (JSX or TSX, default export = the view with its statics)
 * into one script for the display shell. esbuild only parses and prints it; nothing in it runs here.
 * Imports other than `duetkit` and `duetkit/mcp` fail, as do syntax errors, with the line and column in
 * `data.problems` of a `COMPILE_ERROR`.
 */
export async function compileComponent(source: string): Promise<CompiledComponent> {
  if (typeof source !== 'string' || source.trim() === '') {
    throw new DuetError('INVALID_ARGUMENT', 'display_component: source must be the non-empty text of a component module', { field: 'source' })
  }
  const exports = await sharedExports()
  let result: BuildResult<{ write: false }>
  try {
    result = await build({
      stdin: { contents: ENTRY, loader: 'js', sourcefile: 'duet-display-entry.js' },
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
      plugins: [sandbox(source, exports)],
    })
  } catch (err) {
    const errors = (err as { errors?: Message[] }).errors
    if (!Array.isArray(errors) || errors.length === 0) throw err
    const problems = errors.map(problemOf)
    throw new DuetError('COMPILE_ERROR', `The component does not compile:\n${formatProblems(problems)}`, { problems })
  }
  return { script: result.outputFiles[0]!.text }
}
