// Two real subjects of the test issuer share one server in session mode (`sessions: true`), over real
// HTTP, as an attacker would use it: Bob resumes his own SSE stream and must never receive Alice's
// messages, must not learn whether an event id of hers exists, and cannot close her session by opening
// many of his own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as z from 'zod'
import { createAppServer, type AppServer, type HttpListenOptions } from '../../src/server/index.js'
import { startIssuer, type TestIssuer } from '../auth/oidc-issuer.js'

const PROTOCOL = '2025-11-25'

interface SseEvent {
  id?: string
  data: string
}

/** Reads SSE events until `until` holds for one (returned with those before it) or `ms` passes. */
async function readEvents(res: Response, until: (e: SseEvent) => boolean, ms = 10_000): Promise<SseEvent[]> {
  const reader = res.body!.getReader()
  const decoder = new TextDecoder()
  const events: SseEvent[] = []
  let buffer = ''
  const timer = setTimeout(() => void reader.cancel().catch(() => {}), ms)
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) return events
      buffer += decoder.decode(value, { stream: true })
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const block = buffer.slice(0, end)
        buffer = buffer.slice(end + 2)
        const event: SseEvent = { data: '' }
        for (const line of block.split('\n')) {
          if (line.startsWith('id: ')) event.id = line.slice(4)
          if (line.startsWith('data: ')) event.data += line.slice(6)
        }
        if (event.data.trim() === '') continue
        events.push(event)
        if (until(event)) return events
      }
    }
  } finally {
    clearTimeout(timer)
    await reader.cancel().catch(() => {})
  }
}

interface Caller {
  token: string
  session?: string
}

function headers(who: Caller, extra: Record<string, string> = {}): Record<string, string> {
  return {
    accept: 'application/json, text/event-stream',
    authorization: `Bearer ${who.token}`,
    'mcp-protocol-version': PROTOCOL,
    ...(who.session && { 'mcp-session-id': who.session }),
    ...extra,
  }
}

let nextId = 1
async function post(url: string, who: Caller, method: string, params?: object): Promise<Response> {
  const notification = method.startsWith('notifications/')
  const body = { jsonrpc: '2.0', method, ...(params && { params }), ...(!notification && { id: nextId++ }) }
  return fetch(url, { method: 'POST', headers: headers(who, { 'content-type': 'application/json' }), body: JSON.stringify(body) })
}

/** Opens a session for `token` as a 2025-era client does: initialize, then notifications/initialized. */
async function open(url: string, token: string): Promise<Caller> {
  const res = await post(url, { token }, 'initialize', { protocolVersion: PROTOCOL, capabilities: {}, clientInfo: { name: 'attacker', version: '1' } })
  expect(res.status).toBe(200)
  const session = res.headers.get('mcp-session-id')
  await readEvents(res, (e) => e.data.includes('"result"'))
  expect(session).toBeTruthy()
  const who = { token, session: session! }
  expect((await post(url, who, 'notifications/initialized')).status).toBe(202)
  return who
}

/** Calls `announce`: the server later logs `text` to the session on its standalone stream. */
async function announce(url: string, who: Caller, text: string): Promise<void> {
  const res = await post(url, who, 'tools/call', { name: 'announce', arguments: { text } })
  expect(res.status).toBe(200)
  await readEvents(res, (e) => e.data.includes('"result"'))
}

const stream = (url: string, who: Caller, lastEventId?: string) =>
  fetch(url, { headers: headers(who, { accept: 'text/event-stream', ...(lastEventId && { 'last-event-id': lastEventId }) }) })

/** Pings on the session: 200 while it is open, 404 once it is closed. */
const ping = async (url: string, who: Caller) => {
  const res = await post(url, who, 'ping')
  await res.body?.cancel()
  return res.status
}

let issuer: TestIssuer
const apps: AppServer[] = []

async function serve(http: HttpListenOptions = {}): Promise<string> {
  const app = createAppServer({ name: 'announcer', version: '1', auth: { issuer: issuer.url } }).configure((mcp) => {
    mcp.server.registerCapabilities({ logging: {} })
    mcp.registerTool(
      'announce',
      { description: 'Logs a line to the caller on its session stream', inputSchema: z.object({ text: z.string() }) },
      async ({ text }) => {
        // Not tied to the request: it goes to the session's standalone stream, as a background job's news would.
        await mcp.server.sendLoggingMessage({ level: 'info', data: text })
        return { content: [{ type: 'text', text: 'announced' }] }
      },
    )
  })
  apps.push(app)
  const listening = await app.listen({ http: { port: 0, sessions: true, ...http }, handleSignals: false })
  return listening.url!
}

beforeAll(async () => {
  issuer = await startIssuer()
})
afterAll(async () => {
  for (const app of apps) await app.close()
  await issuer?.close()
})

