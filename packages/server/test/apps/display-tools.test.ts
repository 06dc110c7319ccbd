import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { SHELL_URI } from '../../src/apps/display-shell.js'
import { startDisplayServer, type DisplayServer } from './display-harness.js'

const textOf = (r: any): string => r.content?.[0]?.text ?? ''

const COUNTER = `function Counter({ state }) {
  return <button type="button" className="inc">{\`Clicked \${state.n} times\`}</button>
}
Counter.initialState = { n: 0 }
Counter.intent = ({ DOM }) => ({ INC: DOM.click('.inc') })
Counter.model = { INC: (state) => ({ n: state.n + 1 }) }
export default Counter
`

let server: DisplayServer
beforeEach(async () => {
  server = await startDisplayServer()
})
afterEach(async () => {
  await server.close()
})

describe('the display tools in the listing', () => {
  it('point display_ui_to_user, display_component and load_app at the one shell resource', async () => {
    const { tools } = await server.client.listTools()
    for (const name of ['display_ui_to_user', 'display_component', 'load_app']) {
      const tool = tools.find((t) => t.name === name)
      expect(tool, name).toBeDefined()
      expect((tool!._meta as any)?.ui?.resourceUri, name).toBe(SHELL_URI)
      expect((tool!._meta as any)?.['ui/resourceUri'], name).toBe(SHELL_URI)
      // load_app is the agent's alone (a view loading saved apps would reach its neighbours); the display tools are for both.
      expect((tool!._meta as any)?.ui?.visibility, name).toEqual(name === 'load_app' ? ['model'] : undefined)
    }
    const { resources } = await server.client.listResources()
    expect(resources.filter((r) => r.uri === SHELL_URI)).toHaveLength(1)
  })

  it('serves a self-contained shell page: no external scripts, no network, no eval', async () => {
    const { contents } = await server.client.readResource({ uri: SHELL_URI })
    expect(contents[0]).toMatchObject({ uri: SHELL_URI, mimeType: 'text/html;profile=mcp-app' })
    const html = (contents[0] as { text: string }).text
    expect(html).toMatch(/^<!doctype html>/)
    expect(html).not.toMatch(/<script[^>]+src=/i)
    expect(html).not.toMatch(/<link[^>]+href=/i)
    expect(html).toContain('id="duet-root"')
    // The shell carries the MCP client without the SDK or zod.
    expect(html).not.toContain('ZodError')
    expect(html).not.toMatch(/\bnew Function\(|\beval\(/)
  })
})

describe('display_ui_to_user', () => {
  it('mints a fresh channel per render, records the render, and tells the agent how to wait', async () => {
    const first = await server.call('display_ui_to_user', { html: '<p>One</p>', title: 'One' })
    const second = await server.call('display_ui_to_user', { html: '<p>Two</p>' })
    expect(first.isError).toBeFalsy()
    const id = first.structuredContent.channel_id
    expect(id).toMatch(/^[A-Za-z0-9_-]{20,64}$/)
    expect(second.structuredContent.channel_id).not.toBe(id)
    expect(first.structuredContent).toEqual({ channel_id: id, kind: 'html', title: 'One' })
    expect(first._meta).toMatchObject({ 'duet/channel_id': id, 'duet/html': '<p>One</p>' })
    expect(await server.store.getRender(id)).toMatchObject({ kind: 'html', html: '<p>One</p>', title: 'One', channelId: id })
    const text = textOf(first)
    expect(text).toContain(`duet wait ${id} --data-dir ${server.dir}`)
    // A suggested wait that fits the SDK clients' 60 s request timeout.
    expect(text).toContain(`poll_agent_messages({ "channel_id": "${id}", "wait_seconds": 50 })`)
    expect(text).toContain(`logged with channel_id ${id}; read them with tail_server_log`)
    expect(text).toContain('notify_ui')
    // The channel is real: the app side can write on it and the agent reads it.
    await server.channels.send(id, 'app-to-agent', { event: 'ready' })
    const polled = await server.call('poll_agent_messages', { channel_id: id })
    expect(polled.structuredContent.messages).toMatchObject([{ event: 'ready' }])
  })

  it('mints ids that go on a command line as they are (none starts with a dash)', async () => {
    const ids = await Promise.all(Array.from({ length: 300 }, () => server.channels.open()))
    expect(ids.filter((id) => id.startsWith('-'))).toEqual([])
  })

  it('rejects bad input with a clear error and leaves nothing behind', async () => {
    const empty = await server.call('display_ui_to_user', { html: '' })
    expect(empty.isError).toBe(true)
    const missing = await server.call('display_ui_to_user', { title: 'no html' })
    expect(missing.isError).toBe(true)
    expect(textOf(missing)).toMatch(/html/)
    const huge = await server.call('display_ui_to_user', { html: 'x'.repeat(server.store.limits.maxRenderChars + 1) })
    expect(huge.isError).toBe(true)
    expect(textOf(huge)).toMatch(/^TOO_LARGE: /)
  })
})

describe('display_component', () => {
  it('compiles the module and returns the channel and props, the compiled script only through the app-only get_render', async () => {
    const result = await server.call('display_component', { source: COUNTER, title: 'Counter', props: { start: 2 } })
    expect(result.isError, textOf(result)).toBeFalsy()
    const { channel_id: id, props, kind, title } = result.structuredContent
    expect(result.structuredContent).toEqual({ channel_id: id, kind: 'component', title: 'Counter', props: { start: 2 } })
    expect({ kind, title, props }).toEqual({ kind: 'component', title: 'Counter', props: { start: 2 } })
    expect(JSON.stringify(result)).not.toContain('__duetMount')
    const fetched = await server.call('get_render', { channel_id: id })
    expect(fetched.structuredContent).toMatchObject({ channel_id: id, kind: 'component', title: 'Counter', props: { start: 2 } })
    expect(fetched.structuredContent.script).toContain('__duetMount')
    const missing = await server.call('get_render', { channel_id: 'no-such-render' })
    expect(missing.isError).toBe(true)
    expect(textOf(missing)).toMatch(/^NOT_FOUND: No render on channel 'no-such-render'/)
    expect(await server.store.getRender(id)).toMatchObject({ kind: 'component', source: COUNTER, props: { start: 2 } })
    expect(textOf(result)).toContain(`duet wait ${id}`)
  })

  it('returns a syntax error as a tool error with line and column, without minting a channel', async () => {
    const before = await server.call('display_ui_to_user', { html: '<p>x</p>' })
    const result = await server.call('display_component', { source: 'export default function V() {\n  return <p>{1 +}</p>\n}\n' })
    expect(result.isError).toBe(true)
    expect(textOf(result)).toMatch(/^COMPILE_ERROR: The component does not compile:\nline 2, column \d+: /)
    expect(textOf(result)).toContain('return <p>{1 +}</p>')
    // The same problems reach the client as data, for a view or a program to place them in the source.
    expect(result.structuredContent.error).toMatchObject({
      code: 'COMPILE_ERROR',
      data: { problems: [{ text: expect.any(String), line: 2, column: expect.any(Number), lineText: '  return <p>{1 +}</p>' }] },
    })
    // Nothing was recorded for it: the newest render is still the fragment.
    expect(await server.store.getRender(before.structuredContent.channel_id)).toBeDefined()
  })

  it('refuses a network or file import', async () => {
    const result = await server.call('display_component', { source: "import d3 from 'https://cdn.jsdelivr.net/npm/d3'\nexport default () => <p>{d3}</p>\n" })
    expect(result.isError).toBe(true)
    expect(textOf(result)).toMatch(/line 1, column \d+: Cannot import "https:\/\/cdn.jsdelivr.net\/npm\/d3"/)
  })
})

describe('saved apps come back on a fresh channel', () => {
  it('save, list, load: the html app is shown again with a new channel and its body', async () => {
    const shown = await server.call('display_ui_to_user', { html: '<h1>Hello</h1>', title: 'Hello' })
    const old = shown.structuredContent.channel_id
    const saved = await server.call('save_app', { name: 'hello', channel_id: old, description: 'A greeting card' })
    expect(saved.isError, textOf(saved)).toBeFalsy()
    const listed = await server.call('list_saved_apps')
    expect(listed.structuredContent.apps).toMatchObject([{ name: 'hello', kind: 'html', title: 'Hello', description: 'A greeting card' }])

    const loaded = await server.call('load_app', { name: 'hello' })
    expect(loaded.isError, textOf(loaded)).toBeFalsy()
    const fresh = loaded.structuredContent.channel_id
    expect(fresh).toMatch(/^[A-Za-z0-9_-]{20,64}$/)
    expect(fresh).not.toBe(old)
    expect(loaded.structuredContent).toMatchObject({ kind: 'html', html: '<h1>Hello</h1>', title: 'Hello' })
    expect(textOf(loaded)).toContain("Loaded the saved app 'hello' (A greeting card)")
    expect(textOf(loaded)).toContain(`duet wait ${fresh}`)
    expect(await server.store.getRender(fresh)).toMatchObject({ kind: 'html', html: '<h1>Hello</h1>' })
  })

  it('a saved component is compiled again and shown with its props', async () => {
    const shown = await server.call('display_component', { source: COUNTER, props: { start: 5 } })
    await server.call('save_app', { name: 'counter', channel_id: shown.structuredContent.channel_id })
    const loaded = await server.call('load_app', { name: 'counter' })
    expect(loaded.structuredContent).toMatchObject({ kind: 'component', props: { start: 5 } })
    expect(loaded.structuredContent.script).toBeUndefined()
    const fetched = await server.call('get_render', { channel_id: loaded.structuredContent.channel_id })
    expect(fetched.structuredContent.script).toContain('__duetMount')
    expect(loaded.structuredContent.channel_id).not.toBe(shown.structuredContent.channel_id)
  })

  it('an old copy keeps its channel: nothing sent to the new render reaches it', async () => {
    const shown = await server.call('display_ui_to_user', { html: '<p>v1</p>' })
    await server.call('save_app', { name: 'v1', channel_id: shown.structuredContent.channel_id })
    const old = shown.structuredContent.channel_id
    const fresh = (await server.call('load_app', { name: 'v1' })).structuredContent.channel_id
    await server.call('notify_ui', { channel_id: fresh, event: 'answer', data: 'for the new copy' })
    expect(await server.channels.drain(old, 'agent-to-app')).toEqual([])
    expect(await server.channels.drain(fresh, 'agent-to-app')).toMatchObject([{ event: 'answer', data: 'for the new copy' }])
  })

  it('loading an unknown name is a clear error', async () => {
    const result = await server.call('load_app', { name: 'nope' })
    expect(result.isError).toBe(true)
    expect(textOf(result)).toMatch(/^NOT_FOUND: No saved app is named 'nope'/)
  })
})
