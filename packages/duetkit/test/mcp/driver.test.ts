import { afterEach, describe, expect, it, vi } from 'vitest'
import { makeMcpAppDriver, DuetError } from 'duetkit/mcp'
import { collect, fakeHost, harness, sinkValue, tick, until } from './fake-host.js'

type H = ReturnType<typeof harness>
const open: H[] = []
afterEach(() => {
  for (const h of open.splice(0)) h.dispose()
})

function start(fake: ReturnType<typeof fakeHost>, options: Parameters<typeof makeMcpAppDriver>[0] = {}) {
  const h = harness()
  open.push(h)
  const MCP = makeMcpAppDriver({ appInfo: { name: 'test-view', version: '1.2.3' }, window: fake.win as any, host: fake.host, ...options })(h.sink$, h.context)
  return { h, MCP }
}

describe('handshake', () => {
  it('sends ui/initialize, then initialized, with strict JSON-RPC framing', async () => {
    const fake = fakeHost()
    start(fake, { availableDisplayModes: ['inline', 'fullscreen'] })
    const initialized = await fake.waitFor((m) => m.method === 'ui/notifications/initialized')
    const init = fake.posted[0]!
    expect(init).toEqual({
      jsonrpc: '2.0',
      id: 0,
      method: 'ui/initialize',
      params: {
        protocolVersion: '2026-01-26',
        appInfo: { name: 'test-view', version: '1.2.3' },
        appCapabilities: { availableDisplayModes: ['inline', 'fullscreen'] },
      },
    })
    expect(initialized).toEqual({ jsonrpc: '2.0', method: 'ui/notifications/initialized' })
    expect(fake.methods().slice(0, 2)).toEqual(['ui/initialize', 'ui/notifications/initialized'])
  })

  it('offers the protocolVersion option and announces tools only with agentTools', async () => {
    const fake = fakeHost()
    const { agentTools } = await import('duetkit/mcp')
    start(fake, { protocolVersion: '2099-01-01', tools: agentTools })
    const init = await fake.waitFor((m) => m.method === 'ui/initialize')
    expect(init.params.protocolVersion).toBe('2099-01-01')
    expect(init.params.appCapabilities).toEqual({ tools: { listChanged: true } })
  })

  it('holds requests made before the handshake completes and sends them after initialized', async () => {
    let release!: () => void
    const gate = new Promise<void>((r) => (release = r))
    const fake = fakeHost({
      'ui/initialize': async () => {
        await gate
        return { protocolVersion: '2026-01-26', hostInfo: { name: 'H', version: '1' }, hostCapabilities: { openLinks: {} }, hostContext: {} }
      },
      'ui/open-link': () => ({}),
    })
    const { h } = start(fake)
    const link = sinkValue({ openLink: 'https://example.com', ok: 'OPENED' })
    h.send(link.value)
    await tick()
    expect(fake.methods()).toEqual(['ui/initialize'])
    release()
    expect(await link.replied).toEqual({ kind: 'ok', data: {} })
    expect(fake.methods()).toEqual(['ui/initialize', 'ui/notifications/initialized', 'ui/open-link'])
  })

  it('with no host sends nothing and answers every request with its error action', async () => {
    const fake = fakeHost()
    const { h, MCP } = start(fake, { host: null })
    const call = sinkValue({ callTool: 'x', ok: 'OK', error: 'FAILED' })
    const log = sinkValue({ log: 'hi', ok: 'OK', error: 'FAILED' })
    h.send(call.value)
    h.send(log.value)
    expect(await call.replied).toMatchObject({ kind: 'error', data: { code: 'NO_HOST', request: call.value } })
    expect((await log.replied).data.error).toMatch(/No MCP Apps host/)
    const host = collect(MCP.select('host'))
    await tick()
    expect(fake.posted).toEqual([])
    expect(host).toEqual([])
  })

  it('under server rendering (no window at all) sends nothing and answers with NO_HOST', async () => {
    expect(typeof (globalThis as any).window).toBe('undefined')
    const h = harness()
    open.push(h)
    const MCP = makeMcpAppDriver()(h.sink$, h.context)
    const call = sinkValue({ callTool: 'x', error: 'FAILED' })
    h.send(call.value)
    expect((await call.replied).data).toMatchObject({ code: 'NO_HOST' })
    expect(collect(MCP.select('host'))).toEqual([])
  })

  it('treats a page that is its own parent (opened directly) as having no host', async () => {
    const selfWin: any = { addEventListener() {}, removeEventListener() {} }
    selfWin.parent = selfWin
    const h = harness()
    open.push(h)
    makeMcpAppDriver({ window: selfWin })(h.sink$, h.context)
    const msg = sinkValue({ message: 'hello', error: 'FAILED' })
    h.send(msg.value)
    expect((await msg.replied).data.code).toBe('NO_HOST')
  })

  it('fails a request with HANDSHAKE_FAILED when the host rejects ui/initialize', async () => {
    const fake = fakeHost({
      'ui/initialize': () => {
        throw Object.assign(new Error('Invalid params for ui/initialize'), { code: -32602 })
      },
    })
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {})
    const { h } = start(fake)
    const call = sinkValue({ callTool: 'x', error: 'FAILED' })
    h.send(call.value)
    const r = await call.replied
    expect(r.data).toMatchObject({ code: 'HANDSHAKE_FAILED' })
    expect(r.data.error).toMatch(/Invalid params for ui\/initialize/)
    await until(() => spy.mock.calls.length > 0, 'console.error')
    spy.mockRestore()
    expect(fake.methods()).toEqual(['ui/initialize'])
  })
})

