// The resource server with a custom verifier: the gate, the challenges, the subject in handlers, per-tool
// scopes, the non-loopback refusal and the rate limit, over real HTTP with the official client.
import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { OAuthError, OAuthErrorCode, type AuthInfo } from '@modelcontextprotocol/server'
import { createAppServer, DuetError, subjectOf, type Listening, type RateLimitOptions } from '@duetkit/server'
import * as z from 'zod'

// Tokens of this test: "<subject>:<scope>,<scope>"; "expired:…" is past its expiry.
async function verifier(token: string): Promise<AuthInfo> {
  const [sub, scopes = ''] = token.split(':')
  if (!sub || sub === 'bad') throw new OAuthError(OAuthErrorCode.InvalidToken, 'Unknown token')
  const expiresAt = Math.floor(Date.now() / 1000) + (sub === 'expired' ? -60 : 3600)
  return { token, clientId: 'test', scopes: scopes.split(',').filter(Boolean), expiresAt, extra: { sub } }
}

function makeServer(options: { rateLimit?: RateLimitOptions; scopes?: string[] } = {}) {
  return createAppServer({
    name: 'guarded',
    version: '1.0.0',
    auth: { verifier, ...(options.scopes && { scopes: options.scopes }) },
    ...(options.rateLimit && { rateLimit: options.rateLimit }),
  })
    .tool('whoami', { description: 'Who calls', outputSchema: { sub: z.string().nullable() } }, async (_args, ctx) => {
      const sub = subjectOf(ctx) ?? null
      return { content: [{ type: 'text', text: String(sub) }], structuredContent: { sub } }
    })
    .tool('admin_only', { description: 'Needs admin', scopes: ['admin'] }, async () => ({ content: [{ type: 'text', text: 'done' }] }))
}

const rpc = (method: string, params: object = {}, id = 1) => JSON.stringify({ jsonrpc: '2.0', id, method, params })
const MODERN = { 'mcp-protocol-version': '2026-07-28' }
const callBody = (name: string) =>
  rpc('tools/call', {
    name,
    arguments: {},
    _meta: {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': {},
    },
  })

async function post(url: string, body: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body })
}

async function connect(url: string, token: string): Promise<Client> {
  const client = new Client({ name: 'test', version: '1' })
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }))
  return client
}

describe('auth with a custom verifier', () => {
  let listening: Listening
  let url: string
  const app = makeServer()
  beforeAll(async () => {
    listening = await app.listen({ http: { port: 0 }, handleSignals: false })
    url = listening.url!
  })
  afterAll(() => app.close())

  it('answers a request without a token with 401 and a challenge naming the metadata', async () => {
    const response = await post(url, rpc('tools/list'), MODERN)
    expect(response.status).toBe(401)
    const challenge = response.headers.get('www-authenticate') ?? ''
    expect(challenge).toMatch(/^Bearer /)
    expect(challenge).toContain('error="invalid_token"')
    expect(challenge).toContain(`resource_metadata="${new URL(url).origin}/.well-known/oauth-protected-resource/mcp"`)
  })

  it('answers an unknown token and an expired one with 401', async () => {
    for (const token of ['bad', 'expired:x']) {
      const response = await post(url, rpc('tools/list'), { ...MODERN, authorization: `Bearer ${token}` })
      expect(response.status).toBe(401)
      expect(response.headers.get('www-authenticate')).toContain('error="invalid_token"')
    }
  })

  it('serves the metadata document at the root and the path-inserted well-known URLs', async () => {
    for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
      const response = await fetch(new URL(path, url))
      expect(response.status).toBe(200)
      const doc = (await response.json()) as Record<string, unknown>
      expect(doc.resource).toBe(url)
      expect(doc.bearer_methods_supported).toEqual(['header'])
      expect(doc.scopes_supported).toEqual(['admin'])
    }
  })

  for (const era of ['legacy', 'modern'] as const) {
    it(`passes the token's subject to handlers (${era} era)`, async () => {
      const client = new Client({ name: 'test', version: '1' }, era === 'modern' ? { versionNegotiation: { mode: 'auto' } } : {})
      await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: 'Bearer alice:' } } }))
      const result = await client.callTool({ name: 'whoami', arguments: {} })
      expect(result.structuredContent).toEqual({ sub: 'alice' })
      await client.close()
    })
  }

  it('answers a call of a tool whose scopes the token lacks with 403 insufficient_scope naming them, and runs it with them', async () => {
    const denied = await post(url, callBody('admin_only'), {
      ...MODERN,
      'mcp-method': 'tools/call',
      'mcp-name': 'admin_only',
      authorization: 'Bearer alice:read',
    })
    expect(denied.status).toBe(403)
    const challenge = denied.headers.get('www-authenticate') ?? ''
    expect(challenge).toContain('error="insufficient_scope"')
    expect(challenge).toContain('scope="admin"')
    expect(challenge).toContain('resource_metadata=')
    const client = await connect(url, 'alice:admin')
    const result = await client.callTool({ name: 'admin_only', arguments: {} })
    expect(result.isError).toBeFalsy()
    await client.close()
  })
})

