import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { connect, tempDataDir, textOf, type Connected } from './harness.js'

let tmp: ReturnType<typeof tempDataDir>
let server: Connected
beforeEach(async () => {
  tmp = tempDataDir()
  server = await connect(tmp.dir)
})
afterEach(async () => {
  await server.close()
  tmp.remove()
})

describe('wrong arguments become tool errors that say what to do', () => {
  it('bad names, keys and channel ids', async () => {
    const name = await server.call('save_app', { name: '../../etc', channel_id: 'ch-1' })
    expect(name.isError).toBe(true)
    expect(textOf(name)).toMatch(/^INVALID_NAME: name '..\/..\/etc' is not a valid app name/)
    const channel = await server.call('save_app', { name: 'ok', channel_id: 'a/b' })
    expect(textOf(channel)).toMatch(/^BAD_CHANNEL_ID: Invalid channel id "a\/b"/)
    expect(channel).toEqual({
      isError: true,
      content: [{ type: 'text', text: textOf(channel) }],
      structuredContent: { error: { code: 'BAD_CHANNEL_ID', message: textOf(channel).slice('BAD_CHANNEL_ID: '.length), data: { field: 'channel_id' } } },
    })
    const key = await server.call('put_app_data', { app: 'reader', key: '../secret', value: 1 })
    expect(key).toMatchObject({ isError: true, structuredContent: { error: { code: 'INVALID_NAME' } } })
    const recipe = await server.call('get_recipe', { name: '../../README' })
    expect(textOf(recipe)).toMatch(/^NOT_FOUND: No recipe is named "..\/..\/README". Recipes: getting-started/)
  })

  it('missing or mistyped arguments', async () => {
    for (const [tool, args] of [
      ['save_app', { name: 'x' }],
      ['put_app_data', { app: 'x', key: 'k' }],
      ['get_app_data', { app: 'x', key: 'k', offset: -1 }],
      ['tail_server_log', { n: 'ten' }],
      ['write_server_log', { level: 'loud', message: 'x' }],
      ['load_app', {}],
    ] as const) {
      const result = await server.call(tool, args)
      expect(result.isError, `${tool} ${JSON.stringify(args)}`).toBe(true)
      expect(textOf(result)).toMatch(/invalid|missing|required|expected/i)
    }
  })

  it('an oversized value is refused and the stored one is kept', async () => {
    await server.close()
    server = await connect(tmp.dir, { limits: { maxValueBytes: 1000 } })
    await server.call('put_app_data', { app: 'reader', key: 'pages', value: ['one'] })
    const big = await server.call('put_app_data', { app: 'reader', key: 'pages', value: ['x'.repeat(2000)] })
    expect(textOf(big)).toMatch(/^TOO_LARGE: reader\/pages would take \d+ bytes, over the limit of 1000/)
    const page = await server.call('get_app_data', { app: 'reader', key: 'pages' })
    expect(page.structuredContent).toEqual({ value: ['one'], offset: 0, total: 1 })
  })
})

describe('visibility', () => {
  it('lists app-only tools with ui.visibility ["app"], agent-only ones with ["model"], the rest for both', async () => {
    const { tools } = await server.client.listTools()
    const visibility = Object.fromEntries(tools.map((t) => [t.name, (t._meta as any)?.ui?.visibility]))
    expect(visibility.get_app_data).toEqual(['app'])
    expect(visibility.write_server_log).toEqual(['app'])
    // Saved apps are listed, loaded and deleted by the agent alone: a view reaching them would reach its neighbours.
    for (const name of ['list_saved_apps', 'load_app', 'delete_saved_app']) expect(visibility[name], name).toEqual(['model'])
    for (const name of ['save_app', 'put_app_data', 'tail_server_log', 'list_recipes', 'get_recipe']) {
      expect(visibility[name], name).toBeUndefined()
      expect(tools.find((t) => t.name === name)?.description?.length, name).toBeGreaterThan(20)
    }
  })
})

