import { parseArgs } from 'node:util'
import { DuetError } from 'duetkit/protocol'
import { splitCommandLine } from '../dev/command-line.js'
import { serverUrl } from '../dev/options.js'
import type { CheckOptions } from './run-check.js'

/** `duet check`'s command line, parsed; `json` asks for the report as one JSON document. */
export interface CheckArguments extends CheckOptions {
  json: boolean
}

const OPTIONS = {
  server: { type: 'string' },
  stdio: { type: 'string' },
  tool: { type: 'string' },
  args: { type: 'string' },
  preset: { type: 'string' },
  shots: { type: 'string' },
  chromium: { type: 'string' },
  json: { type: 'boolean' },
  timeout: { type: 'string' },
  'step-timeout': { type: 'string' },
  'max-view-bytes': { type: 'string' },
  'no-sandbox': { type: 'boolean' },
} as const

/** Parses `duet check`'s command line; throws USAGE naming the offending flag. */
export function parseCheckArgs(argv: string[]): CheckArguments {
  let parsed: ReturnType<typeof parseArgs<{ args: string[]; options: typeof OPTIONS; strict: true; allowPositionals: true }>>
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, strict: true, allowPositionals: true })
  } catch (err) {
    throw new DuetError('USAGE', `${(err as Error).message.split('\n')[0]}; see duet check --help`)
  }
  const { values, positionals } = parsed
  const out: CheckArguments = { json: values.json === true }
  if (values.server !== undefined && values.stdio !== undefined)
    throw new DuetError('USAGE', '--server and --stdio given together; duet check checks one view at a time')
  if (values.server !== undefined) out.server = { kind: 'http', url: serverUrl(values.server) }
  if (values.stdio !== undefined) out.server = { kind: 'stdio', line: values.stdio, ...splitCommandLine(values.stdio) }
  if (values.tool !== undefined) out.tool = values.tool
  if (values.args !== undefined) out.args = jsonObject(values.args)
  if (values.preset !== undefined) out.preset = values.preset
  if (values.shots !== undefined) out.shots = values.shots
  if (values.chromium !== undefined) out.chromiumPath = values.chromium
  if (values.timeout !== undefined) out.timeoutMs = seconds('--timeout', values.timeout)
  if (values['step-timeout'] !== undefined) out.stepTimeoutMs = seconds('--step-timeout', values['step-timeout'])
  if (values['max-view-bytes'] !== undefined) out.maxViewBytes = bytes('--max-view-bytes', values['max-view-bytes'])
  if (values['no-sandbox']) out.noSandbox = true
  if (positionals.length > 1) throw new DuetError('USAGE', `one view at a time; got ${positionals.join(', ')}`)
  if (positionals.length === 1) {
    if (out.server) throw new DuetError('USAGE', 'give a view HTML file or a server (--server/--stdio), not both')
    out.viewFile = positionals[0]
  } else if (!out.server) throw new DuetError('USAGE', 'give a server (--server <url> or --stdio "<command>") with --tool NAME, or a view HTML file')
  if (out.server && !out.tool) throw new DuetError('USAGE', '--tool NAME: which app tool to call')
  if (!out.server && (out.tool || out.args)) throw new DuetError('USAGE', '--tool and --args need a server (--server or --stdio)')
  return out
}

function jsonObject(raw: string): Record<string, unknown> {
  let parsed: unknown
  try {
    parsed = JSON.parse(raw)
  } catch {
    throw new DuetError('USAGE', `--args ${raw}: not JSON; give the tool's arguments as an object, e.g. '{"city":"Oslo"}'`)
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new DuetError('USAGE', `--args ${raw}: must be a JSON object`)
  return parsed as Record<string, unknown>
}

// Seconds, fractions allowed (tests use short deadlines), as whole milliseconds.
function seconds(flag: string, raw: string): number {
  const s = Number(raw)
  if (!/^\d+(\.\d+)?$/.test(raw) || !(s > 0) || s > 86_400) throw new DuetError('USAGE', `${flag} ${raw}: give seconds, a number above 0 and at most 86400`)
  return Math.max(1, Math.round(s * 1000))
}

function bytes(flag: string, raw: string): number {
  const n = Number(raw)
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(n) || n <= 0) throw new DuetError('USAGE', `${flag} ${raw}: give a whole number of bytes above 0`)
  return n
}