describe('options', () => {
  it('rejects bad options naming the factory and the option', () => {
    expect(() => makeMcpAppDriver({ appInfo: { name: 'x' } as any })).toThrow(/makeMcpAppDriver: option appInfo/)
    expect(() => makeMcpAppDriver({ availableDisplayModes: ['sidebar' as any] })).toThrow(/option availableDisplayModes/)
    expect(() => makeMcpAppDriver({ tools: {} as any })).toThrow(/option tools must be agentTools/)
    expect(() => makeMcpAppDriver({ confirm: true as any })).toThrow(/option confirm/)
    expect(() => makeMcpAppDriver({ timeoutMs: -1 })).toThrow(/option timeoutMs/)
    expect(() => makeMcpAppDriver({ protocolVersion: '' })).toThrow(DuetError)
    expect(() => makeMcpAppDriver({ protocolVersion: '' })).toThrow(expect.objectContaining({ code: 'INVALID_OPTION', data: { option: 'protocolVersion' } }))
  })

  it('defaults appInfo to the document title and version 0.0.0', async () => {
    const fake = fakeHost()
    const h = harness()
    open.push(h)
    makeMcpAppDriver({ window: Object.assign(fake.win, { document: { title: 'My View' } }) as any, host: fake.host, theme: false })(h.sink$, h.context)
    const init = await fake.waitFor((m) => m.method === 'ui/initialize')
    expect(init.params.appInfo).toEqual({ name: 'My View', version: '0.0.0' })
  })

  it('times out a request: error action with the timeout, and notifications/cancelled to the host', async () => {
    const fake = fakeHost({ 'resources/read': () => new Promise(() => {}) as any })
    const { h } = start(fake, { timeoutMs: 50 })
    const read = sinkValue({ readResource: 'ui://x', error: 'FAILED' })
    h.send(read.value)
    const r = await read.replied
    expect(r.data).toMatchObject({ code: -32001, request: read.value })
    expect(r.data.error).toMatch(/did not answer resources\/read within 50 ms/)
    const sent = fake.posted.find((m) => m.method === 'resources/read')!
    const cancel = await fake.waitFor((m) => m.method === 'notifications/cancelled')
    expect(cancel).toEqual({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: sent.id, reason: 'timed out after 50 ms' } })
  })
})