describe('a server-wide required scope', () => {
  const app = makeServer({ scopes: ['mcp'] })
  let url: string
  beforeAll(async () => {
    url = (await app.listen({ http: { port: 0 }, handleSignals: false })).url!
  })
  afterAll(() => app.close())

  it('refuses a token without it with 403 naming it, and accepts one with it', async () => {
    const denied = await post(url, rpc('tools/list'), { ...MODERN, authorization: 'Bearer alice:other' })
    expect(denied.status).toBe(403)
    expect(denied.headers.get('www-authenticate')).toContain('scope="mcp"')
    const client = await connect(url, 'alice:mcp')
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('whoami')
    await client.close()
  })
})

describe('safe by default', () => {
  it('refuses to listen on a non-loopback address without auth, in one line naming the way out', async () => {
    const app = createAppServer({ name: 'open', version: '1.0.0' })
    const error = await app.listen({ http: { port: 0, host: '0.0.0.0' }, handleSignals: false }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(DuetError)
    expect((error as DuetError).code).toBe('INSECURE_BIND')
    expect((error as DuetError).message).not.toContain('\n')
    expect((error as DuetError).message).toContain('--insecure-no-auth')
    await app.close()
  })

  it('listens on a non-loopback address with insecure: true', async () => {
    const app = createAppServer({ name: 'open', version: '1.0.0' })
    const listening = await app.listen({ http: { port: 0, host: '0.0.0.0', insecure: true }, handleSignals: false })
    expect(listening.url).toMatch(/^http:\/\/0\.0\.0\.0:\d+\/mcp$/)
    await app.close()
  })

  it('listens on a non-loopback address with auth (given the public resource URL)', async () => {
    const app = createAppServer({ name: 'guarded', version: '1.0.0', auth: { verifier, resource: 'https://mcp.example.com/mcp' } })
    const listening = await app.listen({ http: { port: 0, host: '0.0.0.0' }, handleSignals: false })
    const port = new URL(listening.url!).port
    const response = await post(`http://127.0.0.1:${port}/mcp`, rpc('tools/list'), MODERN)
    expect(response.status).toBe(401)
    expect(response.headers.get('www-authenticate')).toContain('resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"')
    // Through a proxy the public host name arrives in Host: accepted; any other name is still refused.
    const viaProxy = await new Promise<number>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port, method: 'GET', path: '/.well-known/oauth-protected-resource/mcp', headers: { host: 'mcp.example.com' } },
        (res) => {
          res.resume()
          resolve(res.statusCode ?? 0)
        },
      )
      req.on('error', reject)
      req.end()
    })
    expect(viaProxy).toBe(200)
    await app.close()
  })

  it('asks for the public resource URL when auth listens on a wildcard address without one', async () => {
    const app = createAppServer({ name: 'guarded', version: '1.0.0', auth: { verifier } })
    const error = await app.listen({ http: { port: 0, host: '0.0.0.0' }, handleSignals: false }).catch((e: unknown) => e)
    expect((error as DuetError).code).toBe('INVALID_OPTION')
    expect((error as DuetError).data).toEqual({ option: 'auth.resource' })
    await app.close()
  })
})

describe('options checked up front', () => {
  const cases: Array<[string, () => unknown, string]> = [
    ['auth without issuer or verifier', () => createAppServer({ name: 'x', version: '1', auth: {} as never }), 'auth'],
    ['a relative issuer', () => createAppServer({ name: 'x', version: '1', auth: { issuer: '/issuer' } }), 'auth.issuer'],
    ['an empty audience list', () => createAppServer({ name: 'x', version: '1', auth: { issuer: 'https://id.example.com', audience: [] } }), 'auth.audience'],
    [
      'an HS256 algorithm',
      () => createAppServer({ name: 'x', version: '1', auth: { issuer: 'https://id.example.com', algorithms: ['HS256'] } }),
      'auth.algorithms',
    ],
    ['a scope with a space', () => createAppServer({ name: 'x', version: '1', auth: { verifier, scopes: ['a b'] } }), 'auth.scopes'],
    ['a zero burst', () => createAppServer({ name: 'x', version: '1', rateLimit: { burst: 0, perSecond: 1 } }), 'rateLimit.burst'],
    ['a negative rate', () => createAppServer({ name: 'x', version: '1', rateLimit: { burst: 1, perSecond: -1 } }), 'rateLimit.perSecond'],
    [
      'a tool scope that is not a string',
      () => createAppServer({ name: 'x', version: '1' }).tool('t', { description: 'd', scopes: [1 as never] }, async () => ({ content: [] })),
      'scopes',
    ],
  ]
  for (const [title, make, option] of cases) {
    it(`refuses ${title}, naming ${option}`, () => {
      let caught: unknown
      try {
        make()
      } catch (err) {
        caught = err
      }
      expect((caught as DuetError).code).toBe('INVALID_OPTION')
      expect((caught as DuetError).data).toEqual({ option })
    })
  }
})

