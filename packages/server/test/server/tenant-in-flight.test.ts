// Requests in flight per subject and in total, with real subjects of the test issuer over real HTTP: a
// subject past its share waits in its own line (or is answered BUSY past its line's bound) while another
// subject's calls go through; lines are served in turn; a client that goes away leaves the line; bad
// limits are named.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import * as z from 'zod'
import { createAppServer, type AppServer, type HttpListenOptions } from '../../src/server/index.js'
import { startIssuer, type TestIssuer } from '../auth/oidc-issuer.js'
import { modernRequest } from './modern-request.js'

let issuer: TestIssuer
const apps: AppServer[] = []
/** Tags of the `hold` calls whose handler has started, in order. */
let started: string[] = []
/** Each running `hold` call's release, oldest first. */
const gates: Array<() => void> = []

async function serve(http: HttpListenOptions): Promise<string> {
  const app = createAppServer({ name: 'lines', version: '1', auth: { issuer: issuer.url } })
    .tool('hold', { description: 'Answers once released', inputSchema: { tag: z.string() } }, async ({ tag }) => {
      started.push(tag)
      await new Promise<void>((resolve) => gates.push(resolve))
      return { content: [{ type: 'text', text: tag }] }
    })
    .tool('echo', { description: 'Answers ok' }, async () => ({ content: [{ type: 'text', text: 'ok' }] }))
  apps.push(app)
  return (await app.listen({ http: { port: 0, ...http }, handleSignals: false })).url!
}

/** One modern (per-request) tool call as the holder of `token`. */
const call = (url: string, token: string, name: string, args: Record<string, unknown> = {}, signal?: AbortSignal) =>
  modernRequest(url, 'tools/call', { name, arguments: args }, { token, ...(signal && { signal }) })
const hold = (url: string, token: string, tag: string, signal?: AbortSignal) => call(url, token, 'hold', { tag }, signal)
const statusOf = async (response: Promise<Response>) => {
  const res = await response
  await res.body?.cancel()
  return res.status
}
/**
 * Starts one `hold` call per tag, each once the one before has started: two requests sent together may
 * reach the handler in either order, and the tests name them by order.
 */
async function holdInTurn(url: string, token: string, tags: string[]): Promise<Array<Promise<Response>>> {
  const calls: Array<Promise<Response>> = []
  for (const tag of tags) {
    calls.push(hold(url, token, tag))
    await expect.poll(() => started.includes(tag), { timeout: 10_000 }).toBe(true)
  }
  return calls
}
/** Releases the oldest running `hold` call. */
const release = () => gates.shift()?.()
const settle = () => new Promise((resolve) => setTimeout(resolve, 300))

beforeAll(async () => {
  issuer = await startIssuer()
})
afterEach(() => {
  for (const open of gates.splice(0)) open()
  started = []
})
afterAll(async () => {
  for (const app of apps) await app.close()
  await issuer?.close()
})