describe('sources', () => {
  it('delivers tool input (its arguments), partial input, result and cancellation', async () => {
    const fake = fakeHost()
    const { MCP } = start(fake)
    const input = collect(MCP.select('tool-input'))
    const partial = collect(MCP.select('tool-input-partial'))
    const result = collect(MCP.select('tool-result'))
    const cancelled = collect(MCP.select('tool-cancelled'))
    await fake.waitFor((m) => m.method === 'ui/notifications/initialized')
    fake.notify('ui/notifications/tool-input-partial', { arguments: { city: 'Os' } })
    fake.notify('ui/notifications/tool-input', { arguments: { city: 'Oslo' } })
    fake.notify('ui/notifications/tool-result', { content: [{ type: 'text', text: 'sunny' }], structuredContent: { t: 1 } })
    fake.notify('ui/notifications/tool-cancelled', { reason: 'user stopped' })
    await until(() => cancelled.length === 1, 'tool-cancelled')
    expect(partial).toEqual([{ city: 'Os' }])
    expect(input).toEqual([{ city: 'Oslo' }])
    expect(result).toEqual([{ content: [{ type: 'text', text: 'sunny' }], structuredContent: { t: 1 } }])
    expect(cancelled).toEqual([{ reason: 'user stopped' }])
  })

  it('emits host and the handshake context, then the merged context on each partial change', async () => {
    const fake = fakeHost()
    const { MCP } = start(fake)
    const host = collect(MCP.select('host'))
    const ctx = collect(MCP.select('host-context-changed'))
    await until(() => host.length === 1, 'host')
    expect(host[0]).toEqual({
      hostInfo: { name: 'FakeHost', version: '1.0.0' },
      hostCapabilities: { openLinks: {}, logging: {} },
      protocolVersion: '2026-01-26',
    })
    expect(ctx).toEqual([{ theme: 'dark', displayMode: 'inline', locale: 'en-US' }])
    fake.notify('ui/notifications/host-context-changed', { theme: 'light' })
    fake.notify('ui/notifications/host-context-changed', { displayMode: 'fullscreen' })
    await until(() => ctx.length === 3, 'two context changes')
    expect(ctx[2]).toEqual({ theme: 'light', displayMode: 'fullscreen', locale: 'en-US' })
  })

  it('replays the latest input, result, context and host to a late subscriber, but not events', async () => {
    const fake = fakeHost()
    const { MCP } = start(fake)
    await fake.waitFor((m) => m.method === 'ui/notifications/initialized')
    fake.notify('ui/notifications/tool-input', { arguments: { city: 'A' } })
    fake.notify('ui/notifications/tool-input', { arguments: { city: 'B' } })
    fake.notify('ui/notifications/tool-result', { content: [] })
    fake.notify('ui/notifications/tool-cancelled', {})
    await tick()
    const late = {
      input: collect(MCP.select('tool-input')),
      result: collect(MCP.select('tool-result')),
      host: collect(MCP.select('host')),
      ctx: collect(MCP.select('host-context-changed')),
      cancelled: collect(MCP.select('tool-cancelled')),
    }
    expect(late.input).toEqual([{ city: 'B' }])
    expect(late.result).toEqual([{ content: [] }])
    expect(late.host).toHaveLength(1)
    expect(late.ctx).toHaveLength(1)
    expect(late.cancelled).toEqual([])
  })

  it('rejects an unknown source name with the list of valid ones', () => {
    const { MCP } = start(fakeHost())
    expect(() => MCP.select('tool-output' as any)).toThrow(
      expect.objectContaining({
        name: 'DuetError',
        code: 'INVALID_ARGUMENT',
        message: expect.stringMatching(/unknown source "tool-output"; expected one of tool-input/),
      }),
    )
  })

  it('answers ui/resource-teardown only after the flush of the actions it caused', async () => {
    const fake = fakeHost()
    const { h, MCP } = start(fake)
    const seen = collect(MCP.select('teardown'))
    await fake.waitFor((m) => m.method === 'ui/notifications/initialized')
    let answered = false
    const answer = fake.request('ui/resource-teardown', {}).then((r) => {
      answered = true
      return r
    })
    await until(() => seen.length === 1, 'teardown source')
    await tick()
    expect(answered).toBe(false)
    h.flush()
    expect(await answer).toMatchObject({ jsonrpc: '2.0', result: {} })
  })

  it('answers teardown at once when nothing listens for it', async () => {
    const fake = fakeHost()
    start(fake)
    await fake.waitFor((m) => m.method === 'ui/notifications/initialized')
    expect(await fake.request('ui/resource-teardown', {})).toMatchObject({ result: {} })
  })
})

