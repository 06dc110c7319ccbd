// The HTTP side of the resource server: the Protected Resource Metadata document (RFC 9728) and the
// bearer check in front of the MCP endpoint, built on the SDK's own verifyBearerToken and challenge
// answers, so 401/403 carry the same `WWW-Authenticate` as the SDK's per-tool scope challenges.
import {
  bearerAuthChallengeResponse,
  buildOAuthProtectedResourceMetadata,
  getOAuthProtectedResourceMetadataUrl,
  OAuthError,
  OAuthErrorCode,
  verifyBearerToken,
  type AuthInfo,
  type OAuthMetadata,
  type OAuthTokenVerifier,
} from '@modelcontextprotocol/server'
import { discoverIssuer, introspectionVerifier, jwtVerifier } from './auth-issuer.js'
import type { ResolvedAuth } from './auth-options.js'
import { httpErrorJson } from './error-body.js'
import { DuetError, invalidOption } from './errors.js'
import { subjectOfAuth } from './subject.js'

/** The resource server in front of one HTTP listener. */
export interface AuthGate {
  /** The host name of the configured public `resource`, which a proxy in front passes on in `Host`. */
  readonly resourceHost: string | undefined
  /** Called once the listener is bound: the endpoint's URL, the default `resource` and audience. */
  bind(listeningUrl: string, wildcard: boolean): void
  /** The metadata document when `pathname` is one of its well-known paths, else `undefined`. */
  metadata(method: string, pathname: string): Response | undefined
  /** Verifies an `Authorization` header: the token's `AuthInfo`, or the 401/403/500 answer to send. */
  check(authorization: string | undefined): Promise<AuthInfo | Response>
}

const ROOT_METADATA_PATH = '/.well-known/oauth-protected-resource'

/**
 * Prepares the gate: the issuer's metadata is fetched now (an unreachable or misnamed issuer fails the
 * listen, not the first request); `scopesSupported` is read per request, as tools may be added later.
 */
export async function openAuthGate(auth: ResolvedAuth, serverName: string, toolScopes: () => string[]): Promise<AuthGate> {
  // Discovery only when the metadata has something to give: the JWKS or the introspection endpoint.
  const known = auth.introspection ? auth.introspection.endpoint : auth.jwksUri
  const issuerMetadata = auth.issuer !== undefined && !auth.verifier && known === undefined ? await discoverIssuer(auth.issuer) : undefined
  if (auth.issuer !== undefined) {
    try {
      // The SDK's own check: an issuer must be https, but on localhost.
      buildOAuthProtectedResourceMetadata({ oauthMetadata: { issuer: auth.issuer } as OAuthMetadata, resourceServerUrl: new URL('http://localhost/') })
    } catch (err) {
      invalidOption('createAppServer', 'auth.issuer', `is refused: ${(err as Error).message} (http is allowed for localhost and 127.0.0.1 only)`)
    }
  }
  let resource: string | undefined
  let metadataUrl: string | undefined
  let verifier: OAuthTokenVerifier | undefined

  const makeVerifier = (audience: string[]): OAuthTokenVerifier => {
    if (auth.verifier) return { verifyAccessToken: auth.verifier }
    const issuer = auth.issuer!
    if (auth.introspection) {
      const endpoint = auth.introspection.endpoint ?? issuerMetadata?.introspection_endpoint
      if (typeof endpoint !== 'string')
        throw new DuetError(
          'ISSUER_UNREACHABLE',
          `auth.introspection: the issuer's metadata names no introspection_endpoint; give auth.introspection.endpoint`,
          { issuer },
        )
      return introspectionVerifier(auth, issuer, endpoint, audience)
    }
    const jwksUri = auth.jwksUri ?? issuerMetadata?.jwks_uri
    if (typeof jwksUri !== 'string') throw new DuetError('ISSUER_UNREACHABLE', `auth.issuer: its metadata names no jwks_uri; give auth.jwksUri`, { issuer })
    return jwtVerifier(auth, issuer, jwksUri, audience)
  }

  const document = (): Record<string, unknown> => {
    const scopes = [...new Set([...auth.scopes, ...auth.scopesSupported, ...toolScopes()])]
    const resourceName = auth.resourceName ?? serverName
    const base = auth.issuer
      ? buildOAuthProtectedResourceMetadata({
          oauthMetadata: { issuer: auth.issuer } as OAuthMetadata,
          resourceServerUrl: new URL(resource!),
          resourceName,
          ...(scopes.length > 0 && { scopesSupported: scopes }),
        })
      : { resource: resource!, resource_name: resourceName, ...(scopes.length > 0 && { scopes_supported: scopes }) }
    // `resource` exactly as configured: the URL parser would add a trailing slash to a bare origin.
    return { ...base, resource: resource!, bearer_methods_supported: ['header'] }
  }

  return {
    resourceHost: auth.resource === undefined ? undefined : new URL(auth.resource).hostname,
    bind(listeningUrl, wildcard) {
      if (auth.resource === undefined && wildcard)
        invalidOption(
          'listen',
          'auth.resource',
          'is needed when listening on a wildcard address: the public URL clients reach the endpoint at (e.g. https://mcp.example.com/mcp), the audience tokens must carry',
        )
      resource = auth.resource ?? listeningUrl
      metadataUrl = getOAuthProtectedResourceMetadataUrl(new URL(resource))
      verifier = makeVerifier(auth.audience ?? [resource])
    },
    metadata(method, pathname) {
      if (resource === undefined) return undefined
      const path = pathname.length > 1 ? pathname.replace(/\/$/, '') : pathname
      if (path !== ROOT_METADATA_PATH && path !== new URL(metadataUrl!).pathname) return undefined
      const cors = { 'Access-Control-Allow-Origin': '*' }
      if (method === 'OPTIONS') return new Response(null, { status: 204, headers: { ...cors, 'Access-Control-Allow-Methods': 'GET, HEAD, OPTIONS' } })
      if (method !== 'GET' && method !== 'HEAD')
        return new Response(httpErrorJson(new DuetError('UNSUPPORTED', `${method} is not allowed on the resource metadata; use GET or HEAD.`, { method })), {
          status: 405,
          headers: { ...cors, 'content-type': 'application/json', Allow: 'GET, HEAD, OPTIONS' },
        })
      const response = Response.json(document(), { headers: cors })
      return method === 'HEAD' ? new Response(null, { headers: response.headers }) : response
    },
    async check(authorization) {
      const options = { verifier: verifier!, requiredScopes: auth.scopes, resourceMetadataUrl: metadataUrl! }
      try {
        const info = await verifyBearerToken(authorization, options)
        // Fail closed: without a subject every such caller would share one space.
        if (!auth.allowAnonymous && subjectOfAuth(info) === undefined)
          throw new OAuthError(OAuthErrorCode.InvalidToken, 'The token verified but names no subject (extra.sub); this server serves no anonymous callers')
        return info
      } catch (err) {
        return bearerAuthChallengeResponse(err, options)
      }
    },
  }
}
