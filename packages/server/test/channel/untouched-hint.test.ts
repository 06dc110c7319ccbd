import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '@modelcontextprotocol/client'
import type { AppServer } from '../../src/server/app-server.js'
import { openChannelStore, type ChannelStore } from '../../src/channel/index.js'
import { connectChannelTools } from './tool-client.js'
import { freshId } from './store.case.js'
import { tempDir } from './temp-dir.js'

// A real SQLite file: the marker must survive in the store, not in the tool layer's memory.
const data = tempDir()
let store: ChannelStore
let app: AppServer
let client: Client

type Result = { isError?: boolean; structuredContent?: Record<string, unknown> }
const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as Result

beforeAll(async () => {
  store = await openChannelStore({ dataDir: data.dir })
  ;({ app, client } = await connectChannelTools(store, 'untouched-hint-test'))
})
afterAll(async () => {
  await client.close()
  await app.close()
  await store.dispose()
  data.remove()
})

describe('"no app has touched this channel" hint', () => {
  it('notify_ui and an empty poll_agent_messages on an id no app used say so, and still work', async () => {
    const typo = freshId('Ch-typo')
    const sent = await call('notify_ui', { channel_id: typo, event: 'answer', data: 1 })
    expect(sent.isError).toBeFalsy()
    expect(sent.structuredContent?.id).toMatch(/^\d+$/)
    expect(sent.structuredContent?.hint).toMatch(/No app has touched channel 'Ch-typo-.*mistyped/)
    const polled = await call('poll_agent_messages', { channel_id: typo })
    expect(polled.structuredContent).toMatchObject({ messages: [], hint: expect.stringContaining(typo) })
    const cursor = await call('poll_agent_messages', { channel_id: typo, after: '0' })
    expect(cursor.structuredContent).toMatchObject({ messages: [], next_after: '0', hint: expect.stringContaining(typo) })
    // The message the agent sent is kept for a view that starts later.
    expect(await store.peek(typo, 'agent-to-app')).toBe(1)
  })

  it('goes away once the app polls or sends, and never shows for a minted channel', async () => {
    const picked = freshId('ch-picked')
    expect((await call('notify_ui', { channel_id: picked, event: 'hello' })).structuredContent?.hint).toBeDefined()
    await call('poll_ui_messages', { channel_id: picked, after: '0' })
    expect((await call('notify_ui', { channel_id: picked, event: 'hello' })).structuredContent).not.toHaveProperty('hint')
    expect((await call('poll_agent_messages', { channel_id: picked })).structuredContent).toEqual({ messages: [] })

    const sender = freshId('ch-sender')
    await call('notify_agent', { channel_id: sender, event: 'ready' })
    expect((await call('poll_agent_messages', { channel_id: sender, after: '0' })).structuredContent).not.toHaveProperty('hint')

    const minted = (await call('open_channel', {})).structuredContent!.channel_id as string
    expect((await call('notify_ui', { channel_id: minted, event: 'hello' })).structuredContent).not.toHaveProperty('hint')
    expect((await call('poll_agent_messages', { channel_id: minted })).structuredContent).toEqual({ messages: [] })
  })
})
