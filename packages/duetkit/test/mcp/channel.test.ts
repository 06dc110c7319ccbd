import { afterEach, describe, expect, it, vi } from 'vitest'
import { agentChannel, makeMcpAppDriver, DuetError } from 'duetkit/mcp'
import { collect, fakeHost, harness, sinkValue, tick, until } from './fake-host.js'

type Json = Record<string, any>

/**
 * A stand-in for the server's channel tools behind the host: `poll_ui_messages` long-polls until the
 * test `push`es, `notify_agent` records. `fail` makes the next polls error (a string is a tool error text).
 */
function channelServer() {
  const calls: Json[] = []
  const sent: Json[] = []
  const queues = new Map<string, Json[]>()
  const waiting: Array<() => void> = []
  const failures: Array<string | Error> = []
  let nextId = 1
  const handler = async (params: Json): Promise<Json> => {
    calls.push(params)
    const args = params.arguments ?? {}
    if (params.name === 'notify_agent') {
      sent.push(args)
      return { content: [{ type: 'text', text: '{"id":"9"}' }], structuredContent: { id: String(nextId++) } }
    }
    if (params.name !== 'poll_ui_messages') throw Object.assign(new Error(`unknown tool ${params.name}`), { code: -32602 })
    const failure = failures.shift()
    if (failure instanceof Error) throw failure
    if (failure !== undefined) return { isError: true, content: [{ type: 'text', text: failure }] }
    const queue = () => queues.get(args.channel_id) ?? []
    while (queue().length === 0) await new Promise<void>((r) => waiting.push(r))
    const messages = queue().splice(0)
    return { content: [{ type: 'text', text: JSON.stringify({ messages }) }], structuredContent: { messages } }
  }
  return {
    handler,
    calls,
    sent,
    polls: () => calls.filter((c) => c.name === 'poll_ui_messages'),
    push(channel: string, ...messages: Json[]) {
      const queue = queues.get(channel) ?? []
      queues.set(channel, queue)
      for (const m of messages) queue.push({ id: String(nextId++), at: 1, ...m })
      for (const wake of waiting.splice(0)) wake()
    },
    fail: (...f: Array<string | Error>) => void failures.push(...f),
  }
}

const CH = 'chan_A-1234567890abcdef'
type H = ReturnType<typeof harness>
const open: H[] = []
afterEach(() => {
  for (const h of open.splice(0)) h.dispose()
})

function start(options: Parameters<typeof makeMcpAppDriver>[0] = {}, tweak?: (handler: (p: Json) => Promise<Json>) => (p: Json) => Promise<Json>) {
  const server = channelServer()
  const fake = fakeHost({ 'tools/call': tweak ? tweak(server.handler) : server.handler })
  const h = harness()
  open.push(h)
  const MCP = makeMcpAppDriver({ window: fake.win as any, host: fake.host, channel: agentChannel(), ...options })(h.sink$, h.context)
  return { fake, server, h, MCP }
}

const toolResult = (structuredContent?: Json, _meta?: Json) => ({
  content: [{ type: 'text', text: 'shown' }],
  ...(structuredContent && { structuredContent }),
  ...(_meta && { _meta }),
})

