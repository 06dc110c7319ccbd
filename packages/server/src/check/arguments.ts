import { DuetError } from 'duetkit/protocol'
import { splitCommandLine } from '../dev/command-line.js'
import { serverUrl } from '../dev/options.js'
import type { CheckOptions } from './run-check.js'

/** `duet check`'s command line, parsed; `json` asks for the report as one JSON document. */
export interface CheckArguments extends CheckOptions {
  json: boolean
}

/** Parses `duet check`'s command line; throws USAGE naming the offending flag. */
export function parseCheckArgs(argv: string[]): CheckArguments {
  const out: CheckArguments = { json: false }
  const files: string[] = []
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i] as string
    const value = () => {
      const v = argv[++i]
      if (v === undefined) throw new DuetError('USAGE', `${flag} needs a value`)
      return v
    }
    const once = (set: boolean) => {
      if (set) throw new DuetError('USAGE', `${flag} given twice; duet check checks one view at a time`)
    }
    if (flag === '--server') {
      once(!!out.server)
      out.server = { kind: 'http', url: serverUrl(value()) }
    } else if (flag === '--stdio') {
      once(!!out.server)
      const line = value()
      out.server = { kind: 'stdio', line, ...splitCommandLine(line) }
    } else if (flag === '--tool') out.tool = value()
    else if (flag === '--args') {
      const raw = value()
      let parsed: unknown
      try {
        parsed = JSON.parse(raw)
      } catch {
        throw new DuetError('USAGE', `--args ${raw}: not JSON; give the tool's arguments as an object, e.g. '{"city":"Oslo"}'`)
      }
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new DuetError('USAGE', `--args ${raw}: must be a JSON object`)
      out.args = parsed as Record<string, unknown>
    } else if (flag === '--preset') out.preset = value()
    else if (flag === '--shots') out.shots = value()
    else if (flag === '--chromium') out.chromiumPath = value()
    else if (flag === '--json') out.json = true
    else if (flag.startsWith('-')) throw new DuetError('USAGE', `unknown option ${flag}; see duet check --help`)
    else files.push(flag)
  }
  if (files.length > 1) throw new DuetError('USAGE', `one view at a time; got ${files.join(', ')}`)
  if (files.length === 1) {
    if (out.server) throw new DuetError('USAGE', 'give a view HTML file or a server (--server/--stdio), not both')
    out.viewFile = files[0]
  } else if (!out.server) throw new DuetError('USAGE', 'give a server (--server <url> or --stdio "<command>") with --tool NAME, or a view HTML file')
  if (out.server && !out.tool) throw new DuetError('USAGE', '--tool NAME: which app tool to call')
  if (!out.server && (out.tool || out.args)) throw new DuetError('USAGE', '--tool and --args need a server (--server or --stdio)')
  return out
}
