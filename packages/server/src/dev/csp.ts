import { DuetError } from 'duetkit/protocol'

/** The `_meta.ui.csp` a UI resource may declare (MCP Apps §3). */
export interface ResourceCsp {
  connectDomains?: string[]
  resourceDomains?: string[]
  frameDomains?: string[]
  baseUriDomains?: string[]
}

/** The spec's policy for a resource that declares no `csp`. */
export const DEFAULT_CSP =
  "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; media-src 'self' data:; connect-src 'none'"

// A source must be one CSP token: a scheme+host with optional port/path or wildcard subdomain.
// Quotes, semicolons, commas and whitespace would let a server smuggle in its own directives.
const SOURCE = /^(https?|wss?):\/\/(\*\.)?[a-z0-9.-]+(:\d{1,5}|:\*)?(\/[^\s;,'"]*)?$/i

function sources(list: unknown, field: string): string[] {
  if (list === undefined) return []
  if (!Array.isArray(list)) throw new DuetError('INVALID_CSP', `_meta.ui.csp.${field} must be an array of origins`)
  return list.map((item) => {
    if (typeof item !== 'string' || !SOURCE.test(item)) {
      throw new DuetError('INVALID_CSP', `_meta.ui.csp.${field} has ${JSON.stringify(item)}, which is not an origin like https://api.example.com`)
    }
    return item
  })
}

/**
 * Builds the Content-Security-Policy header for a view from its resource's declared `csp`: the
 * spec's default when none is declared, else the declared domains added to exactly the directives
 * the spec names. Throws INVALID_CSP on a value that is not a plain origin.
 */
export function buildCsp(csp: ResourceCsp | null | undefined): string {
  if (csp === undefined || csp === null) return DEFAULT_CSP
  if (typeof csp !== 'object' || Array.isArray(csp)) throw new DuetError('INVALID_CSP', '_meta.ui.csp must be an object')
  const resource = sources(csp.resourceDomains, 'resourceDomains')
  const connect = sources(csp.connectDomains, 'connectDomains')
  const frame = sources(csp.frameDomains, 'frameDomains')
  const baseUri = sources(csp.baseUriDomains, 'baseUriDomains')
  const join = (...parts: string[]) => parts.filter(Boolean).join(' ')
  const res = resource.join(' ')
  return [
    "default-src 'none'",
    `script-src ${join("'self'", "'unsafe-inline'", res)}`,
    `style-src ${join("'self'", "'unsafe-inline'", res)}`,
    `img-src ${join("'self'", 'data:', res)}`,
    `font-src ${join("'self'", 'data:', res)}`,
    `media-src ${join("'self'", 'data:', res)}`,
    `connect-src ${connect.length ? connect.join(' ') : "'none'"}`,
    `frame-src ${frame.length ? frame.join(' ') : "'none'"}`,
    `base-uri ${baseUri.length ? baseUri.join(' ') : "'self'"}`,
    "object-src 'none'",
  ].join('; ')
}

/** Parses the `csp` query parameter the host page sends the sandbox: JSON, or absent for the default. */
export function cspFromQuery(value: string | null): string {
  if (value === null || value === '') return DEFAULT_CSP
  let parsed: unknown
  try {
    parsed = JSON.parse(value)
  } catch {
    throw new DuetError('INVALID_CSP', 'the csp parameter is not JSON')
  }
  return buildCsp(parsed as ResourceCsp | null)
}