describe('rate limit per caller and per tool', () => {
  // One token a second: slow enough that no refill lands between the three quick calls, even on a loaded machine.
  // The per-tool buckets alone (the whole-caller bucket is tested in tenant-rate-limit.test.ts).
  const app = makeServer({ rateLimit: { burst: 2, perSecond: 1, all: false } })
  let url: string
  beforeAll(async () => {
    url = (await app.listen({ http: { port: 0 }, handleSignals: false })).url!
  })
  afterAll(() => app.close())

  const call = (token: string, tool = 'whoami') =>
    post(url, callBody(tool), { ...MODERN, 'mcp-method': 'tools/call', 'mcp-name': tool, authorization: `Bearer ${token}` })

  it('answers past the burst with 429 and Retry-After, other callers and tools unaffected, and recovers after the wait', async () => {
    expect((await call('carol:')).status).toBe(200)
    expect((await call('carol:')).status).toBe(200)
    const limited = await call('carol:')
    expect(limited.status).toBe(429)
    expect(limited.headers.get('retry-after')).toBe('1')
    const body = (await limited.json()) as { id: number; error: { message: string; data: { code: string; tool: string; retryAfterSeconds: number } } }
    expect(body.id).toBe(1)
    expect(body.error.data).toEqual({ code: 'RATE_LIMITED', tool: 'whoami', retryAfterSeconds: 1 })
    expect(body.error.message).toContain("'whoami'")
    // Another subject has its own bucket, and so has another tool of the same subject.
    expect((await call('dave:')).status).toBe(200)
    expect((await call('carol:admin', 'admin_only')).status).toBe(200)
    // 1 per second: one call is back after a second.
    await new Promise((resolve) => setTimeout(resolve, 1100))
    expect((await call('carol:')).status).toBe(200)
    expect((await call('carol:')).status).toBe(429)
  })

  it('does not count requests other than tool calls', async () => {
    for (let i = 0; i < 5; i++) expect((await post(url, rpc('ping'), { authorization: 'Bearer erin:' })).status).toBe(200)
  })
})

describe('rate limit without auth', () => {
  const app = createAppServer({ name: 'open', version: '1.0.0', rateLimit: { burst: 1, perSecond: 0.5 } }).tool(
    'noop',
    { description: 'Nothing' },
    async () => ({ content: [] }),
  )
  let url: string
  beforeAll(async () => {
    url = (await app.listen({ http: { port: 0 }, handleSignals: false })).url!
  })
  afterAll(() => app.close())

  it('counts per client address', async () => {
    const call = () => post(url, callBody('noop'), { ...MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'noop' })
    expect((await call()).status).toBe(200)
    const limited = await call()
    expect(limited.status).toBe(429)
    expect(limited.headers.get('retry-after')).toBe('2')
  })
})

describe('the subject over stdio', () => {
  it('is $DUET_SUBJECT when set (no HTTP request), and undefined without it', () => {
    const saved = process.env.DUET_SUBJECT
    try {
      process.env.DUET_SUBJECT = 'stdio-user'
      expect(subjectOf({})).toBe('stdio-user')
      // Over HTTP the token decides, never the environment.
      expect(subjectOf({ http: {} })).toBeUndefined()
      delete process.env.DUET_SUBJECT
      expect(subjectOf({})).toBeUndefined()
    } finally {
      if (saved === undefined) delete process.env.DUET_SUBJECT
      else process.env.DUET_SUBJECT = saved
    }
  })
})

describe('sessions belong to their subject', () => {
  const app = makeServer()
  let url: string
  beforeAll(async () => {
    url = (await app.listen({ http: { port: 0, sessions: true }, handleSignals: false })).url!
  })
  afterAll(() => app.close())

  it("answers another subject's token on a known session id with 404, and the owner's as before", async () => {
    const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: 'Bearer alice:' } } })
    const client = new Client({ name: 'test', version: '1' })
    await client.connect(transport)
    const sessionId = transport.sessionId!
    expect(sessionId).toBeTruthy()
    const headers = { 'mcp-session-id': sessionId, 'mcp-protocol-version': client.getNegotiatedProtocolVersion()! }
    const stolen = await post(url, rpc('tools/list', {}, 7), { ...headers, authorization: 'Bearer mallory:' })
    expect(stolen.status).toBe(404)
    const own = await post(url, rpc('tools/list', {}, 8), { ...headers, authorization: 'Bearer alice:' })
    expect(own.status).toBe(200)
    expect((await client.callTool({ name: 'whoami', arguments: {} })).structuredContent).toEqual({ sub: 'alice' })
    await client.close()
  })
})
