import { APICallError, simulateReadableStream } from 'ai'
import { MockLanguageModelV4, convertArrayToReadableStream } from 'ai/test'
import { describe, expect, it, vi } from 'vitest'
import type { ServerState } from '../../../src/dev/connections.js'
import type { ChatEvent } from '../../../src/dev/model/chat-events.js'
import { ChatSession } from '../../../src/dev/model/chat-session.js'
import type { ToolServer } from '../../../src/dev/model/model-tools.js'

// The mock's stream type; the parts below are written as the provider spec's plain objects.
type ModelStream = Awaited<ReturnType<MockLanguageModelV4['doStream']>>['stream']
type StreamPart = ModelStream extends ReadableStream<infer P> ? P : never

const usage = (input: number, output: number) => ({
  inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: output, text: output, reasoning: undefined },
})
const finish = (reason: 'stop' | 'tool-calls', input: number, output: number) => ({
  type: 'finish',
  finishReason: { unified: reason, raw: reason },
  usage: usage(input, output),
})
const text = (...deltas: string[]) => [
  { type: 'text-start', id: 't' },
  ...deltas.map((delta) => ({ type: 'text-delta', id: 't', delta })),
  { type: 'text-end', id: 't' },
]
const step = (parts: unknown[]) => ({ stream: convertArrayToReadableStream(parts as StreamPart[]) as ModelStream })
const toolCall = (id: string, name: string, input: unknown) => ({ type: 'tool-call', toolCallId: id, toolName: name, input: JSON.stringify(input) })

/** A connected server whose tools answer from `answer`, recording each call. */
function server(id: string, tools: ServerState['tools'], answer: (name: string, args: unknown) => unknown = () => ({ content: [] })) {
  const calls: { name: string; args: unknown }[] = []
  const s: ToolServer & { calls: typeof calls } = {
    id,
    calls,
    snapshot: () => ({ id, label: id, status: 'connected', tools }),
    async request(method, params) {
      expect(method).toBe('tools/call')
      calls.push({ name: String(params.name), args: params.arguments })
      return answer(String(params.name), params.arguments)
    },
  }
  return s
}
const tool = (name: string, meta?: Record<string, unknown>) => ({
  name,
  description: `the ${name} tool`,
  inputSchema: { type: 'object' as const, properties: {} },
  ...(meta && { _meta: meta }),
})

function session(model: MockLanguageModelV4, servers: ToolServer[]) {
  const events: ChatEvent[] = []
  const traced: string[] = []
  let ended: () => void = () => {}
  const chat = new ChatSession({
    model,
    servers: () => servers,
    emit: (e) => {
      events.push(e)
      if (e.kind === 'turn-end') ended()
    },
    trace: (dir) => traced.push(dir),
  })
  const turnEnd = () => new Promise<void>((resolve) => (ended = resolve))
  return { chat, events, traced, turnEnd }
}