describe("MCP.select('agent-message')", () => {
  it('takes the channel from the tool result and emits each message in order, long-polling again after each batch', async () => {
    const { fake, server, MCP } = start()
    const got = collect(MCP.select('agent-message'))
    await tick()
    expect(server.polls(), 'no channel yet, so no poll').toEqual([])
    fake.notify('ui/notifications/tool-result', toolResult({ channel_id: CH }))
    await until(() => server.polls().length === 1, 'the first poll')
    expect(server.polls()[0]).toMatchObject({ name: 'poll_ui_messages', arguments: { channel_id: CH, wait_ms: 25_000 } })
    server.push(CH, { event: 'answer', data: { text: 'one' } }, { event: 'answer', data: { text: 'two' } })
    await until(() => got.length === 2, 'two messages')
    server.push(CH, { event: 'done', data: null })
    await until(() => got.length === 3, 'the third message')
    expect(got.map((m) => [m.event, m.data])).toEqual([
      ['answer', { text: 'one' }],
      ['answer', { text: 'two' }],
      ['done', null],
    ])
    expect(Object.keys(got[0]).sort()).toEqual(['data', 'event', 'id'])
    expect(new Set(got.map((m) => m.id)).size).toBe(3)
  })

  it('acknowledges each batch with after = the last id it got, and drops a redelivered message instead of emitting it twice', async () => {
    const { fake, server, MCP } = start()
    const got = collect(MCP.select('agent-message'))
    fake.notify('ui/notifications/tool-result', toolResult({ channel_id: CH }))
    await until(() => server.polls().length === 1, 'the first poll')
    expect(server.polls()[0].arguments.after).toBe('0')
    server.push(CH, { event: 'a' }, { event: 'b' })
    await until(() => got.length === 2, 'two messages')
    await until(() => server.polls().length === 2, 'the second poll')
    const lastId = got[1].id
    expect(server.polls()[1].arguments.after).toBe(lastId)
    // A redelivery (what the server sends when an acknowledgement was lost) overlaps what the view already has.
    server.push(CH, { id: got[0].id, event: 'a' }, { id: lastId, event: 'b' }, { event: 'c' })
    await until(() => got.length === 3, 'the new message')
    await tick()
    expect(got.map((m) => m.event)).toEqual(['a', 'b', 'c'])
  })

  it('uses the channel option at once, without waiting for a tool result', async () => {
    const { server, MCP } = start({ channel: agentChannel(CH) })
    const got = collect(MCP.select('agent-message'))
    await until(() => server.polls().length === 1, 'the first poll')
    server.push(CH, { event: 'hello' })
    await until(() => got.length === 1, 'the message')
    expect(got[0]).toMatchObject({ event: 'hello', data: null })
  })

  it("falls back to _meta['duet/channel_id'] when structuredContent names no channel", async () => {
    const { fake, server, MCP } = start()
    const got = collect(MCP.select('agent-message'))
    fake.notify('ui/notifications/tool-result', toolResult({ city: 'Oslo' }, { 'duet/channel_id': CH }))
    await until(() => server.polls().length === 1, 'the first poll')
    expect(server.polls()[0].arguments.channel_id).toBe(CH)
    server.push(CH, { event: 'x', data: 1 })
    await until(() => got.length === 1, 'the message')
    expect(got[0]).toMatchObject({ event: 'x', data: 1 })
  })

  it('ignores a malformed channel id in the result', async () => {
    const { fake, server, MCP } = start()
    collect(MCP.select('agent-message'))
    fake.notify('ui/notifications/tool-result', toolResult({ channel_id: '../../etc/passwd' }))
    await tick()
    await tick()
    expect(server.polls()).toEqual([])
  })

  it('backs off after failed polls and recovers', async () => {
    const { server, MCP } = start({ channel: agentChannel(CH) })
    server.fail('STORE_UNAVAILABLE: the store is busy', Object.assign(new Error('host hiccup'), { code: -32603 }))
    const got = collect(MCP.select('agent-message'))
    await until(() => server.polls().length === 3, 'two retries', 10_000)
    const times = server.calls.length
    server.push(CH, { event: 'after' })
    await until(() => got.length === 1, 'the message after recovering', 10_000)
    expect(times).toBe(3)
  })

  it('stops for good on a closed channel', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    try {
      const { server, MCP } = start({ channel: agentChannel(CH) })
      server.fail("CHANNEL_CLOSED: Channel 'x' is closed or expired.")
      collect(MCP.select('agent-message'))
      await until(() => warn.mock.calls.length === 1, 'the warning')
      expect(String(warn.mock.calls[0][0])).toMatch(/stopped listening on channel .*CHANNEL_CLOSED/)
      // Past the first back-off (250 ms): a retried poll would have started by then.
      await new Promise((r) => setTimeout(r, 400))
      expect(server.polls()).toHaveLength(1)
    } finally {
      warn.mockRestore()
    }
  })

  it('polls only while someone listens, and keeps what arrived after the last listener left', async () => {
    const { server, MCP } = start({ channel: agentChannel(CH) })
    const stream = MCP.select('agent-message')
    const first: any[] = []
    const listener = { next: (m: any) => first.push(m), error: () => {}, complete: () => {} }
    stream.addListener(listener)
    await until(() => server.polls().length === 1, 'the first poll')
    stream.removeListener(listener)
    // xstream stops a stream a macrotask after its last listener leaves.
    await new Promise((r) => setTimeout(r, 1))
    // The poll in flight still drains; its message waits for the next listener, and no new poll starts.
    server.push(CH, { event: 'late' })
    // A window, not an event: a new poll or a delivery to the gone listener would come within it.
    await new Promise((r) => setTimeout(r, 50))
    expect(first).toEqual([])
    expect(server.polls()).toHaveLength(1)
    const second = collect(MCP.select('agent-message'))
    await until(() => second.length === 1, 'the kept message')
    expect(second[0].event).toBe('late')
  })

  it('stops polling on teardown and on dispose', async () => {
    const { fake, server, MCP, h } = start({ channel: agentChannel(CH) })
    const got = collect(MCP.select('agent-message'))
    await until(() => server.polls().length === 1, 'the first poll')
    await fake.request('ui/resource-teardown', {})
    server.push(CH, { event: 'too late' })
    // A window, not an event: a delivery or a poll after teardown would come within it.
    await new Promise((r) => setTimeout(r, 50))
    expect(got).toEqual([])
    expect(server.polls()).toHaveLength(1)
    h.dispose()
    const after = start({ channel: agentChannel(CH) })
    collect(after.MCP.select('agent-message'))
    await until(() => after.server.polls().length === 1, 'the first poll')
    after.h.dispose()
    after.server.push(CH, { event: 'x' })
    // A window, not an event: a poll after dispose would come within it.
    await new Promise((r) => setTimeout(r, 50))
    expect(after.server.polls()).toHaveLength(1)
  })
})

