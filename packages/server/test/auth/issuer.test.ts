// The resource server against a real authorization server (oidc-provider on loopback): tokens from client
// credentials and from the authorization-code flow with PKCE work; missing, expired, wrong-audience,
// wrong-issuer, forged and insufficient-scope tokens each get the MCP authorization spec's answer.
import { createHmac } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client, StreamableHTTPClientTransport, type OAuthClientProvider } from '@modelcontextprotocol/client'
import { createAppServer, DuetError, subjectOf, type Listening } from '@duetkit/server'
import * as z from 'zod'
import { PUBLIC_CLIENT, SERVICE_CLIENT, startIssuer, type TestIssuer } from './oidc-issuer.js'

const MODERN = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' }
// A 2026-07-28 request carries its envelope in `_meta`.
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
}
const listTools = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: ENVELOPE } })

function post(url: string, token: string | undefined, body = listTools, headers: Record<string, string> = MODERN): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
      ...(token && { authorization: `Bearer ${token}` }),
    },
    body,
  })
}

async function whoami(url: string, token: string): Promise<unknown> {
  const client = new Client({ name: 'test', version: '1' }, { versionNegotiation: { mode: 'auto' } })
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }))
  try {
    return (await client.callTool({ name: 'whoami', arguments: {} })).structuredContent
  } finally {
    await client.close()
  }
}

function expectChallenge(response: Response, status: number, error: string, metadataUrl: string): string {
  expect(response.status).toBe(status)
  const challenge = response.headers.get('www-authenticate') ?? ''
  expect(challenge).toMatch(/^Bearer /)
  expect(challenge).toContain(`error="${error}"`)
  expect(challenge).toContain(`resource_metadata="${metadataUrl}"`)
  return challenge
}

let issuer: TestIssuer
let other: TestIssuer
let listening: Listening
let url: string
let metadataUrl: string
const app = () =>
  createAppServer({ name: 'protected', version: '1.0.0', auth: { issuer: issuer.url } })
    .tool('whoami', { description: 'Who calls', outputSchema: { sub: z.string().nullable() } }, async (_args, ctx) => {
      const sub = subjectOf(ctx) ?? null
      return { content: [{ type: 'text', text: String(sub) }], structuredContent: { sub } }
    })
    .tool('admin_only', { description: 'Needs admin', scopes: ['admin'] }, async () => ({ content: [{ type: 'text', text: 'done' }] }))
let server: ReturnType<typeof app>

beforeAll(async () => {
  issuer = await startIssuer()
  // Another issuer with the same key: its tokens verify by signature, so only `iss` tells them apart.
  other = await startIssuer({ signingKey: issuer.signingKey })
  server = app()
  listening = await server.listen({ http: { port: 0 }, handleSignals: false })
  url = listening.url!
  metadataUrl = `${new URL(url).origin}/.well-known/oauth-protected-resource/mcp`
})

afterAll(async () => {
  await server?.close()
  await Promise.all([issuer?.close(), other?.close()])
})

describe('tokens of the issuer', () => {
  it('accepts a token from the authorization-code flow with PKCE, its subject reaching the handler', async () => {
    const token = await issuer.tokenFor('alice', { audience: url })
    expect(await whoami(url, token)).toEqual({ sub: 'alice' })
  })

  it('accepts a token from client credentials, its subject being the client', async () => {
    const token = await issuer.serviceToken({ audience: url })
    expect(await whoami(url, token)).toEqual({ sub: 'duet-service' })
  })

  it('works for the 2025-era client too', async () => {
    const token = await issuer.tokenFor('bob', { audience: url })
    const client = new Client({ name: 'test', version: '1' })
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }))
    expect((await client.callTool({ name: 'whoami', arguments: {} })).structuredContent).toEqual({ sub: 'bob' })
    await client.close()
  })
})