describe('sessions kept apart (two subjects, sessions: true)', () => {
  let url: string
  let alice: Caller
  let bob: Caller
  let aliceEventId: string
  let bobEventId: string

  beforeAll(async () => {
    url = await serve()
    alice = await open(url, await issuer.tokenFor('alice', { audience: url }))
    bob = await open(url, await issuer.tokenFor('bob', { audience: url }))
    // Bob listens, sees one message of his own, and goes away (his stream breaks).
    const bobs = stream(url, bob)
    await announce(url, bob, 'bob-1')
    bobEventId = (await readEvents(await bobs, (e) => e.data.includes('bob-1'))).at(-1)!.id!
    // Alice is told about her job while Bob is away.
    const alices = stream(url, alice)
    await announce(url, alice, 'job finished for alice: payroll.csv')
    aliceEventId = (await readEvents(await alices, (e) => e.data.includes('payroll'))).at(-1)!.id!
    await announce(url, bob, 'bob-2')
    expect(bobEventId).toBeTruthy()
    expect(aliceEventId).toBeTruthy()
  })

  it("resuming his own stream with Last-Event-ID gives Bob what he missed and none of Alice's messages", async () => {
    const res = await stream(url, bob, bobEventId)
    expect(res.status).toBe(200)
    const replayed = await readEvents(res, (e) => e.data.includes('bob-2'))
    expect(replayed.map((e) => e.data).join('\n')).toContain('bob-2')
    expect(replayed.map((e) => e.data).join('\n')).not.toContain('alice')
  })

  it('Alice resumes her own stream and gets what she missed', async () => {
    await announce(url, alice, 'alice-2')
    const replayed = await readEvents(await stream(url, alice, aliceEventId), (e) => e.data.includes('alice-2'))
    expect(replayed.map((e) => e.data).join('\n')).toContain('alice-2')
    expect(replayed.map((e) => e.data).join('\n')).not.toContain('bob')
  })

  it("answers Alice's real event id on Bob's session exactly as an id never issued (no oracle)", async () => {
    const answer = async (lastEventId: string) => {
      const res = await stream(url, bob, lastEventId)
      const body = res.status === 200 ? (await readEvents(res, () => true, 1000)).map((e) => e.data).join('\n') : await res.text()
      return { status: res.status, body }
    }
    const foreign = await answer(aliceEventId)
    const neverSeen = await answer(`${aliceEventId}99`)
    const garbage = await answer('no-such-event')
    expect(foreign.status).toBe(400)
    expect(foreign).toEqual(neverSeen)
    expect(foreign).toEqual(garbage)
    expect(foreign.body).not.toContain('alice')
  })

  it("refuses Alice's session id with Bob's token, as an unknown session", async () => {
    const res = await post(url, { token: bob.token, session: alice.session! }, 'ping')
    expect(res.status).toBe(404)
    expect(await ping(url, alice)).toBe(200)
  })
})

describe('per-subject session caps and idle timeout', () => {
  it("a subject opening many sessions closes only its own oldest ones, never another subject's", async () => {
    const url = await serve({ maxSessions: 4, maxSessionsPerSubject: 2 })
    const alice = await open(url, await issuer.tokenFor('alice', { audience: url }))
    const bobToken = await issuer.tokenFor('bob', { audience: url })
    const bobs: Caller[] = []
    for (let i = 0; i < 6; i++) bobs.push(await open(url, bobToken))
    expect(await ping(url, alice)).toBe(200)
    expect(await Promise.all(bobs.map((b) => ping(url, b)))).toEqual([404, 404, 404, 404, 200, 200])
    // Past the total, the subject holding the most sessions (Bob) gives one up, not Alice.
    await open(url, await issuer.tokenFor('carol', { audience: url }))
    await open(url, await issuer.tokenFor('dave', { audience: url }))
    expect(await ping(url, alice)).toBe(200)
    expect((await Promise.all(bobs.slice(4).map((b) => ping(url, b)))).filter((s) => s === 200)).toHaveLength(1)
  })

  it('closes a session idle for longer than sessionIdleMs, and keeps a busy one', async () => {
    const url = await serve({ sessionIdleMs: 1000 })
    const idle = await open(url, await issuer.tokenFor('alice', { audience: url }))
    const busy = await open(url, await issuer.tokenFor('bob', { audience: url }))
    // Bob keeps using his session for well past the idle time; Alice does nothing meanwhile.
    const until = Date.now() + 3000
    while (Date.now() < until) {
      expect(await ping(url, busy)).toBe(200)
      await new Promise((r) => setTimeout(r, 100))
    }
    expect(await ping(url, idle)).toBe(404)
    expect(await ping(url, busy)).toBe(200)
  })

  it('keeps a session whose client listens on its stream, however long it sends nothing', async () => {
    const url = await serve({ sessionIdleMs: 300 })
    const listener = await open(url, await issuer.tokenFor('alice', { audience: url }))
    const listening = await stream(url, listener)
    expect(listening.status).toBe(200)
    // A window, not an event: five idle times (300 ms) in which a listening session must not be closed.
    await new Promise((r) => setTimeout(r, 1500))
    expect(await ping(url, listener)).toBe(200)
    await listening.body?.cancel()
  })

  it('refuses session options that are not positive integers, naming them', async () => {
    const app = createAppServer({ name: 'x', version: '1' })
    apps.push(app)
    await expect(app.listen({ http: { port: 0, sessions: true, maxSessionsPerSubject: 0 }, handleSignals: false })).rejects.toThrow(/maxSessionsPerSubject/)
    await expect(app.listen({ http: { port: 0, sessions: true, sessionIdleMs: -1 }, handleSignals: false })).rejects.toThrow(/sessionIdleMs/)
  })
})
