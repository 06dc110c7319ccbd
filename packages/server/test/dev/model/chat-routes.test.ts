import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { convertArrayToReadableStream, MockLanguageModelV4 } from 'ai/test'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { startDevServer } from '../../../src/dev/dev-server.js'
import type { ChatEvent } from '../../../src/dev/model/chat-events.js'
import { chatRoute } from '../../../src/dev/model/chat-routes.js'
import { ChatSession } from '../../../src/dev/model/chat-session.js'

type ModelStream = Awaited<ReturnType<MockLanguageModelV4['doStream']>>['stream']
const reply = () => ({
  stream: convertArrayToReadableStream([
    { type: 'text-start', id: 't' },
    { type: 'text-delta', id: 't', delta: 'ok' },
    { type: 'text-end', id: 't' },
    { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: { inputTokens: { total: 1 }, outputTokens: { total: 1 } } },
  ] as never[]) as ModelStream,
})

describe('the chat API', () => {
  let server: Server
  let base: string
  const events: ChatEvent[] = []
  const session = new ChatSession({
    model: new MockLanguageModelV4({ doStream: async () => reply() }),
    servers: () => [],
    emit: (e) => events.push(e),
    trace: () => {},
  })
  const post = async (path: string, body: unknown, type = 'application/json') => {
    const res = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': type },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    })
    return { status: res.status, body: (await res.json()) as { error?: { code: string; message: string }; turn?: number; stopped?: boolean } }
  }

  beforeAll(async () => {
    server = createServer((req, res) => {
      void chatRoute(session, new URL(req.url ?? '/', 'http://x').pathname, req, res).then((took) => took || res.writeHead(404).end('{}'))
    })
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise<void>((r) => server.close(() => r())))

  it('refuses bad requests with a named code, and the next good one still works', async () => {
    expect(await post('/api/chat', { text: 'hi' }, 'text/plain')).toMatchObject({ status: 415, body: { error: { code: 'INVALID_REQUEST' } } })
    expect(await post('/api/chat', '{not json')).toMatchObject({ status: 400, body: { error: { code: 'INVALID_REQUEST' } } })
    expect(await post('/api/chat', '[1]')).toMatchObject({ status: 400, body: { error: { code: 'INVALID_REQUEST' } } })
    expect(await post('/api/chat', { text: '   ' })).toMatchObject({
      status: 400,
      body: { error: { code: 'INVALID_ARGUMENT', message: expect.stringMatching(/text must be/) } },
    })
    expect(await post('/api/chat', { text: 'x'.repeat(100_001) })).toMatchObject({ status: 400, body: { error: { code: 'INVALID_ARGUMENT' } } })
    expect(await post('/api/chat', { text: 'hi', from: { callId: 1 } })).toMatchObject({
      status: 400,
      body: { error: { message: expect.stringMatching(/from must be/) } },
    })
    expect(await post('/api/chat/context', { params: {} })).toMatchObject({ status: 400, body: { error: { message: expect.stringMatching(/needs from/) } } })
    expect(await post('/api/chat/context', { from: { callId: 'c', tool: 't' }, params: 'x'.repeat(100_001) })).toMatchObject({
      status: 413,
      body: { error: { code: 'TOO_LARGE' } },
    })
    expect(events).toEqual([])
    expect(await post('/api/chat', { text: 'hi' })).toEqual({ status: 200, body: { turn: 1 } })
    await vi.waitFor(() => expect(events.some((e) => e.kind === 'turn-end')).toBe(true), { timeout: 10_000, interval: 10 })
    expect(events.filter((e) => e.kind === 'text')).toEqual([{ kind: 'text', turn: 1, delta: 'ok' }])
    expect(await post('/api/chat/stop', {})).toEqual({ status: 200, body: { stopped: false } })
  })

  it('says UNSUPPORTED when duet dev runs without a model', async () => {
    const dev = await startDevServer({ servers: [{ kind: 'http', url: 'http://127.0.0.1:1/mcp' }], port: 0, pollMs: 60_000 })
    try {
      const res = await fetch(new URL('/api/chat', dev.url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"text":"hi"}' })
      expect(res.status).toBe(409)
      expect(await res.json()).toMatchObject({ error: { code: 'UNSUPPORTED', message: expect.stringMatching(/start it with --model/) } })
      const state = (await (await fetch(new URL('/api/state', dev.url))).json()) as { chat: unknown }
      expect(state.chat).toBeNull()
    } finally {
      await dev.close()
    }
  })
})
