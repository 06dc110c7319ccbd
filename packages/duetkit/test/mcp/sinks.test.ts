import { afterEach, describe, expect, it, vi } from 'vitest'
import { makeMcpAppDriver } from 'duetkit/mcp'
import { fakeHost, harness, sinkValue, until } from './fake-host.js'

const open: Array<ReturnType<typeof harness>> = []
afterEach(() => {
  for (const h of open.splice(0)) h.dispose()
})

function start(handlers: Parameters<typeof fakeHost>[0] = {}, init?: Parameters<typeof fakeHost>[1]) {
  const fake = fakeHost(handlers, init)
  const h = harness()
  open.push(h)
  makeMcpAppDriver({ window: fake.win as any, host: fake.host })(h.sink$, h.context)
  const send = async (value: Record<string, any>) => {
    const s = sinkValue({ ok: 'OK', error: 'FAILED', ...value })
    h.send(s.value)
    return { ...(await s.replied), value: s.value }
  }
  const params = (method: string) => fake.posted.filter((m) => m.method === method).at(-1)?.params
  return { fake, h, send, params }
}

const echo =
  (r: Record<string, any> = {}) =>
  () =>
    r

describe('request sinks', () => {
  it('callTool → tools/call; ok gets the CallToolResult', async () => {
    const { send, params } = start({ 'tools/call': (p) => ({ content: [{ type: 'text', text: `hi ${p.arguments.city}` }], structuredContent: { n: 1 } }) })
    const r = await send({ callTool: 'get_forecast', args: { city: 'Oslo' } })
    expect(params('tools/call')).toEqual({ name: 'get_forecast', arguments: { city: 'Oslo' } })
    expect(r).toMatchObject({ kind: 'ok', data: { content: [{ type: 'text', text: 'hi Oslo' }], structuredContent: { n: 1 } } })
  })

  it('callTool with no args sends an empty arguments object', async () => {
    const { send, params } = start({ 'tools/call': echo({ content: [] }) })
    await send({ callTool: 'refresh' })
    expect(params('tools/call')).toEqual({ name: 'refresh', arguments: {} })
  })

  it('a result with isError goes to error as { error, result, request }', async () => {
    const result = { content: [{ type: 'text', text: 'city not found' }], isError: true }
    const { send } = start({ 'tools/call': echo(result) })
    const r = await send({ callTool: 'get_forecast', args: { city: '?' } })
    expect(r.kind).toBe('error')
    expect(r.data).toEqual({ error: 'city not found', result, request: r.value })
  })

  it("a Duet server's error result goes to error with the server's code and data beside the text", async () => {
    const error = { code: 'COMPILE_ERROR', message: 'The component does not compile', data: { problems: [{ text: 'Unexpected }', line: 2 }] } }
    const result = { content: [{ type: 'text', text: `COMPILE_ERROR: ${error.message}` }], structuredContent: { error }, isError: true }
    const { send } = start({ 'tools/call': echo(result) })
    const r = await send({ callTool: 'display_component', args: { source: '?' } })
    expect(r.kind).toBe('error')
    expect(r.data).toEqual({ error: 'COMPILE_ERROR: The component does not compile', code: 'COMPILE_ERROR', data: error.data, result, request: r.value })
  })

  it('an error result whose structuredContent.error.code is not a code gives no code', async () => {
    const result = { content: [{ type: 'text', text: 'nope' }], structuredContent: { error: { code: 'not a code', data: 'x' } }, isError: true }
    const { send } = start({ 'tools/call': echo(result) })
    const r = await send({ callTool: 'other' })
    expect(r.data).toEqual({ error: 'nope', result, request: r.value })
  })

  it('a JSON-RPC error goes to error as { error, code, request }, and a host\'s "Method not found" names the method', async () => {
    // A host that advertises server tools but lacks the handler (hosts do under- and over-advertise).
    const { send } = start({}, { hostCapabilities: { serverTools: {} } })
    const r = await send({ callTool: 'nope' })
    expect(r).toMatchObject({ kind: 'error', data: { error: 'Method not found: tools/call', code: -32601 } })
    expect(r.data.request).toBe(r.value)
  })

  it('updateModelContext: string → one text block, array → blocks, object → structuredContent', async () => {
    const { send, fake } = start({ 'ui/update-model-context': echo() })
    await send({ updateModelContext: 'picked Tue' })
    await send({
      updateModelContext: [
        { type: 'text', text: 'a' },
        { type: 'text', text: 'b' },
      ],
    })
    await send({ updateModelContext: { city: 'Oslo', selectedDay: { date: 'Tue' } } })
    const sent = fake.posted.filter((m) => m.method === 'ui/update-model-context').map((m) => m.params)
    expect(sent).toEqual([
      { content: [{ type: 'text', text: 'picked Tue' }] },
      {
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
      },
      { structuredContent: { city: 'Oslo', selectedDay: { date: 'Tue' } } },
    ])
  })

  it('message → ui/message with role user and a content array', async () => {
    const { send, params } = start({ 'ui/message': echo() })
    expect((await send({ message: 'What should I pack?' })).kind).toBe('ok')
    expect(params('ui/message')).toEqual({ role: 'user', content: [{ type: 'text', text: 'What should I pack?' }] })
    await send({ message: [{ type: 'text', text: 'x' }] })
    expect(params('ui/message')).toEqual({ role: 'user', content: [{ type: 'text', text: 'x' }] })
  })

  it('openLink → ui/open-link { url }', async () => {
    const { send, params } = start({ 'ui/open-link': echo() })
    await send({ openLink: 'https://example.com/a' })
    expect(params('ui/open-link')).toEqual({ url: 'https://example.com/a' })
  })

  it('displayMode → ui/request-display-mode; ok gets { mode } the host chose', async () => {
    const { send, params } = start({ 'ui/request-display-mode': echo({ mode: 'inline', extra: 1 }) })
    const r = await send({ displayMode: 'fullscreen' })
    expect(params('ui/request-display-mode')).toEqual({ mode: 'fullscreen' })
    expect(r.data).toEqual({ mode: 'inline' })
  })

  it('downloadFile: shorthand, resource and resource_link blocks, one or many', async () => {
    const { send, fake } = start({ 'ui/download-file': echo() })
    await send({ downloadFile: { uri: 'file:///f.csv', mimeType: 'text/csv', text: 'a,b' } })
    await send({
      downloadFile: [
        { uri: 'file:///b.bin', blob: 'AAEC' },
        { type: 'resource_link', uri: 'https://x/y.pdf', name: 'y.pdf' },
      ],
    })
    const sent = fake.posted.filter((m) => m.method === 'ui/download-file').map((m) => m.params)
    expect(sent).toEqual([
      { contents: [{ type: 'resource', resource: { uri: 'file:///f.csv', mimeType: 'text/csv', text: 'a,b' } }] },
      {
        contents: [
          { type: 'resource', resource: { uri: 'file:///b.bin', blob: 'AAEC' } },
          { type: 'resource_link', uri: 'https://x/y.pdf', name: 'y.pdf' },
        ],
      },
    ])
  })

  it('downloadFile refused by the host goes to error', async () => {
    const { send } = start({
      'ui/download-file': () => {
        throw Object.assign(new Error('user cancelled'), { code: -32000 })
      },
    })
    expect(await send({ downloadFile: { uri: 'file:///a', text: 'x' } })).toMatchObject({ kind: 'error', data: { error: 'user cancelled', code: -32000 } })
  })

  it('readResource, listResources (with and without a cursor), listResourceTemplates and listPrompts send their params; ok gets the answer', async () => {
    const { send, params } = start({
      'resources/read': (p) => ({ contents: [{ uri: p.uri, text: 'body' }] }),
      'resources/list': (p) => ({ resources: [], ...(p.cursor ? {} : { nextCursor: 'c2' }) }),
      'resources/templates/list': echo({ resourceTemplates: [{ uriTemplate: 'x://{id}', name: 'x' }] }),
      'prompts/list': echo({ prompts: [{ name: 'p' }] }),
    })
    expect((await send({ readResource: 'ui://a' })).data).toEqual({ contents: [{ uri: 'ui://a', text: 'body' }] })
    expect((await send({ listResources: true })).data).toEqual({ resources: [], nextCursor: 'c2' })
    expect(params('resources/list')).toEqual({})
    await send({ listResources: { cursor: 'c2' } })
    expect(params('resources/list')).toEqual({ cursor: 'c2' })
    expect((await send({ listResourceTemplates: true })).data.resourceTemplates).toHaveLength(1)
    expect((await send({ listPrompts: { cursor: 'p2' } })).data).toEqual({ prompts: [{ name: 'p' }] })
    expect(params('prompts/list')).toEqual({ cursor: 'p2' })
  })

  it('createMessage: a string is one user message with maxTokens 1024; full params pass through', async () => {
    const { send, params } = start({ 'sampling/createMessage': echo({ role: 'assistant', content: { type: 'text', text: 'ok' }, model: 'm' }) })
    const r = await send({ createMessage: 'Summarize' })
    expect(params('sampling/createMessage')).toEqual({ messages: [{ role: 'user', content: { type: 'text', text: 'Summarize' } }], maxTokens: 1024 })
    expect(r.data).toEqual({ role: 'assistant', content: { type: 'text', text: 'ok' }, model: 'm' })
    await send({ createMessage: { messages: [{ role: 'user', content: { type: 'text', text: 'x' } }], maxTokens: 50, systemPrompt: 'be brief' } })
    expect(params('sampling/createMessage')).toEqual({
      messages: [{ role: 'user', content: { type: 'text', text: 'x' } }],
      maxTokens: 50,
      systemPrompt: 'be brief',
    })
  })
})

