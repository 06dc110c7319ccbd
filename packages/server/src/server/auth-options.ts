// The `auth` option of createAppServer: checked when the server is created, so a typo fails at startup
// and not on the first request.
import type { AuthInfo } from '@modelcontextprotocol/server'
import { invalidOption } from './errors.js'

/** Options both kinds of `auth` share. */
interface AuthCommon {
  /**
   * The public URL of the MCP endpoint, as clients reach it (e.g. `https://mcp.example.com/mcp` behind a
   * TLS-terminating proxy): the `resource` of the Protected Resource Metadata and the default audience.
   * Default: the listening URL (required when listening on a wildcard address such as `0.0.0.0`).
   */
  resource?: string
  /** Scopes every request needs; a token without them gets 403 `insufficient_scope`. Default none. */
  scopes?: string[]
  /** Scopes advertised as `scopes_supported` besides `scopes` and the tools' own. */
  scopesSupported?: string[]
  /** `resource_name` of the metadata document. Default the server's name. */
  resourceName?: string
}

/** RFC 7662 token introspection, for issuers whose access tokens are opaque. */
export interface IntrospectionOptions {
  /** The introspection endpoint; default the issuer metadata's `introspection_endpoint`. */
  endpoint?: string
  /** This resource server's client credentials at the issuer (HTTP Basic). */
  clientId: string
  clientSecret: string
}

/** Access tokens issued by an OAuth 2.1 / OpenID Connect authorization server. */
export interface IssuerAuthOptions extends AuthCommon {
  /** The issuer URL; its metadata (RFC 8414 or OpenID discovery) gives the JWKS and the introspection endpoint. */
  issuer: string
  /** The `aud` a token must carry (any one of them). Default `resource`. */
  audience?: string | string[]
  /** The issuer's JWKS; default its metadata's `jwks_uri`. */
  jwksUri?: string
  /** Verify tokens by introspection instead of as JWTs. */
  introspection?: IntrospectionOptions
  /** Accepted JWS algorithms. Default: the asymmetric ones (RS*, PS*, ES*, EdDSA); HS* and `none` never. */
  algorithms?: string[]
  /** Leeway for `exp`/`nbf`, in seconds. Default 0. */
  clockToleranceSeconds?: number
  /**
   * The JWT `typ` header values accepted (compared without case and without an `application/` prefix).
   * Default `['at+jwt']`, as RFC 9068 asks of access tokens, so an ID token or another JWT of the issuer is
   * not taken for one. Add `'JWT'` for an issuer that sends `typ: JWT` on its access tokens.
   */
  jwtTypes?: string[]
}

/** A custom verifier: for other token types, or tests. */
export interface VerifierAuthOptions extends AuthCommon {
  /**
   * Verifies a bearer token. Return its `AuthInfo` with `expiresAt` (seconds; tokens without one are refused)
   * and the subject in `extra.sub`; throw the SDK's `OAuthError` (`invalid_token`) to refuse it (401).
   */
  verifier: (token: string) => Promise<AuthInfo>
  /** The authorization server advertised in the metadata's `authorization_servers`. */
  issuer?: string
  /**
   * `true` serves tokens the verifier returns without a subject (`extra.sub`), on purpose: all such callers
   * then share one anonymous space (the same channels, apps and data). Default `false`: such a token is
   * refused (401), so a verifier that forgets the subject fails closed instead of mixing users.
   */
  allowAnonymous?: boolean
}

/** The `auth` option: an issuer whose tokens are verified (JWT via JWKS, or introspection), or a custom verifier. */
export type AuthOptions = IssuerAuthOptions | VerifierAuthOptions

/** `auth` after its checks. */
export interface ResolvedAuth {
  /** As given: an issuer's `iss` is compared as a string, so `https://a.example` and `https://a.example/` differ. */
  issuer?: string
  resource?: string
  audience?: string[]
  jwksUri?: string
  introspection?: IntrospectionOptions
  algorithms?: string[]
  clockToleranceSeconds: number
  scopes: string[]
  scopesSupported: string[]
  resourceName?: string
  verifier?: (token: string) => Promise<AuthInfo>
  /** With a verifier: serve its subjectless answers (see `VerifierAuthOptions.allowAnonymous`). */
  allowAnonymous: boolean
  /** Accepted JWT `typ` values, normalized (lowercase, no `application/`). */
  jwtTypes: string[]
}

