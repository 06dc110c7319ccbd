// A real authorization server for tests: oidc-provider (a certified OpenID implementation) on loopback,
// issuing RFC 9068 JWT access tokens for a resource (RFC 8707 `resource`), by client credentials and by
// the authorization-code flow with PKCE, which this file drives like a browser (login and consent are
// approved at once; the subject is the `login_hint`). Used by the auth tests and the replica tests.
import { createHash, randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose'
import Provider from 'oidc-provider'

/** Options of {@link startIssuer}. */
export interface IssuerOptions {
  /** Scopes its resources know. Default `['mcp', 'read', 'write', 'admin']`. */
  scopes?: string[]
  /** The signing key (a private JWK with `kid` and `alg`); default a fresh RS256 key. Share one to forge an `iss`. */
  signingKey?: JWK
}

/** What a token is minted for. */
export interface MintOptions {
  /** The `aud` (RFC 8707 resource): the MCP server's URL, e.g. `http://127.0.0.1:3001/mcp`. */
  audience: string
  /** Space-free scope names; default `['mcp']`. */
  scopes?: string[]
  /** Lifetime in seconds; default 3600. */
  ttlSeconds?: number
  /** `'opaque'` for a token only introspection can read. Default `'jwt'` (RFC 9068). */
  format?: 'jwt' | 'opaque'
}

/** A running test issuer. */
export interface TestIssuer {
  /** The issuer URL (its `iss`), e.g. `http://127.0.0.1:41234`. */
  url: string
  /** The private signing key, to forge tokens in tests. */
  signingKey: JWK
  /** A token for `subject` by the authorization-code flow with PKCE (a public client, as MCP clients are). */
  tokenFor(subject: string, options: MintOptions): Promise<string>
  /** A token by client credentials: its `sub` is the client id, `duet-service`. */
  serviceToken(options: MintOptions): Promise<string>
  /** A token that expired: minted with a one-second lifetime, returned once it is past. */
  expiredTokenFor(subject: string, options: MintOptions): Promise<string>
  /**
   * Plays the user's browser for an authorization URL an MCP client made (its `redirectToAuthorization`):
   * logs in as `subject`, consents, and returns the redirect's query (`code`, `state`, `iss`).
   */
  authorize(authorizationUrl: string | URL, subject: string): Promise<URLSearchParams>
  /** The same claims as a real token, signed with another key: a forged signature. */
  forgedTokenFor(subject: string, options: MintOptions): Promise<string>
  close(): Promise<void>
}

export const SERVICE_CLIENT = { id: 'duet-service', secret: 'duet-service-secret' }
/** The pre-registered public client (a native app: no secret, PKCE) an MCP client can use. */
export const PUBLIC_CLIENT = { id: 'duet-public', redirectUri: 'http://127.0.0.1/callback' }
const REDIRECT_URI = PUBLIC_CLIENT.redirectUri

/** Starts an issuer on a free loopback port. */
export async function startIssuer(options: IssuerOptions = {}): Promise<TestIssuer> {
  const scopes = options.scopes ?? ['mcp', 'read', 'write', 'admin']
  const signingKey = options.signingKey ?? (await newSigningKey())
  // The provider needs its URL, known once the port is bound: requests wait for it.
  let provider: Provider | undefined
  let handle: ((req: IncomingMessage, res: ServerResponse) => void) | undefined
  const server: Server = createServer((req, res) => {
    if (!provider || !handle) return void res.writeHead(503).end()
    if (req.url?.startsWith('/interaction/')) return void approve(provider, req, res).catch((err: Error) => res.writeHead(500).end(err.message))
    handle(req, res)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  // Each token's lifetime is chosen by its minter; mints run one at a time so they do not mix.
  let ttl = 3600
  let format: 'jwt' | 'opaque' = 'jwt'
  let queue: Promise<unknown> = Promise.resolve()
  const serial = <T>(run: () => Promise<T>): Promise<T> => {
    // Back to the defaults afterwards, for tokens a client gets by itself (`authorize`).
    const once = () =>
      run().finally(() => {
        ttl = 3600
        format = 'jwt'
      })
    const next = queue.then(once, once)
    queue = next.catch(() => undefined)
    return next
  }

  provider = new Provider(url, {
    clients: [
      {
        client_id: SERVICE_CLIENT.id,
        client_secret: SERVICE_CLIENT.secret,
        grant_types: ['client_credentials'],
        response_types: [],
        redirect_uris: [],
        scope: scopes.join(' '),
      },
      {
        client_id: PUBLIC_CLIENT.id,
        application_type: 'native',
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code'],
        response_types: ['code'],
        redirect_uris: [REDIRECT_URI],
      },
    ],
    jwks: { keys: [signingKey] },
    cookies: { keys: [randomBytes(16).toString('hex')] },
    scopes: ['openid', ...scopes],
    pkce: { required: () => true },
    // Set, so the provider does not log a notice for each default it falls back to.
    ttl: {
      AccessToken: (_ctx: unknown, token: { resourceServer?: { accessTokenTTL?: number } }) => token.resourceServer?.accessTokenTTL ?? ttl,
      ClientCredentials: (_ctx: unknown, token: { resourceServer?: { accessTokenTTL?: number } }) => token.resourceServer?.accessTokenTTL ?? ttl,
      AuthorizationCode: 60,
      Interaction: 600,
      Session: 3600,
      Grant: 3600,
      IdToken: 3600,
    },
    findAccount: async (_ctx: unknown, sub: string) => ({ accountId: sub, claims: async () => ({ sub }) }),
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      introspection: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: async (_ctx: unknown, _client: unknown, oneOf?: string) => oneOf,
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_ctx: unknown, resource: string) => ({
          scope: scopes.join(' '),
          audience: resource,
          accessTokenTTL: ttl,
          accessTokenFormat: format,
          jwt: { sign: { alg: signingKey.alg } },
        }),
      },
    },
  })
  handle = provider.callback()

  const tokenRequest = async (body: Record<string, string>, basic?: string): Promise<string> => {
    const response = await fetch(`${url}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...(basic && { authorization: `Basic ${basic}` }) },
      body: new URLSearchParams(body),
    })
    const answer = (await response.json()) as { access_token?: string; error?: string; error_description?: string }
    if (!answer.access_token) throw new Error(`test issuer: token request failed: ${answer.error}: ${answer.error_description}`)
    return answer.access_token
  }

  const serviceToken = ({ audience, scopes: wanted = ['mcp'], ttlSeconds = 3600, format: kind = 'jwt' }: MintOptions) =>
    serial(() => {
      ttl = ttlSeconds
      format = kind
      const basic = Buffer.from(`${SERVICE_CLIENT.id}:${SERVICE_CLIENT.secret}`).toString('base64')
      return tokenRequest({ grant_type: 'client_credentials', resource: audience, scope: wanted.join(' ') }, basic)
    })

  const tokenFor = (subject: string, { audience, scopes: wanted = ['mcp'], ttlSeconds = 3600, format: kind = 'jwt' }: MintOptions) =>
    serial(async () => {
      ttl = ttlSeconds
      format = kind
      const verifier = randomBytes(32).toString('base64url')
      const challenge = createHash('sha256').update(verifier).digest('base64url')
      const authorize = new URL('/auth', url)
      const query = {
        client_id: PUBLIC_CLIENT.id,
        response_type: 'code',
        redirect_uri: REDIRECT_URI,
        scope: ['openid', ...wanted].join(' '),
        resource: audience,
        code_challenge: challenge,
        code_challenge_method: 'S256',
        login_hint: subject,
        state: randomBytes(8).toString('hex'),
        prompt: 'consent',
      }
      for (const [key, value] of Object.entries(query)) authorize.searchParams.set(key, value)
      const code = (await followToCallback(authorize.href, REDIRECT_URI)).get('code')!
      return tokenRequest({
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT_URI,
        code_verifier: verifier,
        client_id: PUBLIC_CLIENT.id,
        resource: audience,
      })
    })

  return {
    url,
    signingKey,
    tokenFor,
    serviceToken,
    async authorize(authorizationUrl, subject) {
      const start = new URL(authorizationUrl)
      start.searchParams.set('login_hint', subject)
      return followToCallback(start.href, REDIRECT_URI)
    },
    async expiredTokenFor(subject, mint) {
      const token = await tokenFor(subject, { ...mint, ttlSeconds: 1 })
      const { exp } = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { exp: number }
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, exp * 1000 - Date.now()) + 50))
      return token
    },
    async forgedTokenFor(subject, mint) {
      const real = await tokenFor(subject, mint)
      const [header, payload] = real
        .split('.')
        .slice(0, 2)
        .map((part) => JSON.parse(Buffer.from(part, 'base64url').toString()) as Record<string, unknown>)
      // Another key under the issuer's own `kid`: only the signature tells it apart.
      const other = await newSigningKey()
      const { privateKey } = await importPrivate(other)
      return new SignJWT(payload!).setProtectedHeader({ ...(header as { alg: string }), kid: signingKey.kid }).sign(privateKey)
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

/** A fresh RS256 private key as a JWK, with the `kid` and `alg` oidc-provider wants. */
export async function newSigningKey(): Promise<JWK> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true })
  return { ...(await exportJWK(privateKey)), kid: randomBytes(8).toString('hex'), alg: 'RS256', use: 'sig' }
}

async function importPrivate(jwk: JWK) {
  const { importJWK } = await import('jose')
  return { privateKey: await importJWK(jwk, jwk.alg) }
}

/** Follows the authorization redirects with a cookie jar, as a browser would, until the redirect URI gets its code. */
async function followToCallback(start: string, redirectUri: string): Promise<URLSearchParams> {
  const jar = new Map<string, string>()
  let next = start
  for (let hop = 0; hop < 10; hop++) {
    if (next.startsWith(redirectUri)) {
      const params = new URL(next).searchParams
      const code = params.get('code')
      if (!code) throw new Error(`test issuer: the authorization ended without a code: ${params.get('error')}: ${params.get('error_description')}`)
      return params
    }
    const response = await fetch(next, { redirect: 'manual', headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') } })
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';')
      const eq = pair!.indexOf('=')
      jar.set(pair!.slice(0, eq).trim(), pair!.slice(eq + 1).trim())
    }
    const location = response.headers.get('location')
    if (!location) throw new Error(`test issuer: ${next} answered ${response.status} without a redirect: ${(await response.text()).slice(0, 300)}`)
    next = new URL(location, next).href
  }
  throw new Error('test issuer: too many redirects')
}

/** Login and consent, approved at once: the subject is the request's `login_hint`, every asked scope granted. */
async function approve(provider: Provider, req: IncomingMessage, res: ServerResponse) {
  const details = await provider.interactionDetails(req, res)
  if (details.prompt.name === 'login') {
    const accountId = String(details.params.login_hint ?? 'anonymous')
    return provider.interactionFinished(req, res, { login: { accountId } }, { mergeWithLastSubmission: false })
  }
  const grant = details.grantId
    ? ((await provider.Grant.find(details.grantId)) as InstanceType<Provider['Grant']>)
    : new provider.Grant({ accountId: details.session?.accountId, clientId: String(details.params.client_id) })
  const missing = details.prompt.details as { missingOIDCScope?: string[]; missingResourceScopes?: Record<string, string[]> }
  if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '))
  for (const [resource, scopes] of Object.entries(missing.missingResourceScopes ?? {})) grant.addResourceScope(resource, scopes.join(' '))
  const grantId = await grant.save()
  return provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true })
}