describe('robustness', () => {
  it('ignores messages from any window other than the host, and non-JSON-RPC data', async () => {
    const fake = fakeHost()
    const { MCP } = start(fake)
    const result = collect(MCP.select('tool-result'))
    await fake.waitFor((m) => m.method === 'ui/notifications/initialized')
    const sibling = { postMessage() {} }
    fake.deliver({ jsonrpc: '2.0', method: 'ui/notifications/tool-result', params: { forged: true } }, sibling)
    fake.deliver('not json-rpc')
    fake.deliver({ method: 'ui/notifications/tool-result', params: { noVersion: true } })
    fake.deliver(null)
    fake.notify('ui/notifications/tool-result', { real: true })
    await until(() => result.length === 1, 'the real result')
    expect(result).toEqual([{ real: true }])
  })

  it('answers ping with {}, unknown host requests with -32601, malformed requests with -32600', async () => {
    const fake = fakeHost()
    start(fake)
    await fake.waitFor((m) => m.method === 'ui/notifications/initialized')
    expect(await fake.request('ping')).toEqual({ jsonrpc: '2.0', id: expect.any(Number), result: {} })
    expect(await fake.request('tools/list')).toMatchObject({ error: { code: -32601 } })
    expect(await fake.request('foo/bar')).toMatchObject({ error: { code: -32601, message: 'Method not found: foo/bar' } })
    fake.deliver({ jsonrpc: '2.0', id: 77, method: 'ping', params: [1] })
    const bad = await fake.waitFor((m) => m.id === 77)
    expect(bad).toEqual({ jsonrpc: '2.0', id: 77, error: { code: -32600, message: 'Invalid request: params must be an object' } })
  })

  it('ignores responses to ids it never sent and keeps working', async () => {
    const fake = fakeHost({ 'ui/open-link': () => ({}) })
    const { h } = start(fake)
    fake.deliver({ jsonrpc: '2.0', id: 999, result: { stray: true } })
    const link = sinkValue({ openLink: 'https://a.example', ok: 'OK' })
    h.send(link.value)
    expect((await link.replied).kind).toBe('ok')
  })

  it('uses integer ids and no extra keys on every outgoing message', async () => {
    const fake = fakeHost({ 'tools/call': () => ({ content: [] }), 'ui/message': () => ({}) })
    const { h } = start(fake)
    const a = sinkValue({ callTool: 't', args: { x: 1 }, ok: 'OK' })
    const b = sinkValue({ message: 'hi', ok: 'OK' })
    h.send(a.value)
    h.send(b.value)
    await Promise.all([a.replied, b.replied])
    for (const m of fake.posted) {
      expect(Object.keys(m).every((k) => ['jsonrpc', 'id', 'method', 'params', 'result', 'error'].includes(k))).toBe(true)
      if ('id' in m) expect(Number.isInteger(m.id)).toBe(true)
    }
  })

  it('stops listening and fails pending requests when the app is disposed', async () => {
    const fake = fakeHost({ 'ui/message': () => new Promise(() => {}) as any })
    const { h, MCP } = start(fake)
    const results = collect(MCP.select('tool-result'))
    const msg = sinkValue({ message: 'hi', ok: 'OK', error: 'FAILED' })
    h.send(msg.value)
    await fake.waitFor((m) => m.method === 'ui/message')
    h.dispose()
    fake.notify('ui/notifications/tool-result', { late: true })
    await tick()
    await tick()
    expect(results).toEqual([])
    expect(msg.replies).toEqual([])
  })
})
