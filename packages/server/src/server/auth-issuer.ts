// Verifying an issuer's access tokens: JWTs against its JWKS (jose), or opaque tokens by RFC 7662
// introspection. Every failure of the token itself is `invalid_token` (401); a failure to reach the
// issuer is `server_error` (500), so a client is not sent to log in again because the issuer is down.
import { OAuthError, OAuthErrorCode, type AuthInfo, type OAuthTokenVerifier } from '@modelcontextprotocol/server'
import { createRemoteJWKSet, decodeProtectedHeader, errors as joseErrors, jwtVerify, type JWTPayload } from 'jose'
import { normalizeTyp, type ResolvedAuth } from './auth-options.js'
import { DuetError } from './errors.js'
import { VerifiedTokens } from './verified-tokens.js'

/** The parts of the issuer's metadata (RFC 8414 / OpenID discovery) this server reads. */
export interface IssuerMetadata {
  issuer: string
  jwks_uri?: string
  introspection_endpoint?: string
  [key: string]: unknown
}

const DISCOVERY_TIMEOUT_MS = 10_000
/** Public-key algorithms only: a JWKS that also held a shared (`oct`) key must not let HS* tokens through. */
const ASYMMETRIC_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519']

/**
 * Fetches the issuer's metadata with the MCP client SDK's discovery (RFC 8414, then OpenID discovery, at the
 * URLs the MCP authorization spec lists), which also checks that the document names the same issuer (RFC 8414
 * §3.3). The SDK is loaded here, so a server without `auth.issuer` never loads it.
 */
export async function discoverIssuer(issuer: string): Promise<IssuerMetadata> {
  const { discoverAuthorizationServerMetadata, IssuerMismatchError } = await import('@modelcontextprotocol/client')
  const timedFetch: typeof fetch = (input, init) => fetch(input, { ...init, signal: AbortSignal.timeout(DISCOVERY_TIMEOUT_MS) })
  let metadata: IssuerMetadata | undefined
  try {
    metadata = (await discoverAuthorizationServerMetadata(issuer, { fetchFn: timedFetch })) as IssuerMetadata | undefined
  } catch (err) {
    if (err instanceof IssuerMismatchError) throw mismatch(issuer, err.received, err)
    throw unreachable(issuer, err instanceof Error ? err.message : String(err), err)
  }
  if (!metadata) throw unreachable(issuer, 'no RFC 8414 or OpenID metadata document at its well-known URLs')
  // The SDK lets a trailing slash differ; tokens' `iss` is compared exactly, so the name must be exact too.
  if (metadata.issuer !== issuer) throw mismatch(issuer, metadata.issuer)
  return metadata
}

function mismatch(issuer: string, named: string | undefined, cause?: unknown): DuetError {
  return new DuetError(
    'ISSUER_UNREACHABLE',
    `auth.issuer: the issuer's metadata names issuer ${JSON.stringify(named)}, not ${JSON.stringify(issuer)}; give the issuer exactly as it names itself`,
    { issuer },
    cause === undefined ? undefined : { cause },
  )
}

function unreachable(issuer: string, reason: string, cause?: unknown): DuetError {
  return new DuetError(
    'ISSUER_UNREACHABLE',
    `auth.issuer: no metadata found for ${issuer} (${reason}); check the URL and that the issuer is up`,
    { issuer },
    cause === undefined ? undefined : { cause },
  )
}

/** A verifier of JWT access tokens: signature by the issuer's JWKS, then `iss`, `aud`, `exp`/`nbf` and `sub`. */
export function jwtVerifier(auth: ResolvedAuth, issuer: string, jwksUri: string, audience: string[]): OAuthTokenVerifier {
  // jose caches the keys, refetches on an unknown `kid` (key rotation) and rate-limits refetches.
  const keys = createRemoteJWKSet(new URL(jwksUri), { timeoutDuration: DISCOVERY_TIMEOUT_MS })
  const verified = new VerifiedTokens<AuthInfo>()
  return {
    async verifyAccessToken(token) {
      const known = verified.get(token)
      if (known) return copyOf(known)
      checkTyp(token, auth.jwtTypes)
      let payload: JWTPayload
      try {
        ;({ payload } = await jwtVerify(token, keys, {
          issuer,
          audience,
          clockTolerance: auth.clockToleranceSeconds,
          algorithms: auth.algorithms ?? ASYMMETRIC_ALGORITHMS,
        }))
      } catch (err) {
        throw tokenFailure(err)
      }
      const info = authInfoOf(token, payload)
      verified.set(token, copyOf(info), (info.expiresAt ?? 0) * 1000, String(info.extra?.sub))
      return info
    },
  }
}