// RFC 6749 scope-token: printable ASCII but space, `"` and `\`.
const SCOPE_TOKEN = /^[\u0021\u0023-\u005B\u005D-\u007E]+$/
// Issuer keys are public keys: HS* (a shared secret) and `none` are never accepted.
const ASYMMETRIC = /^(?:(?:RS|PS|ES)(?:256|384|512)|ES256K|EdDSA|Ed25519)$/

// A media type name as `typ` carries one (RFC 7515 §4.1.9): no spaces, no parameters.
const MEDIA_TYPE = /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+/-]*$/

/** A `typ` value compared as RFC 7515 says: without case, `application/` implied. */
export function normalizeTyp(typ: string): string {
  const lower = typ.toLowerCase()
  return lower.startsWith('application/') ? lower.slice('application/'.length) : lower
}

/** Checks `auth`, naming the option at fault. */
export function resolveAuth(auth: AuthOptions | undefined): ResolvedAuth | undefined {
  if (auth === undefined) return undefined
  const where = 'createAppServer'
  if (auth === null || typeof auth !== 'object') invalidOption(where, 'auth', 'must be an object: { issuer, audience? } or { verifier }')
  const verifier = 'verifier' in auth ? auth.verifier : undefined
  if (verifier !== undefined && typeof verifier !== 'function') invalidOption(where, 'auth.verifier', 'must be a function (token) => Promise<AuthInfo>')
  if (verifier === undefined && !('issuer' in auth && auth.issuer !== undefined))
    invalidOption(where, 'auth', 'needs issuer (an OAuth/OpenID issuer URL) or verifier (a function)')
  const resolved: ResolvedAuth = {
    clockToleranceSeconds: 0,
    allowAnonymous: false,
    jwtTypes: ['at+jwt'],
    scopes: scopeList('auth.scopes', auth.scopes),
    scopesSupported: scopeList('auth.scopesSupported', auth.scopesSupported),
  }
  if (auth.issuer !== undefined) resolved.issuer = httpUrl('auth.issuer', auth.issuer, true)
  if (auth.resource !== undefined) resolved.resource = httpUrl('auth.resource', auth.resource, false)
  if (auth.resourceName !== undefined) {
    if (typeof auth.resourceName !== 'string' || auth.resourceName === '') invalidOption(where, 'auth.resourceName', 'must be a non-empty string')
    resolved.resourceName = auth.resourceName
  }
  if (verifier) {
    for (const key of ['audience', 'jwksUri', 'introspection', 'algorithms', 'clockToleranceSeconds'] as const) {
      if ((auth as unknown as Record<string, unknown>)[key] !== undefined)
        invalidOption(where, `auth.${key}`, 'applies to issuer tokens, not to a custom verifier')
    }
    for (const key of ['jwtTypes'] as const) {
      if ((auth as unknown as Record<string, unknown>)[key] !== undefined)
        invalidOption(where, `auth.${key}`, 'applies to issuer tokens, not to a custom verifier')
    }
    const allowAnonymous = (auth as VerifierAuthOptions).allowAnonymous
    if (allowAnonymous !== undefined && typeof allowAnonymous !== 'boolean')
      invalidOption(where, 'auth.allowAnonymous', `must be true or false, got ${JSON.stringify(allowAnonymous)}`)
    resolved.allowAnonymous = allowAnonymous === true
    resolved.verifier = verifier
    return resolved
  }
  if ((auth as unknown as Record<string, unknown>).allowAnonymous !== undefined)
    invalidOption(where, 'auth.allowAnonymous', "applies to a custom verifier; an issuer's tokens always need a subject (sub)")
  const issuerAuth = auth as IssuerAuthOptions
  if (issuerAuth.jwtTypes !== undefined) {
    const types = issuerAuth.jwtTypes
    if (!Array.isArray(types) || types.length === 0 || types.some((t) => typeof t !== 'string' || !MEDIA_TYPE.test(t)))
      invalidOption(where, 'auth.jwtTypes', `must be a non-empty array of JWT typ values such as 'at+jwt' or 'JWT', got ${JSON.stringify(types)}`)
    resolved.jwtTypes = [...new Set(types.map(normalizeTyp))]
  }
  if (issuerAuth.audience !== undefined) {
    const list = Array.isArray(issuerAuth.audience) ? issuerAuth.audience : [issuerAuth.audience]
    if (list.length === 0 || list.some((a) => typeof a !== 'string' || a === ''))
      invalidOption(where, 'auth.audience', `must be a non-empty string or array of them, got ${JSON.stringify(issuerAuth.audience)}`)
    resolved.audience = list
  }
  if (issuerAuth.jwksUri !== undefined) resolved.jwksUri = httpUrl('auth.jwksUri', issuerAuth.jwksUri, false)
  if (issuerAuth.introspection !== undefined) {
    const i = issuerAuth.introspection
    if (i === null || typeof i !== 'object') invalidOption(where, 'auth.introspection', 'must be { clientId, clientSecret, endpoint? }')
    if (typeof i.clientId !== 'string' || i.clientId === '') invalidOption(where, 'auth.introspection.clientId', 'must be a non-empty string')
    if (typeof i.clientSecret !== 'string' || i.clientSecret === '') invalidOption(where, 'auth.introspection.clientSecret', 'must be a non-empty string')
    if (i.endpoint !== undefined) httpUrl('auth.introspection.endpoint', i.endpoint, false)
    resolved.introspection = { clientId: i.clientId, clientSecret: i.clientSecret, ...(i.endpoint !== undefined && { endpoint: i.endpoint }) }
  }
  if (issuerAuth.algorithms !== undefined) {
    if (!Array.isArray(issuerAuth.algorithms) || issuerAuth.algorithms.length === 0 || issuerAuth.algorithms.some((a) => !ASYMMETRIC.test(String(a))))
      invalidOption(
        where,
        'auth.algorithms',
        `must be a non-empty array of asymmetric JWS algorithms (RS256, PS256, ES256, EdDSA…), got ${JSON.stringify(issuerAuth.algorithms)}`,
      )
    resolved.algorithms = [...issuerAuth.algorithms]
  }
  if (issuerAuth.clockToleranceSeconds !== undefined) {
    const t = issuerAuth.clockToleranceSeconds
    if (!Number.isFinite(t) || t < 0 || t > 300) invalidOption(where, 'auth.clockToleranceSeconds', `must be a number 0-300, got ${JSON.stringify(t)}`)
    resolved.clockToleranceSeconds = t
  }
  return resolved
}

/** Checks a list of OAuth scope tokens (per-tool `scopes` too). */
export function scopeList(option: string, scopes: unknown, where = 'createAppServer'): string[] {
  if (scopes === undefined) return []
  if (!Array.isArray(scopes) || scopes.some((s) => typeof s !== 'string' || !SCOPE_TOKEN.test(s)))
    invalidOption(where, option, `must be an array of OAuth scope names (no spaces or quotes), got ${JSON.stringify(scopes)}`)
  return [...new Set(scopes as string[])]
}

function httpUrl(option: string, value: unknown, bare: boolean): string {
  let url: URL
  try {
    url = new URL(String(value))
  } catch {
    return invalidOption('createAppServer', option, `must be an absolute http(s) URL, got ${JSON.stringify(value)}`)
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || typeof value !== 'string')
    invalidOption('createAppServer', option, `must be an http(s) URL, got ${JSON.stringify(value)}`)
  if (url.hash) invalidOption('createAppServer', option, `must not have a fragment, got ${JSON.stringify(value)}`)
  if (bare && url.search) invalidOption('createAppServer', option, `must not have a query string, got ${JSON.stringify(value)}`)
  return value
}