describe('notification sinks', () => {
  it('log → notifications/message (default level info); ok once sent', async () => {
    const { send, fake } = start()
    expect(await send({ log: { n: 1 } })).toMatchObject({ kind: 'ok', data: {} })
    await send({ log: 'boom', level: 'error', logger: 'view' })
    const sent = fake.posted.filter((m) => m.method === 'notifications/message')
    expect(sent).toEqual([
      { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: { n: 1 } } },
      { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'error', logger: 'view', data: 'boom' } },
    ])
  })

  it('requestTeardown → ui/notifications/request-teardown', async () => {
    const { send, fake } = start()
    expect((await send({ requestTeardown: true })).kind).toBe('ok')
    expect(fake.posted.at(-1)).toEqual({ jsonrpc: '2.0', method: 'ui/notifications/request-teardown', params: {} })
  })
})

describe('bad sink values', () => {
  const cases: Array<[string, Record<string, any>, RegExp]> = [
    ['no known key', { fetch: 'x' }, /names none of callTool, updateModelContext/],
    ['callTool without a name', { callTool: '' }, /callTool must be a non-empty string/],
    ['callTool args not an object', { callTool: 't', args: [1] }, /callTool args must be an object/],
    ['bad display mode', { displayMode: 'sidebar' }, /displayMode must be 'inline', 'fullscreen' or 'pip'/],
    ['message as an object', { message: { text: 'x' } }, /message must be a string or an array of content blocks/],
    ['download without body', { downloadFile: { uri: 'file:///a' } }, /downloadFile needs text or blob/],
    ['bad log level', { log: 'x', level: 'bogus' }, /log level must be one of debug/],
    [
      "'warn' (MCP spells it 'warning')",
      { log: 'x', level: 'warn' },
      /log level must be one of debug, info, notice, warning, error, critical, alert, emergency, not "warn"/,
    ],
    ['createMessage without messages', { createMessage: { maxTokens: 3 } }, /createMessage must be a prompt string/],
  ]
  for (const [name, value, message] of cases) {
    it(`${name}: error action with INVALID_SINK, nothing posted`, async () => {
      const { send, fake } = start()
      await fake.waitFor((m) => m.method === 'ui/notifications/initialized')
      const before = fake.posted.length
      const r = await send(value)
      expect(r.kind).toBe('error')
      expect(r.data.code).toBe('INVALID_SINK')
      expect(r.data.error).toMatch(message)
      expect(fake.posted.length).toBe(before)
    })
  }

  it('a bad value with no error action is reported on the console instead of being lost', async () => {
    const spy = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const { h } = start()
    h.send({ nothing: true })
    await until(() => spy.mock.calls.length > 0, 'console.warn')
    expect(String(spy.mock.calls[0]![0])).toMatch(/INVALID_SINK|names none of/)
    spy.mockRestore()
  })
})

