// The rate limit with two real subjects of the test issuer, over real HTTP: each subject has its own
// buckets, made-up tool names make none (so they cannot push out a drained one), and initialize,
// resources/* and prompts/* are counted too; the whole-caller bucket (`all`) counts every call of a
// subject, made-up tools included, before the body is read. The per-tool cases turn `all` off.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAppServer, type AppServer, type RateLimitOptions } from '../../src/server/index.js'
import { startIssuer, type TestIssuer } from '../auth/oidc-issuer.js'
import { modernRequest } from './modern-request.js'

let issuer: TestIssuer
const apps: AppServer[] = []

async function serve(rateLimit: RateLimitOptions): Promise<string> {
  const app = createAppServer({ name: 'limited', version: '1', auth: { issuer: issuer.url }, rateLimit: { all: false, ...rateLimit } })
    .tool('echo', { description: 'Answers ok' }, async () => ({ content: [{ type: 'text', text: 'ok' }] }))
    // A tool registered on the SDK server directly is counted too.
    .configure((mcp) => mcp.registerTool('direct', { description: 'Answers ok' }, async () => ({ content: [{ type: 'text', text: 'ok' }] })))
  apps.push(app)
  return (await app.listen({ http: { port: 0 }, handleSignals: false })).url!
}

/** One modern (per-request) call of `method` as the holder of `token`; the answer's status. */
async function call(url: string, token: string, method: string, params: Record<string, unknown> = {}): Promise<number> {
  const res = await modernRequest(url, method, params, { token })
  await res.body?.cancel()
  return res.status
}

