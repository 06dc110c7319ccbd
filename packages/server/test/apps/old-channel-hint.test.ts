import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client } from '@modelcontextprotocol/client'
import { InMemoryTransport } from '@modelcontextprotocol/server'
import { createAgentAppsServer } from '../../src/apps/agent-apps-server.js'
import { MovedApps } from '../../src/apps/moved-apps.js'
import { tempDataDir } from './harness.js'

// After load_app shows a saved app again on a fresh channel, an agent answering on the channel it remembers
// writes to the older copy while the user works in the new one. notify_ui says so and names the new channel.

let tmp: ReturnType<typeof tempDataDir>
let close: () => Promise<void>
let client: Client
beforeAll(async () => {
  tmp = tempDataDir()
  const app = await createAgentAppsServer({ dataDir: tmp.dir })
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await app.mcp.connect(serverSide)
  client = new Client({ name: 'agent', version: '1' })
  await client.connect(clientSide)
  close = async () => {
    await client.close()
    await app.close()
  }
})
afterAll(async () => {
  await close?.()
  tmp?.remove()
})

const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as any

describe('notify_ui on the channel an app had before load_app', () => {
  it('delivers, and answers with a hint naming the new channel and the saved app; the new channel gets no hint', async () => {
    const first = (await call('display_ui_to_user', { html: '<p id="a">ask me</p>' })).structuredContent.channel_id
    expect((await call('save_app', { name: 'asker', channel_id: first })).isError).toBeFalsy()
    const loaded = (await call('load_app', { name: 'asker' })).structuredContent.channel_id
    expect(loaded).not.toBe(first)

    const old = await call('notify_ui', { channel_id: first, event: 'answer', data: 'hi' })
    expect(old.isError).toBeFalsy()
    expect(old.structuredContent).toMatchObject({ id: expect.any(String), moved_to: loaded })
    expect(old.structuredContent.hint).toContain(`load_app('asker') showed it again on channel ${loaded}`)
    expect(old.structuredContent.hint).toContain(`notify_ui({ "channel_id": "${loaded}"`)
    expect(old.content[0].text).toContain(loaded)
    // What getting-started tells the agent about it.
    const { RECIPES } = await import('../../src/apps/recipes/index.js')
    expect(RECIPES.find((r) => r.name === 'getting-started')!.text).toContain(
      'a `notify_ui` there is answered with a\n`hint` and `moved_to` naming the new one.',
    )

    const fresh = await call('notify_ui', { channel_id: loaded, event: 'answer', data: 'hi' })
    expect(fresh.structuredContent.moved_to).toBeUndefined()
    expect(fresh.structuredContent.hint ?? '').not.toContain('load_app')
  })

  it('follows repeated loads to the newest channel, for a component too', async () => {
    const source = 'export default function V({ props }) { return <p>{props.n}</p> }\n'
    const first = (await call('display_component', { source, props: { n: 1 } })).structuredContent.channel_id
    await call('save_app', { name: 'counter', channel_id: first })
    const second = (await call('load_app', { name: 'counter' })).structuredContent.channel_id
    const third = (await call('load_app', { name: 'counter' })).structuredContent.channel_id
    expect(new Set([first, second, third]).size).toBe(3)
    for (const older of [first, second]) expect((await call('notify_ui', { channel_id: older, event: 'x' })).structuredContent.moved_to).toBe(third)
    expect((await call('notify_ui', { channel_id: third, event: 'x' })).structuredContent.moved_to).toBeUndefined()
  })

  it('says nothing for a different app that was never loaded', async () => {
    const other = (await call('display_ui_to_user', { html: '<p>another app</p>' })).structuredContent.channel_id
    expect((await call('notify_ui', { channel_id: other, event: 'x' })).structuredContent.moved_to).toBeUndefined()
  })
})

describe('MovedApps keeps each subject apart', () => {
  it("one subject's load never points another subject's channel anywhere", () => {
    const moved = new MovedApps()
    const app = { kind: 'html' as const, html: '<p>same app</p>' }
    moved.shown('alice', 'ch_a1', app)
    moved.shown('bob', 'ch_b1', app)
    const previous = moved.newestOf('alice', app)
    expect(previous).toBe('ch_a1')
    moved.shown('alice', 'ch_a2', app)
    moved.loaded('alice', previous, 'ch_a2', 'same')
    expect(moved.movedTo('alice', 'ch_a1')).toEqual({ channel_id: 'ch_a2', name: 'same' })
    expect(moved.movedTo('bob', 'ch_b1')).toBeUndefined()
    expect(moved.movedTo('bob', 'ch_a1')).toBeUndefined()
    expect(moved.newestOf('bob', app)).toBe('ch_b1')
  })
})