describe('ChatSession (AI SDK mock model)', () => {
  it('streams the text, calls the tool on its server, gives the page the whole result and the model less, and counts the tokens of every step', async () => {
    const forecast = server(
      's1',
      [tool('get_forecast', { ui: { resourceUri: 'ui://forecast' } }), tool('duet_view_state', { ui: { visibility: ['app'] } })],
      () => ({
        content: [{ type: 'text', text: 'Oslo: rain' }],
        structuredContent: { city: 'Oslo' },
        _meta: { viewUUID: 'v-1' },
      }),
    )
    const model = new MockLanguageModelV4({
      doStream: [
        step([toolCall('c1', 'get_forecast', { city: 'Oslo' }), finish('tool-calls', 10, 4)]),
        step([...text('Rain ', 'in Oslo.'), finish('stop', 20, 3)]),
      ],
    })
    const { chat, events, traced, turnEnd } = session(model, [forecast])
    const done = turnEnd()
    expect(chat.send('Weather in Oslo?')).toBe(1)
    await done
    expect(forecast.calls).toEqual([{ name: 'get_forecast', args: { city: 'Oslo' } }])
    // App-only tools never reach the model.
    expect(model.doStreamCalls[0].tools?.map((t) => t.name)).toEqual(['get_forecast'])
    expect(events).toEqual([
      { kind: 'turn-start', turn: 1, text: 'Weather in Oslo?' },
      { kind: 'tool-call', turn: 1, callId: 'c1', server: 's1', tool: 'get_forecast', input: { city: 'Oslo' }, uri: 'ui://forecast' },
      {
        kind: 'tool-result',
        turn: 1,
        callId: 'c1',
        result: { content: [{ type: 'text', text: 'Oslo: rain' }], structuredContent: { city: 'Oslo' }, _meta: { viewUUID: 'v-1' } },
      },
      { kind: 'text', turn: 1, delta: 'Rain ' },
      { kind: 'text', turn: 1, delta: 'in Oslo.' },
      { kind: 'turn-end', turn: 1, usage: { input: 30, output: 7, total: 37 }, finish: 'stop', stopped: false },
    ])
    // The second step sent the tool's output without the view's _meta.
    const sent = JSON.stringify(model.doStreamCalls[1].prompt)
    expect(sent).toContain('Oslo: rain')
    expect(sent).not.toContain('viewUUID')
    expect(traced).toEqual(['host->model', 'model->host', 'host->model', 'model->host'])
  })

  it('prefixes a tool name two servers share with the server id, and routes each call to its own server', async () => {
    const a = server('s1', [tool('search')])
    const b = server('s2', [tool('search')])
    const model = new MockLanguageModelV4({
      doStream: [step([toolCall('c1', 's2__search', {}), finish('tool-calls', 1, 1)]), step([...text('ok'), finish('stop', 1, 1)])],
    })
    const { chat, turnEnd } = session(model, [a, b])
    const done = turnEnd()
    chat.send('find')
    await done
    expect(model.doStreamCalls[0].tools?.map((t) => t.name)).toEqual(['s1__search', 's2__search'])
    expect(a.calls).toEqual([])
    expect(b.calls).toEqual([{ name: 'search', args: {} }])
  })

  it("puts a view's newest model context in the instructions of the next model call", async () => {
    const model = new MockLanguageModelV4({ doStream: [step([...text('ok'), finish('stop', 1, 1)])] })
    const { chat, turnEnd } = session(model, [])
    chat.setContext('c1', 'get_forecast', { structuredContent: { selectedDay: 'Mon' } })
    chat.setContext('c1', 'get_forecast', { structuredContent: { selectedDay: 'Tue' } })
    const done = turnEnd()
    chat.send('what did I pick?', { callId: 'c1', tool: 'get_forecast' })
    await done
    const prompt = JSON.stringify(model.doStreamCalls[0].prompt)
    expect(prompt).toContain('selectedDay')
    expect(prompt).toContain('Tue')
    expect(prompt).not.toContain('Mon')
    // A view's ui/message is marked as such for the model.
    expect(prompt).toContain('The view of get_forecast sent this message')
  })

  it('stops a running turn, keeps what the model had said, and runs the next turn', async () => {
    const model = new MockLanguageModelV4({
      doStream: [
        {
          stream: simulateReadableStream({
            chunks: [...text('one ', 'two ', 'three ', 'four'), finish('stop', 1, 1)] as StreamPart[],
            chunkDelayInMs: 200,
          }) as ModelStream,
        },
        step([...text('fresh'), finish('stop', 1, 1)]),
      ],
    })
    const { chat, events, turnEnd } = session(model, [])
    const stopped = turnEnd()
    chat.send('count')
    await vi.waitFor(() => expect(events.some((e) => e.kind === 'text')).toBe(true), { timeout: 10_000, interval: 20 })
    expect(chat.stop()).toBe(true)
    await stopped
    expect(events.at(-1)).toMatchObject({ kind: 'turn-end', turn: 1, finish: 'stopped', stopped: true })
    expect(events.filter((e) => e.kind === 'text').length).toBeLessThan(4)
    const next = turnEnd()
    chat.send('again')
    await next
    expect(JSON.stringify(model.doStreamCalls[1].prompt)).toContain('[stopped by the user]')
    expect(events.at(-1)).toMatchObject({ kind: 'turn-end', turn: 2, finish: 'stop' })
    await new Promise((r) => setTimeout(r, 0))
    expect(chat.stop()).toBe(false)
  })

  it("reports the provider's error with its status and message, and the session goes on", async () => {
    let calls = 0
    const model = new MockLanguageModelV4({
      doStream: async () => {
        if (calls++ > 0) return step([...text('fine'), finish('stop', 1, 1)])
        throw new APICallError({
          message: 'Incorrect API key provided',
          url: 'https://api.example/v1/chat/completions',
          requestBodyValues: {},
          statusCode: 401,
          responseBody: '{"error":{"message":"Incorrect API key provided"}}',
          isRetryable: false,
        })
      },
    })
    const { chat, events, turnEnd } = session(model, [])
    const failed = turnEnd()
    chat.send('hi')
    await failed
    const error = events.find((e) => e.kind === 'error')
    expect(error).toMatchObject({ kind: 'error', turn: 1 })
    expect((error as { message: string }).message).toMatch(/^HTTP 401 from https:\/\/api\.example\/v1\/chat\/completions: Incorrect API key provided/)
    expect(events.at(-1)).toMatchObject({ kind: 'turn-end', finish: 'error' })
    const next = turnEnd()
    chat.send('again')
    await next
    expect(events.at(-1)).toMatchObject({ kind: 'turn-end', turn: 2, finish: 'stop' })
  })
})