describe('requests in flight, per subject and in total (two subjects over HTTP)', () => {
  it("makes mallory's calls past her share wait, answers BUSY past her line's bound, and serves alice meanwhile", async () => {
    const url = await serve({ maxInFlightPerSubject: 2, maxQueuedRequestsPerSubject: 1 })
    const [mallory, alice] = [await issuer.tokenFor('mallory', { audience: url }), await issuer.tokenFor('alice', { audience: url })]
    const running = await holdInTurn(url, mallory, ['m1', 'm2'])
    const waiting = hold(url, mallory, 'm3')
    // m3 must be in the line before the echo is sent, or the echo would wait and m3 be refused.
    await settle()
    const refused = await call(url, mallory, 'echo')
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    const body = (await refused.json()) as { error: { message: string; data: Record<string, unknown> } }
    expect(body.error.data).toMatchObject({ code: 'BUSY', queue: 'subject', limit: 1 })
    expect(body.error.data.retryAfterSeconds).toBeGreaterThanOrEqual(1)
    // Alice is not behind mallory's calls: hers is answered while all of mallory's are held.
    expect(await statusOf(call(url, alice, 'echo'))).toBe(200)
    expect(started).toEqual(['m1', 'm2'])
    // One of mallory's ends: her waiting call runs.
    release()
    await expect.poll(() => started, { timeout: 10_000 }).toEqual(['m1', 'm2', 'm3'])
    release()
    release()
    expect(await Promise.all([...running, waiting].map(statusOf))).toEqual([200, 200, 200])
  }, 60_000)

  it("serves the lines in turn past the total: alice's waiting call runs after one of mallory's, not after all of them", async () => {
    const url = await serve({ maxInFlight: 2, maxInFlightPerSubject: 2 })
    const [mallory, alice] = [await issuer.tokenFor('mallory', { audience: url }), await issuer.tokenFor('alice', { audience: url })]
    const calls = await holdInTurn(url, mallory, ['m1', 'm2'])
    for (const tag of ['m3', 'm4', 'm5']) calls.push(hold(url, mallory, tag))
    await settle()
    calls.push(hold(url, alice, 'a1'))
    await settle()
    expect(started).toEqual(['m1', 'm2'])
    for (let i = 0; i < 4; i++) {
      release()
      await expect.poll(() => started.length, { timeout: 10_000 }).toBe(3 + i)
    }
    // First come, first served would have put alice sixth. Mallory's three waiting calls race each other
    // over HTTP, so which of hers runs when is not the point: whose call runs is.
    expect(started.map((tag) => tag[0])).toEqual(['m', 'm', 'm', 'a', 'm', 'm'])
    release()
    release()
    expect(new Set(await Promise.all(calls.map(statusOf)))).toEqual(new Set([200]))
  }, 60_000)

  it('answers BUSY (503) when the whole line is full', async () => {
    const url = await serve({ maxInFlight: 1, maxInFlightPerSubject: 1, maxQueuedRequests: 1 })
    const [mallory, alice, bob] = await Promise.all(['mallory', 'alice', 'bob'].map((s) => issuer.tokenFor(s, { audience: url })))
    const running = hold(url, mallory!, 'm1')
    await expect.poll(() => started, { timeout: 10_000 }).toEqual(['m1'])
    const waiting = hold(url, alice!, 'a1')
    await settle()
    const full = await call(url, bob!, 'echo')
    expect(full.status).toBe(503)
    expect(((await full.json()) as { error: { data: Record<string, unknown> } }).error.data).toMatchObject({ code: 'BUSY', queue: 'all', limit: 1 })
    release()
    await expect.poll(() => started, { timeout: 10_000 }).toEqual(['m1', 'a1'])
    release()
    expect(await Promise.all([running, waiting].map(statusOf))).toEqual([200, 200])
  }, 60_000)

  it('takes a waiting call out of the line when its client goes away: it never runs and frees its place', async () => {
    const url = await serve({ maxInFlightPerSubject: 1, maxQueuedRequestsPerSubject: 1 })
    const mallory = await issuer.tokenFor('mallory', { audience: url })
    const running = hold(url, mallory, 'm1')
    await expect.poll(() => started, { timeout: 10_000 }).toEqual(['m1'])
    const abort = new AbortController()
    const gone = hold(url, mallory, 'gone', abort.signal).catch(() => undefined)
    await settle()
    abort.abort()
    await gone
    // Its place is free once the server has seen the client go: the next call waits instead of BUSY.
    let next: Promise<Response> | undefined
    await expect
      .poll(
        async () => {
          const attempt = hold(url, mallory, 'm2')
          const early = await Promise.race([attempt.then((r) => r.status), new Promise((resolve) => setTimeout(() => resolve('waiting'), 200))])
          if (early === 'waiting') next = attempt
          return early
        },
        { timeout: 10_000, interval: 100 },
      )
      .toBe('waiting')
    release()
    await expect.poll(() => started, { timeout: 10_000 }).toEqual(['m1', 'm2'])
    release()
    expect(await Promise.all([running, next!].map(statusOf))).toEqual([200, 200])
  }, 60_000)

  it('refuses bad limits, naming them', async () => {
    const app = createAppServer({ name: 'x', version: '1' })
    await expect(app.listen({ http: { port: 0, maxInFlight: 0 }, handleSignals: false })).rejects.toThrow(
      /option 'http.maxInFlight' must be an integer >= 1, got 0/,
    )
    await expect(app.listen({ http: { port: 0, maxQueuedRequestsPerSubject: 1.5 }, handleSignals: false })).rejects.toThrow(
      /option 'http.maxQueuedRequestsPerSubject'/,
    )
    await expect(app.listen({ http: { port: 0, maxInFlight: 4, maxInFlightPerSubject: 8 }, handleSignals: false })).rejects.toThrow(
      /option 'http.maxInFlightPerSubject' must be at most http.maxInFlight \(4\), got 8/,
    )
    await app.close()
  })
})
