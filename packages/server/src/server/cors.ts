import type { IncomingMessage, ServerResponse } from 'node:http'
import { invalidOption } from './errors.js'

// Browser hosts (the ext-apps basic-host) run their MCP client in the page, so every request they send is
// cross-origin. The Origin check stays the gate against DNS rebinding: CORS headers go only to origins that
// pass it, and a foreign origin is refused with 403 before anything else runs.

const LOOPBACK_HOSTNAMES = new Set(['localhost', '127.0.0.1', '[::1]'])

/** What a browser client sends: the Streamable HTTP headers of both eras, plus auth and resumption. */
const ALLOWED_HEADERS = ['Content-Type', 'Accept', 'Authorization', 'Mcp-Session-Id', 'Mcp-Protocol-Version', 'Mcp-Method', 'Mcp-Name', 'Last-Event-ID']
/** What a browser client must read from our answers: the session it was given, the era, auth challenges and rate-limit waits. */
const EXPOSED_HEADERS = 'Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate, Retry-After'
const ALLOWED_METHODS = 'GET, POST, DELETE, OPTIONS'
/** How long a browser may reuse a preflight answer (two hours, Chromium's cap). */
const MAX_AGE_SECONDS = 7200

/** Which browser origins may call the endpoint: loopback on any port, plus the listed origins or hostnames. */
export interface OriginPolicy {
  /** True when a request with this Origin header may be served (no Origin: not a browser, passes). */
  allows(origin: string | undefined): boolean
}

/**
 * Reads `allowedOrigins`: each entry a full origin (`https://app.example.com`, matched on scheme, host and port)
 * or a bare hostname (`app.example.com`, any scheme and port). Loopback origins are always allowed.
 */
export function originPolicy(allowedOrigins: readonly string[] | undefined): OriginPolicy {
  if (allowedOrigins !== undefined && !Array.isArray(allowedOrigins)) invalidOption('listen', 'http.allowedOrigins', 'must be an array of origins')
  const origins = new Set<string>()
  const hostnames = new Set<string>()
  for (const entry of allowedOrigins ?? []) {
    if (typeof entry !== 'string' || entry === '')
      invalidOption('listen', 'http.allowedOrigins', `entries must be non-empty strings, got ${JSON.stringify(entry)}`)
    if (entry.includes('://')) {
      const parsed = parseOrigin(entry)
      if (!parsed || parsed.origin !== entry.replace(/\/$/, '').toLowerCase())
        invalidOption('listen', 'http.allowedOrigins', `'${entry}' is not an origin; write scheme://host[:port] with no path, e.g. https://app.example.com`)
      origins.add(parsed.origin)
    } else {
      if (!/^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)$/i.test(entry))
        invalidOption('listen', 'http.allowedOrigins', `'${entry}' is neither an origin (https://app.example.com) nor a hostname (app.example.com)`)
      hostnames.add(entry.toLowerCase())
    }
  }
  return {
    allows(origin) {
      if (origin === undefined || origin === '') return true
      const parsed = parseOrigin(origin)
      if (!parsed) return false
      return LOOPBACK_HOSTNAMES.has(parsed.hostname) || hostnames.has(parsed.hostname) || origins.has(parsed.origin)
    },
  }
}

function parseOrigin(value: string): { origin: string; hostname: string } | undefined {
  try {
    const url = new URL(value)
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') return undefined
    return { origin: url.origin, hostname: url.hostname }
  } catch {
    return undefined
  }
}

/** Adds the CORS headers an allowed browser origin needs to read the answer; none for non-browser clients. */
export function addCorsHeaders(req: IncomingMessage, res: ServerResponse): void {
  const origin = req.headers.origin
  if (!origin) return
  res.setHeader('Access-Control-Allow-Origin', origin)
  res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS)
  res.setHeader('Vary', 'Origin')
}

/** Answers a preflight (or a bare OPTIONS) for the MCP endpoint. The origin was checked before. */
export function answerPreflight(req: IncomingMessage, res: ServerResponse): void {
  addCorsHeaders(req, res)
  const headers: Record<string, string> = { Allow: ALLOWED_METHODS }
  if (req.headers.origin) {
    // Tool parameters travel as Mcp-Param-* headers, so names the list lacks are echoed back: the origin is trusted.
    const requested = req.headers['access-control-request-headers']
    const names = new Set(ALLOWED_HEADERS)
    for (const name of typeof requested === 'string' ? requested.split(',') : []) if (name.trim()) names.add(name.trim())
    Object.assign(headers, {
      'Access-Control-Allow-Methods': ALLOWED_METHODS,
      'Access-Control-Allow-Headers': [...names].join(', '),
      'Access-Control-Max-Age': String(MAX_AGE_SECONDS),
      Vary: 'Origin, Access-Control-Request-Headers',
    })
  }
  res.writeHead(204, headers).end()
}
