import { splitCommandLine } from './command-line.js'
import type { ServerSpec } from './connections.js'
import type { DevServerOptions } from './dev-server.js'
import { DuetError } from 'duetkit/protocol'

/** Parses `duet dev`'s command line; throws USAGE with the offending flag named. */
export function parseDevArgs(argv: string[]): DevServerOptions {
  const servers: ServerSpec[] = []
  let port: number | undefined
  let pollMs: number | undefined
  let watch: string | undefined
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]
    const value = () => {
      const v = argv[++i]
      if (v === undefined) throw new DuetError('USAGE', `${flag} needs a value`)
      return v
    }
    if (flag === '--server') {
      servers.push({ kind: 'http', url: serverUrl(value()) })
    } else if (flag === '--token') {
      // The bearer token of the --server just before it: each protected server has its own.
      const token = value()
      const last = servers.at(-1)
      if (last?.kind !== 'http') throw new DuetError('USAGE', '--token applies to the --server <url> just before it; give --server first')
      if (last.token !== undefined) throw new DuetError('USAGE', `--token is given twice for ${last.url}`)
      if (!/^[\x21-\x7e]+$/.test(token)) throw new DuetError('USAGE', '--token must be one bearer token (printable characters, no spaces)')
      last.token = token
    } else if (flag === '--stdio') {
      const line = value()
      servers.push({ kind: 'stdio', line, ...splitCommandLine(line) })
    } else if (flag === '--watch') {
      if (watch !== undefined) throw new DuetError('USAGE', '--watch is given twice; duet dev watches one view project')
      watch = value()
      if (watch.startsWith('--')) throw new DuetError('USAGE', `--watch needs a project folder, got ${watch}`)
    } else if (flag === '--port' || flag === '--poll') {
      const raw = value()
      const n = Number(raw)
      if (!Number.isInteger(n) || n < 0 || (flag === '--port' && n > 65534))
        throw new DuetError('USAGE', `${flag} ${raw}: expected a whole number${flag === '--port' ? ' from 0 to 65534' : ''}`)
      if (flag === '--port') port = n
      else pollMs = n
    } else {
      throw new DuetError('USAGE', `unknown option ${flag}; see duet dev --help`)
    }
  }
  if (servers.length === 0) throw new DuetError('USAGE', 'give at least one --server <url> or --stdio "<command>"')
  // $DUET_DEV_TOKEN: for HTTP servers without their own --token (and out of `ps`, unlike a flag).
  const envToken = process.env.DUET_DEV_TOKEN
  if (envToken) for (const server of servers) if (server.kind === 'http' && server.token === undefined) server.token = envToken
  return { servers, port, pollMs, ...(watch === undefined ? {} : { watch }) }
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