describe('tokens refused', () => {
  it('no token: 401 invalid_token pointing at the metadata', async () => {
    expectChallenge(await post(url, undefined), 401, 'invalid_token', metadataUrl)
  })

  it('an expired token: 401 invalid_token saying it expired', async () => {
    const token = await issuer.expiredTokenFor('alice', { audience: url })
    const challenge = expectChallenge(await post(url, token), 401, 'invalid_token', metadataUrl)
    expect(challenge).toContain('expired')
  })

  it('a token accepted twice (the second time from the remembered verification) is refused once it expires', async () => {
    const token = await issuer.tokenFor('alice', { audience: url, ttlSeconds: 2 })
    const exp = (JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')) as { exp: number }).exp
    // Twice, so the second answer comes from the remembered verification.
    expect((await post(url, token)).status).toBe(200)
    expect((await post(url, token)).status).toBe(200)
    await new Promise((r) => setTimeout(r, Math.max(0, exp * 1000 - Date.now()) + 50))
    const challenge = expectChallenge(await post(url, token), 401, 'invalid_token', metadataUrl)
    expect(challenge).toContain('expired')
  })

  it('a token for another resource (audience): 401 invalid_token', async () => {
    const token = await issuer.tokenFor('alice', { audience: 'http://127.0.0.1:1/elsewhere' })
    const challenge = expectChallenge(await post(url, token), 401, 'invalid_token', metadataUrl)
    expect(challenge).toContain('audience')
  })

  it('a token of another issuer, even signed with the same key: 401 invalid_token', async () => {
    const token = await other.tokenFor('alice', { audience: url })
    const challenge = expectChallenge(await post(url, token), 401, 'invalid_token', metadataUrl)
    expect(challenge).toContain('another issuer')
  })

  it('a token with a forged signature: 401 invalid_token', async () => {
    const token = await issuer.forgedTokenFor('alice', { audience: url })
    const challenge = expectChallenge(await post(url, token), 401, 'invalid_token', metadataUrl)
    expect(challenge).toContain('signature')
  })

  it('a token re-signed with HS256 or left unsigned (alg none): 401 invalid_token', async () => {
    const real = await issuer.tokenFor('alice', { audience: url })
    const [, payload] = real.split('.')
    const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url')
    const unsigned = `${b64({ alg: 'none', typ: 'at+jwt' })}.${payload}.`
    expectChallenge(await post(url, unsigned), 401, 'invalid_token', metadataUrl)
    // HS256 keyed with the issuer's public modulus: the classic confusion attack on RS256 verifiers.
    const header = b64({ alg: 'HS256', typ: 'at+jwt', kid: issuer.signingKey.kid })
    const mac = createHmac('sha256', Buffer.from(issuer.signingKey.n!, 'base64url')).update(`${header}.${payload}`).digest('base64url')
    expectChallenge(await post(url, `${header}.${payload}.${mac}`), 401, 'invalid_token', metadataUrl)
  })

  it('a token that is not a JWT: 401 invalid_token', async () => {
    expectChallenge(await post(url, 'not-a-jwt'), 401, 'invalid_token', metadataUrl)
  })

  it("a token without a tool's scope: 403 insufficient_scope naming the scope; with it the tool runs", async () => {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: {
        name: 'admin_only',
        arguments: {},
        _meta: ENVELOPE,
      },
    })
    const headers = { ...MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'admin_only' }
    const lacking = await issuer.tokenFor('alice', { audience: url, scopes: ['mcp'] })
    const challenge = expectChallenge(await post(url, lacking, body, headers), 403, 'insufficient_scope', metadataUrl)
    expect(challenge).toContain('scope="admin"')
    const holding = await issuer.tokenFor('alice', { audience: url, scopes: ['mcp', 'admin'] })
    const allowed = await post(url, holding, body, headers)
    expect(allowed.status).toBe(200)
    expect(await allowed.text()).toContain('done')
  })
})