describe('the round trips', () => {
  it('save_app saves what the display tool recorded; list and load bring it back', async () => {
    await server.store.recordRender('ch-reader', { kind: 'component', title: 'Reader', source: 'export default () => null', props: { book: 'declaration' } })
    const saved = await server.call('save_app', { name: 'reader', channel_id: 'ch-reader', description: 'Margin comments' })
    expect(saved.isError).toBeFalsy()
    expect(saved.structuredContent).toMatchObject({ name: 'reader', kind: 'component' })
    const again = await server.call('save_app', { name: 'reader', channel_id: 'ch-reader' })
    expect(textOf(again)).toMatch(/^ALREADY_EXISTS: .*replace: true/)
    const list = await server.call('list_saved_apps')
    expect(list.structuredContent.apps).toEqual([expect.objectContaining({ name: 'reader', title: 'Reader', description: 'Margin comments' })])
    const loaded = await server.call('load_app', { name: 'reader' })
    expect(loaded.structuredContent.app).toMatchObject({ kind: 'component', source: 'export default () => null', props: { book: 'declaration' } })
    expect(textOf(loaded)).toMatch(/display_component/)
    expect((await server.call('delete_saved_app', { name: 'reader' })).structuredContent).toEqual({ deleted: true })
    expect(textOf(await server.call('load_app', { name: 'reader' }))).toMatch(/^NOT_FOUND: .*Nothing is saved yet/)
  })

  it("onLoad replaces load_app's result, for the display tools to show the app again", async () => {
    await server.close()
    const seen: string[] = []
    server = await connect(tmp.dir, {
      onLoad: (app) => {
        seen.push(app.name)
        return { content: [{ type: 'text', text: `shown ${app.html}` }] }
      },
    })
    await server.store.recordRender('ch-1', { kind: 'html', html: '<p>hi</p>' })
    await server.call('save_app', { name: 'hi', channel_id: 'ch-1' })
    expect(textOf(await server.call('load_app', { name: 'hi' }))).toBe('shown <p>hi</p>')
    expect(seen).toEqual(['hi'])
  })

  it('put_app_data, then the app pages through it with get_app_data', async () => {
    const put = await server.call('put_app_data', { app: 'book', key: 'pages', value: ['p1', 'p2', 'p3'] })
    expect(textOf(put)).toBe('Stored book/pages: 3 items, 16 bytes.')
    await server.call('put_app_data', { app: 'book', key: 'pages', value: ['p4'], append: true })
    const first = await server.call('get_app_data', { app: 'book', key: 'pages', limit: 3 })
    expect(first.structuredContent).toEqual({ value: ['p1', 'p2', 'p3'], offset: 0, total: 4, next: 3 })
    expect(JSON.parse(textOf(first))).toEqual(first.structuredContent)
    const last = await server.call('get_app_data', { app: 'book', key: 'pages', offset: first.structuredContent.next, limit: 3 })
    expect(last.structuredContent).toEqual({ value: ['p4'], offset: 3, total: 4 })
  })

  it('write_server_log from the app, tail_server_log for the agent, both on the MCP levels', async () => {
    await server.call('write_server_log', { level: 'info', message: 'started' })
    await server.call('write_server_log', { level: 'error', message: 'page failed', data: { page: 3 } })
    const all = await server.call('tail_server_log', {})
    expect(textOf(all).split('\n')).toEqual([
      expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z info {2}started$/),
      expect.stringMatching(/error page failed \{"page":3\}$/),
    ])
    const errors = await server.call('tail_server_log', { n: 5, level: 'warning' })
    expect(errors.structuredContent.entries).toEqual([expect.objectContaining({ level: 'error', message: 'page failed', data: { page: 3 } })])
    // MCP spells it 'warning': the schema refuses 'warn' and its error lists the levels.
    const warn = await server.call('write_server_log', { level: 'warn', message: 'x' })
    expect(warn.isError).toBe(true)
    expect(textOf(warn)).toMatch(/level.*"debug".*"info".*"notice".*"warning".*"error".*"critical".*"alert".*"emergency"/s)
  })

  it('recipes as tools and as prompts', async () => {
    const list = await server.call('list_recipes')
    const names = list.structuredContent.recipes.map((r: { name: string }) => r.name)
    expect(names).toEqual([
      'getting-started',
      'bidirectional-events',
      'duet-components',
      'margin-comments',
      'declaration-reader',
      'content-viewer',
      'host-capabilities',
      'debugging',
    ])
    expect(textOf(await server.call('get_recipe', { name: 'content-viewer' }))).toMatch(/^# Content viewer/)
    const { prompts } = await server.client.listPrompts()
    expect(prompts.map((p) => p.name)).toEqual(names)
    const prompt = await server.client.getPrompt({ name: 'bidirectional-events' })
    expect(prompt.messages[0].content).toMatchObject({ type: 'text', text: expect.stringContaining('duet wait <channel_id>') })
  })

  it('the store closes with the server', async () => {
    const store = server.store
    await server.close()
    await expect(store.listApps()).rejects.toThrow(/closed/)
    server = await connect(tmp.dir)
  })
})