describe('the notifyAgent sink', () => {
  it('calls notify_agent on the channel and answers ok with the stored id', async () => {
    const { fake, server, h } = start()
    fake.notify('ui/notifications/tool-result', toolResult({ channel_id: CH }))
    const v = sinkValue({ notifyAgent: { event: 'ask', data: { q: 'why?' } }, ok: 'SENT', error: 'FAILED' })
    h.send(v.value)
    expect(await v.replied).toEqual({ kind: 'ok', data: { id: expect.any(String) } })
    expect(server.sent).toEqual([{ channel_id: CH, event: 'ask', data: { q: 'why?' } }])
  })

  it('waits for the tool result when it is sent first', async () => {
    const { fake, server, h } = start()
    const v = sinkValue({ notifyAgent: { event: 'ready' }, ok: 'SENT' })
    h.send(v.value)
    await tick()
    expect(server.sent).toEqual([])
    fake.notify('ui/notifications/tool-result', toolResult({ channel_id: CH }))
    expect((await v.replied).kind).toBe('ok')
    expect(server.sent).toEqual([{ channel_id: CH, event: 'ready' }])
  })

  it('learns the channel from the tool result even when another listener of the result throws', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    try {
      const { fake, server, h, MCP } = start({ timeoutMs: 3_000 })
      MCP.select('tool-result').addListener({
        next: () => {
          throw new Error('a listener broke')
        },
        error: () => {},
        complete: () => {},
      })
      const v = sinkValue({ notifyAgent: { event: 'ready' }, ok: 'SENT', error: 'FAILED' })
      h.send(v.value)
      fake.notify('ui/notifications/tool-result', toolResult({ channel_id: CH }))
      expect(await v.replied).toMatchObject({ kind: 'ok' })
      expect(server.sent).toEqual([{ channel_id: CH, event: 'ready' }])
      // The listener's throw is not swallowed either.
      expect(errors.mock.calls.map((c) => String(c[0]))).toEqual([expect.stringMatching(/listener of 'tool-result' threw/)])
    } finally {
      errors.mockRestore()
    }
  })

  it('fails with NO_CHANNEL when the tool result names no channel', async () => {
    const { fake, h } = start()
    const v = sinkValue({ notifyAgent: { event: 'ready' }, error: 'FAILED' })
    h.send(v.value)
    fake.notify('ui/notifications/tool-result', toolResult({ city: 'Oslo' }))
    const { kind, data } = await v.replied
    expect(kind).toBe('error')
    expect(data).toMatchObject({
      code: 'NO_CHANNEL',
      error: expect.stringMatching(/named no channel_id.*makeMcpAppDriver\(\{ channel: agentChannel\('<channel id>'\) \}\)/),
    })
  })

  it('reports a tool error and a malformed value through the error action', async () => {
    const { h } = start(
      { channel: agentChannel(CH) },
      (handler) => async (p) => (p.name === 'notify_agent' ? { isError: true, content: [{ type: 'text', text: 'TOO_LARGE: over 1 MiB' }] } : handler(p)),
    )
    const tooBig = sinkValue({ notifyAgent: { event: 'ask', data: 'x' }, error: 'FAILED' })
    h.send(tooBig.value)
    expect(await tooBig.replied).toMatchObject({ kind: 'error', data: { code: 'TOOL_FAILED', error: 'notify_agent failed: TOO_LARGE: over 1 MiB' } })
    for (const bad of [{ event: '' }, 'ask', { data: 1 }]) {
      const v = sinkValue({ notifyAgent: bad, error: 'FAILED' })
      h.send(v.value)
      expect(await v.replied, JSON.stringify(bad)).toMatchObject({
        kind: 'error',
        data: { code: 'INVALID_SINK', error: expect.stringMatching(/notifyAgent must be \{ event/) },
      })
    }
  })
})

it('rejects a malformed channel id and a channel option that is not agentChannel', () => {
  for (const id of ['', 'a/b', 'x'.repeat(65), 42]) {
    expect(() => agentChannel(id as any), String(id)).toThrow(DuetError)
    expect(() => agentChannel(id as any)).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTION', message: expect.stringMatching(/^agentChannel: id must be a channel id/) }),
    )
  }
  for (const channel of [CH, true, {}]) {
    expect(() => makeMcpAppDriver({ channel: channel as any }), String(channel)).toThrow(/makeMcpAppDriver: option channel must be agentChannel\(\)/)
  }
})

describe('a driver made without agentChannel()', () => {
  it('answers notifyAgent with NO_CHANNEL, never calls a channel tool, and emits no agent-message', async () => {
    const { fake, server, h, MCP } = start({ channel: undefined })
    const got = collect(MCP.select('agent-message'))
    fake.notify('ui/notifications/tool-result', toolResult({ channel_id: CH }))
    const v = sinkValue({ notifyAgent: { event: 'ask', data: 1 }, error: 'FAILED' })
    h.send(v.value)
    expect(await v.replied).toMatchObject({ kind: 'error', data: { code: 'NO_CHANNEL', error: expect.stringMatching(/no agent channel.*agentChannel\(\)/) } })
    server.push(CH, { event: 'never seen' })
    // A window, not an event: a poll or an emitted message would come within it.
    await new Promise((r) => setTimeout(r, 50))
    expect(server.calls).toEqual([])
    expect(got).toEqual([])
  })
})
