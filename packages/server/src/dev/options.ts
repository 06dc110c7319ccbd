import { parseArgs } from 'node:util'
import { splitCommandLine } from './command-line.js'
import type { ServerSpec } from './connections.js'
import type { DevServerOptions } from './dev-server.js'
import { parseModelSpec } from './model/model-spec.js'
import { DuetError } from 'duetkit/protocol'

// Every flag takes a value; what it is, for the message when a flag stands where the value should be.
const FLAGS = {
  server: 'a URL',
  token: 'a bearer token',
  stdio: 'a command',
  watch: 'a project folder',
  port: 'a port number',
  poll: 'a number of milliseconds',
  model: '<provider>:<model>',
  'model-base-url': 'a URL',
} as const
type Flag = keyof typeof FLAGS

/**
 * Parses `duet dev`'s command line with `node:util` parseArgs (its tokens keep the order, which
 * `--token` needs: it belongs to the `--server` before it); throws USAGE with the offending flag named.
 */
export function parseDevArgs(argv: string[], env: Record<string, string | undefined> = process.env): DevServerOptions {
  const options = Object.fromEntries(Object.keys(FLAGS).map((name) => [name, { type: 'string' as const, multiple: true }]))
  // Not strict: unknown flags and missing values come back as tokens, and the messages below name them.
  const { tokens } = parseArgs({ args: argv, options, strict: false, allowPositionals: true, tokens: true })
  const servers: ServerSpec[] = []
  const once = new Map<Flag, string>()
  for (const token of tokens) {
    if (token.kind === 'positional') throw new DuetError('USAGE', `unexpected argument ${token.value}; see duet dev --help`)
    if (token.kind !== 'option') throw new DuetError('USAGE', 'a bare -- is not an option of duet dev; see duet dev --help')
    const flag = token.rawName
    if (!(token.name in FLAGS) || !flag.startsWith('--')) throw new DuetError('USAGE', `unknown option ${flag}; see duet dev --help`)
    const name = token.name as Flag
    const value = token.value
    if (value === undefined) throw new DuetError('USAGE', `${flag} needs a value`)
    if (!token.inlineValue && value.startsWith('--')) throw new DuetError('USAGE', `${flag} needs ${FLAGS[name]}, got ${value}`)
    if (name === 'server') {
      servers.push({ kind: 'http', url: serverUrl(value) })
    } else if (name === 'token') {
      // The bearer token of the --server just before it: each protected server has its own.
      const last = servers.at(-1)
      if (last?.kind !== 'http') throw new DuetError('USAGE', '--token applies to the --server <url> just before it; give --server first')
      if (last.token !== undefined) throw new DuetError('USAGE', `--token is given twice for ${last.url}`)
      if (!/^[\x21-\x7e]+$/.test(value)) throw new DuetError('USAGE', '--token must be one bearer token (printable characters, no spaces)')
      last.token = value
    } else if (name === 'stdio') {
      servers.push({ kind: 'stdio', line: value, ...splitCommandLine(value) })
    } else {
      if (once.has(name)) throw new DuetError('USAGE', `--${name} is given twice${name === 'watch' ? '; duet dev watches one view project' : ''}`)
      once.set(name, value)
    }
  }
  if (servers.length === 0) throw new DuetError('USAGE', 'give at least one --server <url> or --stdio "<command>"')
  // $DUET_DEV_TOKEN: for HTTP servers without their own --token (and out of `ps`, unlike a flag).
  const envToken = env.DUET_DEV_TOKEN
  if (envToken) for (const server of servers) if (server.kind === 'http' && server.token === undefined) server.token = envToken
  const port = wholeNumber('port', once.get('port'), 65534) ?? envPort(env)
  const pollMs = wholeNumber('poll', once.get('poll'))
  const watch = once.get('watch')
  const modelFlag = once.get('model') ?? (env.DUET_MODEL || undefined)
  const baseUrl = once.get('model-base-url') ?? (env.DUET_MODEL_BASE_URL || undefined)
  if (baseUrl !== undefined && modelFlag === undefined) throw new DuetError('USAGE', '--model-base-url needs --model <provider>:<model> (or $DUET_MODEL)')
  const model = modelFlag === undefined ? undefined : parseModelSpec(modelFlag, baseUrl, env)
  return { servers, port, pollMs, ...(watch === undefined ? {} : { watch }), ...(model === undefined ? {} : { model }) }
}

function wholeNumber(flag: Flag, raw: string | undefined, max?: number): number | undefined {
  if (raw === undefined) return undefined
  const n = Number(raw)
  if (!Number.isInteger(n) || n < 0 || (max !== undefined && n > max))
    throw new DuetError('USAGE', `--${flag} ${raw}: expected a whole number${max !== undefined ? ` from 0 to ${max}` : ''}`)
  return n
}

// $DUET_DEV_PORT stands for --port when the flag is absent: `npm start` and a starter's `npm run dev` read it too.
function envPort(env: Record<string, string | undefined>): number | undefined {
  const raw = env.DUET_DEV_PORT
  if (raw === undefined || raw === '') return undefined
  const n = Number(raw)
  if (!/^\d+$/.test(raw) || n > 65534) throw new DuetError('USAGE', `$DUET_DEV_PORT ${raw}: expected a whole number from 0 to 65534 (it stands for --port)`)
  return n
}

/** The URL of a `--server` flag (duet dev, duet check), normalised; not a URL, or not http(s), is a USAGE error. */
export function serverUrl(raw: string): string {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new DuetError('USAGE', `--server ${raw}: not a URL; use e.g. http://localhost:3001/mcp`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new DuetError('USAGE', `--server ${raw}: only http and https URLs are supported`)
  return url.href
}