/** A verifier by RFC 7662 introspection: the issuer says whether the token is active and for whom. */
export function introspectionVerifier(auth: ResolvedAuth, issuer: string, endpoint: string, audience: string[]): OAuthTokenVerifier {
  const { clientId, clientSecret } = auth.introspection!
  const basic = Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString('base64')
  return {
    async verifyAccessToken(token) {
      let answer: Record<string, unknown>
      try {
        const response = await fetch(endpoint, {
          method: 'POST',
          headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
          body: new URLSearchParams({ token, token_type_hint: 'access_token' }),
          signal: AbortSignal.timeout(DISCOVERY_TIMEOUT_MS),
        })
        answer = (await response.json().catch(() => ({}))) as Record<string, unknown>
        // Some issuers refuse to introspect a token kind (a JWT) rather than answer `active: false`.
        if (response.status === 400 && answer.error === 'unsupported_token_type') answer = { active: false }
        else if (!response.ok) throw new Error(`introspection answered HTTP ${response.status}`)
      } catch (err) {
        throw new OAuthError(OAuthErrorCode.ServerError, `Token introspection failed: ${(err as Error).message}`)
      }
      if (answer.active !== true) throw new OAuthError(OAuthErrorCode.InvalidToken, 'Token is not active (revoked, expired or unknown)')
      if (answer.iss !== undefined && answer.iss !== issuer) throw new OAuthError(OAuthErrorCode.InvalidToken, 'Token was issued by another issuer')
      const aud = typeof answer.aud === 'string' ? [answer.aud] : Array.isArray(answer.aud) ? answer.aud : []
      if (!aud.some((a) => audience.includes(a as string)))
        throw new OAuthError(OAuthErrorCode.InvalidToken, 'Token was not issued for this resource (audience)')
      return authInfoOf(token, answer as JWTPayload)
    },
  }
}

/** RFC 9068 §4: an access token's `typ` must say so, so another JWT of the issuer (an ID token) is not taken for one. */
function checkTyp(token: string, accepted: string[]): void {
  let typ: unknown
  try {
    typ = decodeProtectedHeader(token).typ
  } catch {
    throw new OAuthError(OAuthErrorCode.InvalidToken, 'Token is not a valid JWT')
  }
  if (typeof typ !== 'string' || !accepted.includes(normalizeTyp(typ)))
    throw new OAuthError(
      OAuthErrorCode.InvalidToken,
      `Token typ ${typeof typ === 'string' ? JSON.stringify(typ) : '(none)'} is not an access token's (accepted: ${accepted.join(', ')})`,
    )
}

// A copy, so a handler that changes the AuthInfo it was given cannot change what the next request gets.
const copyOf = (info: AuthInfo): AuthInfo => ({ ...info, scopes: [...info.scopes], ...(info.extra && { extra: { ...info.extra } }) })

function authInfoOf(token: string, claims: JWTPayload): AuthInfo {
  if (typeof claims.sub !== 'string' || claims.sub === '') throw new OAuthError(OAuthErrorCode.InvalidToken, 'Token has no subject (sub)')
  if (typeof claims.exp !== 'number') throw new OAuthError(OAuthErrorCode.InvalidToken, 'Token has no expiration time')
  const scope = claims.scope ?? claims.scp
  const scopes = typeof scope === 'string' ? scope.split(' ').filter(Boolean) : Array.isArray(scope) ? scope.filter((s) => typeof s === 'string') : []
  const clientId = typeof claims.client_id === 'string' ? claims.client_id : typeof claims.azp === 'string' ? claims.azp : ''
  return { token, clientId, scopes, expiresAt: claims.exp, extra: { sub: claims.sub, iss: claims.iss, aud: claims.aud } }
}

/** A bad token is 401 with what was wrong; a JWKS that cannot be fetched is the server's problem (500). */
function tokenFailure(err: unknown): OAuthError {
  if (err instanceof joseErrors.JWTExpired) return new OAuthError(OAuthErrorCode.InvalidToken, 'Token has expired')
  if (err instanceof joseErrors.JWTClaimValidationFailed) {
    const what =
      err.claim === 'aud'
        ? 'was not issued for this resource (audience)'
        : err.claim === 'iss'
          ? 'was issued by another issuer'
          : `has a bad ${err.claim} claim: ${err.reason}`
    return new OAuthError(OAuthErrorCode.InvalidToken, `Token ${what}`)
  }
  if (err instanceof joseErrors.JWKSTimeout || err instanceof joseErrors.JWKSInvalid)
    return new OAuthError(OAuthErrorCode.ServerError, `The issuer's keys could not be fetched: ${err.message}`)
  if (err instanceof joseErrors.JWSSignatureVerificationFailed || err instanceof joseErrors.JWKSNoMatchingKey)
    return new OAuthError(OAuthErrorCode.InvalidToken, "Token signature is not the issuer's")
  if (err instanceof joseErrors.JOSEError) return new OAuthError(OAuthErrorCode.InvalidToken, `Token is not a valid JWT: ${err.message}`)
  // A network failure fetching the JWKS arrives as a plain error from fetch.
  return new OAuthError(OAuthErrorCode.ServerError, `The issuer's keys could not be fetched: ${(err as Error)?.message ?? String(err)}`)
}