describe('Protected Resource Metadata (RFC 9728)', () => {
  it('has the required fields at both well-known URLs, and leads a client to the issuer', async () => {
    // The discovery a client does: the challenge names the document, the document names the issuer.
    const challenge = (await post(url, undefined)).headers.get('www-authenticate') ?? ''
    const named = /resource_metadata="([^"]+)"/.exec(challenge)?.[1]
    expect(named).toBe(metadataUrl)
    for (const where of [named!, `${new URL(url).origin}/.well-known/oauth-protected-resource`]) {
      const response = await fetch(where)
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toContain('application/json')
      const doc = (await response.json()) as Record<string, unknown>
      // RFC 9728 §2: `resource` is required; MCP requires `authorization_servers`.
      expect(doc.resource).toBe(url)
      expect(doc.authorization_servers).toEqual([issuer.url])
      expect(doc.bearer_methods_supported).toEqual(['header'])
      expect(doc.scopes_supported).toEqual(['admin'])
      expect(doc.resource_name).toBe('protected')
    }
    const asMetadata = (await (await fetch(`${issuer.url}/.well-known/openid-configuration`)).json()) as { issuer: string; token_endpoint: string }
    expect(asMetadata.issuer).toBe(issuer.url)
  })
})

describe('issuer configuration', () => {
  it('a server-wide scope: tokens without it get 403 naming it', async () => {
    const strict = createAppServer({ name: 'strict', version: '1.0.0', auth: { issuer: issuer.url, scopes: ['write'] } }).tool(
      'noop',
      { description: 'Nothing' },
      async () => ({ content: [] }),
    )
    const strictUrl = (await strict.listen({ http: { port: 0 }, handleSignals: false })).url!
    try {
      const without = await issuer.tokenFor('alice', { audience: strictUrl, scopes: ['mcp'] })
      const response = await post(strictUrl, without)
      expect(response.status).toBe(403)
      expect(response.headers.get('www-authenticate')).toContain('scope="write"')
      const withIt = await issuer.tokenFor('alice', { audience: strictUrl, scopes: ['write'] })
      expect((await post(strictUrl, withIt)).status).toBe(200)
    } finally {
      await strict.close()
    }
  })

  it('an explicit audience is what tokens must carry', async () => {
    const aud = 'https://mcp.example.com/mcp'
    const named = createAppServer({ name: 'named', version: '1.0.0', auth: { issuer: issuer.url, audience: aud } }).tool(
      'noop',
      { description: 'Nothing' },
      async () => ({ content: [] }),
    )
    const namedUrl = (await named.listen({ http: { port: 0 }, handleSignals: false })).url!
    try {
      expect((await post(namedUrl, await issuer.tokenFor('alice', { audience: aud }))).status).toBe(200)
      expect((await post(namedUrl, await issuer.tokenFor('alice', { audience: namedUrl }))).status).toBe(401)
    } finally {
      await named.close()
    }
  })

  it('an issuer that cannot be reached fails the listen with ISSUER_UNREACHABLE', async () => {
    const lost = createAppServer({ name: 'lost', version: '1.0.0', auth: { issuer: 'http://127.0.0.1:1' } })
    const error = await lost.listen({ http: { port: 0 }, handleSignals: false }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(DuetError)
    expect((error as DuetError).code).toBe('ISSUER_UNREACHABLE')
    await lost.close()
  })

  it('an issuer named otherwise than its metadata says fails the listen, naming both', async () => {
    const slash = createAppServer({ name: 'slash', version: '1.0.0', auth: { issuer: `${issuer.url}/` } })
    const error = await slash.listen({ http: { port: 0 }, handleSignals: false }).catch((e: unknown) => e)
    expect((error as DuetError).code).toBe('ISSUER_UNREACHABLE')
    expect((error as DuetError).message).toContain(JSON.stringify(issuer.url))
    await slash.close()
  })

  it('a plain-http issuer off loopback is refused', async () => {
    const plain = createAppServer({ name: 'plain', version: '1.0.0', auth: { issuer: 'http://id.example.com', jwksUri: 'http://id.example.com/jwks' } })
    const error = await plain.listen({ http: { port: 0 }, handleSignals: false }).catch((e: unknown) => e)
    expect((error as DuetError).code).toBe('INVALID_OPTION')
    expect((error as DuetError).data).toEqual({ option: 'auth.issuer' })
    await plain.close()
  })
})

describe('opaque tokens by introspection (RFC 7662)', () => {
  it('accepts an active opaque token for this resource and refuses others with 401', async () => {
    const introspected = createAppServer({
      name: 'introspected',
      version: '1.0.0',
      auth: { issuer: issuer.url, introspection: { clientId: SERVICE_CLIENT.id, clientSecret: SERVICE_CLIENT.secret } },
    }).tool('whoami', { description: 'Who calls', outputSchema: { sub: z.string().nullable() } }, async (_args, ctx) => {
      const sub = subjectOf(ctx) ?? null
      return { content: [{ type: 'text', text: String(sub) }], structuredContent: { sub } }
    })
    const introspectedUrl = (await introspected.listen({ http: { port: 0 }, handleSignals: false })).url!
    try {
      const token = await issuer.tokenFor('alice', { audience: introspectedUrl, format: 'opaque' })
      expect(token.split('.')).toHaveLength(1)
      expect(await whoami(introspectedUrl, token)).toEqual({ sub: 'alice' })
      const elsewhere = await issuer.tokenFor('alice', { audience: 'http://127.0.0.1:1/elsewhere', format: 'opaque' })
      expect((await post(introspectedUrl, elsewhere)).status).toBe(401)
      expect((await post(introspectedUrl, 'made-up-token')).status).toBe(401)
    } finally {
      await introspected.close()
    }
  })
})

describe("the official MCP client's own OAuth flow", () => {
  it('finds the issuer from the 401 and the metadata, logs in with PKCE, and calls as the user', async () => {
    // The SDK client's provider, as a host keeps one: a pre-registered public client, tokens in memory.
    let verifier = ''
    let tokens: Awaited<ReturnType<OAuthClientProvider['tokens']>>
    let authorizationUrl: URL | undefined
    const provider: OAuthClientProvider = {
      redirectUrl: PUBLIC_CLIENT.redirectUri,
      clientMetadata: { client_name: 'test host', redirect_uris: [PUBLIC_CLIENT.redirectUri], token_endpoint_auth_method: 'none' },
      clientInformation: () => ({ client_id: PUBLIC_CLIENT.id }),
      tokens: () => tokens,
      saveTokens: (t) => {
        tokens = t
      },
      redirectToAuthorization: (url) => {
        authorizationUrl = url
      },
      saveCodeVerifier: (v) => {
        verifier = v
      },
      codeVerifier: () => verifier,
    }
    const first = new StreamableHTTPClientTransport(new URL(url), { authProvider: provider })
    const refused = await new Client({ name: 'host', version: '1' }).connect(first).catch((e: unknown) => e)
    expect(refused).toBeInstanceOf(Error)
    // The client asked for this resource, with S256 PKCE, at the issuer the metadata named.
    expect(authorizationUrl?.origin).toBe(issuer.url)
    expect(authorizationUrl?.searchParams.get('resource')).toBe(url)
    expect(authorizationUrl?.searchParams.get('code_challenge_method')).toBe('S256')

    const callback = await issuer.authorize(authorizationUrl!, 'carol')
    await first.finishAuth(callback)
    expect(tokens?.access_token).toBeTruthy()
    const client = new Client({ name: 'host', version: '1' })
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { authProvider: provider }))
    expect((await client.callTool({ name: 'whoami', arguments: {} })).structuredContent).toEqual({ sub: 'carol' })
    await client.close()
  })
})
