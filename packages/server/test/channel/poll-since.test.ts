import { Client } from '@modelcontextprotocol/client'
import { InMemoryTransport } from '@modelcontextprotocol/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openChannelStore, registerChannelTools, type ChannelStore } from '../../src/channel/index.js'
import { createAppServer, type AppServer } from '../../src/server/app-server.js'
import { tempDir } from './temp-dir.js'

// `since` lets an onlooker (the duet dev page's agent panel) watch a channel without taking what the agent waits for.
let dir: ReturnType<typeof tempDir>
let store: ChannelStore
let app: AppServer
let client: Client

type Result = { isError?: boolean; content: Array<{ type: string; text?: string }>; structuredContent?: Record<string, unknown> }
const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as Result
const ids = (r: Result) => ((r.structuredContent?.messages ?? []) as Array<{ id: string }>).map((m) => m.id)

beforeAll(async () => {
  dir = tempDir('duet-since-')
  store = await openChannelStore({ backend: 'sqlite', dataDir: dir.dir })
  app = createAppServer({ name: 'poll-since-test', version: '1.0.0' })
  registerChannelTools(app, store)
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await app.mcp.connect(serverSide)
  client = new Client({ name: 'test', version: '1' })
  await client.connect(clientSide)
})
afterAll(async () => {
  await client.close()
  await app.close()
  await store.dispose()
  dir.remove()
})

describe('poll_agent_messages with since', () => {
  it('documents since in its input schema and description', async () => {
    const { tools } = await client.listTools()
    const poll = tools.find((t) => t.name === 'poll_agent_messages')!
    expect(Object.keys(poll.inputSchema.properties ?? {})).toContain('since')
    expect(poll.description).toMatch(/since.*removes nothing/)
  })

  it('returns messages above since and removes nothing, so the agent still gets them all', async () => {
    const channel = (await call('open_channel', {})).structuredContent!.channel_id as string
    for (const n of [1, 2, 3]) await call('notify_agent', { channel_id: channel, event: 'ask', data: { n } })
    const watched = await call('poll_agent_messages', { channel_id: channel, since: '0' })
    const all = ids(watched)
    expect(all).toHaveLength(3)
    expect(watched.structuredContent!.next_since).toBe(all[2])
    // The watcher's cursor: only what came after.
    const later = await call('poll_agent_messages', { channel_id: channel, since: all[0] })
    expect(ids(later)).toEqual(all.slice(1))
    expect(await store.peek(channel, 'app-to-agent')).toBe(3)
    // Nothing new: an empty list and the same cursor back.
    expect((await call('poll_agent_messages', { channel_id: channel, since: all[2] })).structuredContent).toEqual({ messages: [], next_since: all[2] })
    // The agent, polling as it always did, gets every message.
    const agent = await call('poll_agent_messages', { channel_id: channel })
    expect(ids(agent)).toEqual(all)
    expect(await store.peek(channel, 'app-to-agent')).toBe(0)
  })

  it('refuses a since that is not a message id, losing nothing', async () => {
    const channel = (await call('open_channel', {})).structuredContent!.channel_id as string
    await call('notify_agent', { channel_id: channel, event: 'ask' })
    const bad = await call('poll_agent_messages', { channel_id: channel, since: 'yesterday' })
    expect(bad.isError).toBe(true)
    expect(bad.content[0].text).toMatch(/^INVALID_OPTION: /)
    expect(await store.peek(channel, 'app-to-agent')).toBe(1)
  })
})