/** A 2025-era initialize (the server is stateless, so each is answered and forgotten). */
async function initialize(url: string, token: string): Promise<number> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${token}` },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    }),
  })
  await res.body?.cancel()
  return res.status
}

beforeAll(async () => {
  issuer = await startIssuer()
})
afterAll(async () => {
  for (const app of apps) await app.close()
  await issuer?.close()
})

describe('a rate limit that holds (two subjects, in memory)', () => {
  it("keys buckets by subject: Alice's drained bucket leaves Bob's calls alone", async () => {
    const url = await serve({ burst: 2, perSecond: 0.01 })
    const alice = await issuer.tokenFor('alice', { audience: url })
    const bob = await issuer.tokenFor('bob', { audience: url })
    expect([await call(url, alice, 'tools/call', { name: 'echo' }), await call(url, alice, 'tools/call', { name: 'echo' })]).toEqual([200, 200])
    expect(await call(url, alice, 'tools/call', { name: 'echo' })).toBe(429)
    expect(await call(url, bob, 'tools/call', { name: 'echo' })).toBe(200)
    expect([await call(url, bob, 'tools/call', { name: 'direct' }), await call(url, bob, 'tools/call', { name: 'direct' })]).toEqual([200, 200])
    expect(await call(url, bob, 'tools/call', { name: 'direct' })).toBe(429)
  })

  it('made-up tool names make no bucket, so they never push out the caller’s drained one', async () => {
    const url = await serve({ burst: 1, perSecond: 0.01, maxBuckets: 4 })
    const alice = await issuer.tokenFor('alice', { audience: url })
    expect(await call(url, alice, 'tools/call', { name: 'echo' })).toBe(200)
    expect(await call(url, alice, 'tools/call', { name: 'echo' })).toBe(429)
    // Before, each name took a bucket and a full table dropped the oldest: Alice's drained one.
    for (let i = 0; i < 20; i++) await call(url, alice, 'tools/call', { name: `made_up_${i}` })
    expect(await call(url, alice, 'tools/call', { name: 'echo' })).toBe(429)
  })

  it("a table full of other subjects' drained buckets refuses a newcomer rather than free one early", async () => {
    const url = await serve({ burst: 1, perSecond: 0.01, maxBuckets: 2 })
    const alice = await issuer.tokenFor('alice', { audience: url })
    const bob = await issuer.tokenFor('bob', { audience: url })
    const carol = await issuer.tokenFor('carol', { audience: url })
    for (const token of [alice, bob]) expect(await call(url, token, 'tools/call', { name: 'echo' })).toBe(200)
    expect(await call(url, carol, 'tools/call', { name: 'echo' })).toBe(429)
    expect(await call(url, alice, 'tools/call', { name: 'echo' })).toBe(429)
    expect(await call(url, bob, 'tools/call', { name: 'echo' })).toBe(429)
  })

  it('counts initialize, resources/* and prompts/* per subject', async () => {
    const url = await serve({ burst: 2, perSecond: 0.01 })
    const alice = await issuer.tokenFor('alice', { audience: url })
    const bob = await issuer.tokenFor('bob', { audience: url })
    expect([await initialize(url, alice), await initialize(url, alice), await initialize(url, alice)]).toEqual([200, 200, 429])
    expect(await initialize(url, bob)).toBe(200)
    for (const method of ['resources/list', 'resources/read', 'prompts/list', 'prompts/get']) {
      const params = method === 'resources/read' ? { uri: 'ui://nothing' } : method === 'prompts/get' ? { name: 'none' } : {}
      const first = await call(url, alice, method, params)
      expect(first, method).not.toBe(429)
      expect(await call(url, alice, method, params), method).toBe(first)
      expect(await call(url, alice, method, params), method).toBe(429)
      // Bob gets the answer Alice got before her bucket ran dry (this server has no resources or prompts).
      expect(await call(url, bob, method, params), method).toBe(first)
    }
  })

  it("counts every call of a subject in its whole-caller bucket (any tool, made-up ones too), leaving the other subject's alone", async () => {
    const url = await serve({ burst: 10, perSecond: 0.01, all: { burst: 3, perSecond: 0.01 } })
    const alice = await issuer.tokenFor('alice', { audience: url })
    const bob = await issuer.tokenFor('bob', { audience: url })
    // Three calls of three names, each far under its own tool's burst of 10: the third is a made-up tool.
    expect(await call(url, alice, 'tools/call', { name: 'echo' })).toBe(200)
    expect(await call(url, alice, 'tools/call', { name: 'direct' })).toBe(200)
    expect(await call(url, alice, 'tools/call', { name: 'made_up' })).not.toBe(429)
    const refused = await modernRequest(url, 'tools/call', { name: 'echo', arguments: {} }, { token: alice })
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(1)
    const body = (await refused.json()) as { error: { message: string; data: Record<string, unknown> } }
    expect(body.error.data).toMatchObject({ code: 'RATE_LIMITED', all: 'all' })
    expect(body.error.message).toMatch(/all of its calls together/)
    // Refused before its body is read: a body that is not even JSON gets the same answer.
    const unread = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${alice}` }, body: '{ not json' })
    expect(unread.status).toBe(429)
    await unread.body?.cancel()
    expect(await call(url, bob, 'tools/call', { name: 'echo' })).toBe(200)
    expect(await call(url, bob, 'tools/call', { name: 'echo' })).toBe(200)
  })

  it("makes a subject's calls past its whole rate wait for their token (a second at most) rather than refusing them at once", async () => {
    // A token every 250 ms after a burst of 2: of 12 calls sent at once, the burst goes at once, the next ones
    // as tokens come back within the second, the rest are refused.
    const url = await serve({ burst: 100, perSecond: 100, all: { burst: 2, perSecond: 4 } })
    const alice = await issuer.tokenFor('alice', { audience: url })
    const bob = await issuer.tokenFor('bob', { audience: url })
    const statuses = await Promise.all(Array.from({ length: 12 }, () => call(url, alice, 'tools/call', { name: 'echo' })))
    const served = statuses.filter((s) => s === 200).length
    expect(served).toBeGreaterThan(2)
    expect(served).toBeLessThanOrEqual(2 + 5)
    expect(statuses.filter((s) => s === 429).length).toBe(12 - served)
    expect(await call(url, bob, 'tools/call', { name: 'echo' })).toBe(200)
  })

  it('defaults the whole-caller bucket to twice the per-tool rate, and checks it, naming the option', async () => {
    const app = createAppServer({ name: 'x', version: '1', auth: { issuer: issuer.url }, rateLimit: { burst: 1, perSecond: 0.01 } })
      .tool('one', { description: 'ok' }, async () => ({ content: [] }))
      .tool('two', { description: 'ok' }, async () => ({ content: [] }))
      .tool('three', { description: 'ok' }, async () => ({ content: [] }))
    apps.push(app)
    const url = (await app.listen({ http: { port: 0 }, handleSignals: false })).url!
    const carol = await issuer.tokenFor('carol', { audience: url })
    expect([await call(url, carol, 'tools/call', { name: 'one' }), await call(url, carol, 'tools/call', { name: 'two' })]).toEqual([200, 200])
    expect(await call(url, carol, 'tools/call', { name: 'three' })).toBe(429)
    expect(() => createAppServer({ name: 'x', version: '1', rateLimit: { burst: 1, perSecond: 1, all: { burst: 0, perSecond: 1 } } })).toThrow(
      /rateLimit\.all\.burst/,
    )
    expect(() => createAppServer({ name: 'x', version: '1', rateLimit: { burst: 1, perSecond: 1, all: 'lots' as never } })).toThrow(/rateLimit\.all'/)
  })

  it("leaves a body past the SDK's 4 MB bound to the SDK (413) rather than parse it to meter it", async () => {
    const url = await serve({ burst: 5, perSecond: 1 })
    const alice = await issuer.tokenFor('alice', { audience: url })
    const big = await modernRequest(url, 'tools/call', { name: 'echo', arguments: { pad: 'x'.repeat(5 * 1024 * 1024) } }, { token: alice })
    await big.body?.cancel()
    expect(big.status).toBe(413)
    // A call within the bound is parsed once here and handed on: it is served.
    const small = await modernRequest(url, 'tools/call', { name: 'echo', arguments: {} }, { token: alice })
    expect(small.status).toBe(200)
    expect(JSON.stringify(await small.json())).toContain('"ok"')
  })

  it('refuses a rate-limit store without take(), naming it', () => {
    expect(() => createAppServer({ name: 'x', version: '1', rateLimit: { burst: 1, perSecond: 1, store: {} as never } })).toThrow(/rateLimit\.store/)
  })
})