describe('host capabilities', () => {
  // Each sink, and the capability the host must advertise for it.
  const needs: Array<[string, Record<string, any>, string, string]> = [
    ['callTool', { callTool: 'get_forecast' }, 'tools/call', 'serverTools'],
    ['readResource', { readResource: 'ui://x/y.html' }, 'resources/read', 'serverResources'],
    ['listResources', { listResources: true }, 'resources/list', 'serverResources'],
    ['openLink', { openLink: 'https://example.com' }, 'ui/open-link', 'openLinks'],
    ['downloadFile', { downloadFile: { uri: 'file:///a.txt', text: 'a' } }, 'ui/download-file', 'downloadFile'],
    ['message', { message: 'hi' }, 'ui/message', 'message'],
    ['updateModelContext', { updateModelContext: 'picked Tue' }, 'ui/update-model-context', 'updateModelContext'],
    ['createMessage', { createMessage: 'hi' }, 'sampling/createMessage', 'sampling'],
    ['log', { log: 'x' }, 'notifications/message', 'logging'],
  ]
  for (const [name, value, method, capability] of needs) {
    it(`${name} on a host without ${capability}: error action with UNSUPPORTED naming ${method}, nothing posted`, async () => {
      // The handler exists: only the advertisement is missing, so a round trip would have "worked".
      const { send, fake } = start({ [method]: () => ({}) }, { hostCapabilities: {} })
      await fake.waitFor((m) => m.method === 'ui/notifications/initialized')
      const before = fake.posted.length
      const r = await send(value)
      expect(r.kind).toBe('error')
      expect(r.data.code).toBe('UNSUPPORTED')
      expect(r.data.error).toContain(method)
      expect(r.data.error).toContain(`hostCapabilities.${capability}`)
      expect(fake.posted.length).toBe(before)
    })
  }

  it('a request sent before the handshake waits for the capabilities, then is refused without a round trip', async () => {
    const { send, fake } = start({ 'ui/update-model-context': () => ({}) }, { hostCapabilities: { logging: {} } })
    const r = await send({ updateModelContext: 'early' })
    expect(r.data.code).toBe('UNSUPPORTED')
    expect(fake.methods()).toEqual(['ui/initialize', 'ui/notifications/initialized'])
  })

  it('a display mode the host does not list is refused; one it lists is asked for', async () => {
    const { send, fake } = start(
      { 'ui/request-display-mode': (p) => ({ mode: p.mode }) },
      { hostContext: { displayMode: 'inline', availableDisplayModes: ['inline', 'fullscreen'] } },
    )
    const pip = await send({ displayMode: 'pip' })
    expect(pip.data).toMatchObject({ code: 'UNSUPPORTED', error: expect.stringMatching(/ui\/request-display-mode.*"pip"/) })
    expect(fake.methods()).not.toContain('ui/request-display-mode')
    const full = await send({ displayMode: 'fullscreen' })
    expect(full).toMatchObject({ kind: 'ok', data: { mode: 'fullscreen' } })
  })

  it('an unsupported request with no error action warns once, naming the method, not on every send', async () => {
    const spy = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const { h, fake } = start({}, { hostCapabilities: {} })
    h.send({ updateModelContext: 'a' })
    h.send({ updateModelContext: 'b' })
    h.send({ message: 'c' })
    await until(() => spy.mock.calls.length >= 2, 'console.warn')
    // A window, not an event: a third warning (the repeated method) would come within it.
    await new Promise((r) => setTimeout(r, 20))
    const lines = spy.mock.calls.map((c) => String(c[0]))
    spy.mockRestore()
    expect(lines).toHaveLength(2)
    expect(lines[0]).toMatch(/^\[duetkit\/mcp\] ui\/update-model-context: /)
    expect(lines[1]).toMatch(/^\[duetkit\/mcp\] ui\/message: /)
    expect(fake.methods()).toEqual(['ui/initialize', 'ui/notifications/initialized'])
  })

  it('every warning names the method, also for a host error', async () => {
    const spy = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const { h } = start({ 'ui/open-link': () => Promise.reject(Object.assign(new Error('blocked by policy'), { code: -32000 })) })
    h.send({ openLink: 'https://example.com' })
    await until(() => spy.mock.calls.length > 0, 'console.warn')
    const line = String(spy.mock.calls[0]![0])
    spy.mockRestore()
    expect(line).toBe('[duetkit/mcp] ui/open-link: blocked by policy')
  })
})
