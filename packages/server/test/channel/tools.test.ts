import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '@modelcontextprotocol/client'
import type { AppServer } from '../../src/server/app-server.js'
import { openChannelStore, type ChannelStore } from '../../src/channel/index.js'
import { connectChannelTools } from './tool-client.js'

let store: ChannelStore
let app: AppServer
let client: Client

type Result = { isError?: boolean; content: Array<{ type: string; text?: string }>; structuredContent?: Record<string, unknown> }
const call = async (name: string, args: Record<string, unknown>, options?: Parameters<Client['callTool']>[1]) =>
  (await client.callTool({ name, arguments: args }, options)) as Result
const text = (r: Result) => r.content[0]?.text ?? ''

beforeAll(async () => {
  store = await openChannelStore({ backend: 'memory' })
  ;({ app, client } = await connectChannelTools(store, 'channel-tools-test'))
})
afterAll(async () => {
  await client.close()
  await app.close()
  await store.dispose()
})

describe('channel tools', () => {
  it('lists every tool with a description, marking the app-side ones app-only', async () => {
    const { tools } = await client.listTools()
    const byName = new Map(tools.map((t) => [t.name, t]))
    for (const name of ['open_channel', 'notify_ui', 'poll_agent_messages', 'close_channel', 'notify_agent', 'poll_ui_messages']) {
      expect(byName.get(name)?.description?.length, name).toBeGreaterThan(40)
    }
    const visibility = (name: string) => (byName.get(name)?._meta?.ui as { visibility?: string[] } | undefined)?.visibility
    expect(visibility('notify_agent')).toEqual(['app'])
    expect(visibility('poll_ui_messages')).toEqual(['app'])
    expect(visibility('notify_ui')).toBeUndefined()
    expect(byName.get('poll_agent_messages')?.description).toMatch(/duet wait/)
  })

  it('acknowledges by after: a lost reply is returned again, an acknowledged message never twice', async () => {
    const channel = (await call('open_channel', {})).structuredContent!.channel_id as string
    for (const n of [1, 2, 3]) await call('notify_agent', { channel_id: channel, event: 'ask', data: { n } })
    const first = await call('poll_agent_messages', { channel_id: channel, after: '0' })
    const ids = (first.structuredContent!.messages as Array<{ id: string }>).map((m) => m.id)
    expect(ids).toHaveLength(3)
    expect(first.structuredContent!.next_after).toBe(ids[2])
    // The reply was lost: the same cursor gets the same batch.
    const again = await call('poll_agent_messages', { channel_id: channel, after: '0' })
    expect((again.structuredContent!.messages as Array<{ id: string }>).map((m) => m.id)).toEqual(ids)
    const done = await call('poll_agent_messages', { channel_id: channel, after: ids[2] })
    expect(done.structuredContent).toEqual({ messages: [], next_after: ids[2] })
    expect(await store.peek(channel, 'app-to-agent')).toBe(0)
    // Without after, the result says what to pass next, and the batch is gone.
    await call('notify_ui', { channel_id: channel, event: 'answer' })
    const plain = await call('poll_ui_messages', { channel_id: channel })
    expect(plain.structuredContent!.note).toMatch(/pass after: "\d+"/)
    expect(await store.peek(channel, 'agent-to-app')).toBe(0)
    const bad = await call('poll_agent_messages', { channel_id: channel, after: 'latest' })
    expect(bad.isError).toBe(true)
    expect(text(bad)).toMatch(/^INVALID_OPTION: after must be a message id/)
  })

  it('refuses a poison payload with BAD_MESSAGE and delivers its neighbours; reports set-aside rows in channel_stats', async () => {
    const channel = (await call('open_channel', {})).structuredContent!.channel_id as string
    let deep: unknown = 1
    for (let i = 0; i < 4100; i++) deep = { d: deep }
    await call('notify_agent', { channel_id: channel, event: 'before' })
    const poison = await call('notify_agent', { channel_id: channel, event: 'poison', data: deep })
    expect(poison.isError).toBe(true)
    expect(text(poison)).toMatch(/^BAD_MESSAGE: .*nests more than/)
    await call('notify_agent', { channel_id: channel, event: 'after' })
    const got = await call('poll_agent_messages', { channel_id: channel })
    expect((got.structuredContent!.messages as Array<{ event: string }>).map((m) => m.event)).toEqual(['before', 'after'])
    expect((await call('channel_stats', {})).structuredContent).toMatchObject({
      backend: 'memory',
      setAside: 0,
      bytes: expect.any(Number),
      channels: expect.any(Number),
    })
  })

  it('answers a minted id this store never minted with UNKNOWN_CHANNEL, naming the likely cause', async () => {
    const unknown = await call('notify_ui', { channel_id: 'ch_BBBBBBBBBBBBBBBBBBBBBBBBBBB', event: 'x' })
    expect(unknown.isError).toBe(true)
    expect(text(unknown)).toMatch(/^UNKNOWN_CHANNEL: .*different stores/)
  })

  it('answers a mistyped real channel id with UNKNOWN_CHANNEL that names the typo first, as duet wait does', async () => {
    const channel = (await call('open_channel', {})).structuredContent!.channel_id as string
    const typo = channel.slice(0, -1) + (channel.at(-1) === 'A' ? 'B' : 'A')
    expect(typo).not.toBe(channel)
    for (const tool of ['notify_ui', 'poll_agent_messages']) {
      const answer = await call(tool, { channel_id: typo, ...(tool === 'notify_ui' && { event: 'x' }) })
      expect(answer.isError, tool).toBe(true)
      expect(text(answer)).toMatch(
        new RegExp(
          `^UNKNOWN_CHANNEL: Channel '${typo}' .*The likeliest cause: the id may be mistyped \\(ids are case-sensitive\\): use the channel_id a display tool or open_channel returned\\.`,
        ),
      )
      // The typo comes before the store setup.
      expect(text(answer).indexOf('mistyped')).toBeLessThan(text(answer).indexOf('different stores'))
    }
  })

  it('carries a round trip both ways with the same JSON as text and structured content', async () => {
    const opened = await call('open_channel', {})
    const channel = opened.structuredContent!.channel_id as string
    expect(channel).toMatch(/^[A-Za-z0-9_-]{22,}$/)
    const sent = await call('notify_agent', { channel_id: channel, event: 'ask', data: { quote: 'We hold these truths', question: 'Why?' } })
    expect(sent.isError).toBeFalsy()
    expect(JSON.parse(text(sent))).toEqual(sent.structuredContent)
    const id = sent.structuredContent!.id
    const polled = await call('poll_agent_messages', { channel_id: channel })
    expect(JSON.parse(text(polled))).toEqual(polled.structuredContent)
    const messages = polled.structuredContent!.messages as Array<Record<string, unknown>>
    expect(messages).toHaveLength(1)
    expect(messages[0]).toMatchObject({ id, event: 'ask', data: { quote: 'We hold these truths', question: 'Why?' } })
    expect(typeof messages[0].at).toBe('number')
    expect((await call('poll_agent_messages', { channel_id: channel })).structuredContent).toEqual({ messages: [] })

    await call('notify_ui', { channel_id: channel, event: 'answer', data: 'Because.' })
    const ui = await call('poll_ui_messages', { channel_id: channel })
    expect((ui.structuredContent!.messages as Array<{ data: unknown }>).map((m) => m.data)).toEqual(['Because.'])
  })

  it('accepts an id the agent picked, as in the seed', async () => {
    const channel = `ch-${Date.now()}`
    await call('notify_ui', { channel_id: channel, event: 'hello', data: {} })
    const ui = await call('poll_ui_messages', { channel_id: channel })
    expect((ui.structuredContent!.messages as unknown[]).length).toBe(1)
  })

  it('long-polls for the app and for the agent', async () => {
    const channel = await store.open()
    setTimeout(() => void store.send(channel, 'agent-to-app', { event: 'late' }), 100)
    const ui = await call('poll_ui_messages', { channel_id: channel, wait_ms: 20_000 })
    expect((ui.structuredContent!.messages as Array<{ event: string }>).map((m) => m.event)).toEqual(['late'])
    setTimeout(() => void store.send(channel, 'app-to-agent', { event: 'later' }), 100)
    const agent = await call('poll_agent_messages', { channel_id: channel, wait_seconds: 20 })
    expect((agent.structuredContent!.messages as Array<{ event: string }>).map((m) => m.event)).toEqual(['later'])
  })

  it('sends progress notifications while the model waits, when asked for them', async () => {
    const channel = await store.open()
    const progress: number[] = []
    // Progress comes every 5 s, so mail arrives after the first tick.
    setTimeout(() => void store.send(channel, 'app-to-agent', { event: 'done' }), 6_500)
    const result = await call(
      'poll_agent_messages',
      { channel_id: channel, wait_seconds: 30 },
      { onprogress: (p) => progress.push(p.progress), timeout: 60_000 },
    )
    expect((result.structuredContent!.messages as unknown[]).length).toBe(1)
    expect(progress.length).toBeGreaterThanOrEqual(1)
  }, 30_000)

  it('turns bad input into tool errors with the code, what went wrong and what to do, text and structured alike, and keeps serving', async () => {
    const channel = await store.open()
    // `data` holds the values at fault: the field, and for a size the size and the limit.
    const cases: Array<[string, Record<string, unknown>, string, RegExp, Record<string, unknown> | undefined]> = [
      ['notify_ui', { channel_id: '../../etc/passwd', event: 'e' }, 'BAD_CHANNEL_ID', /^Invalid channel id .*letters, digits/, { field: 'channel_id' }],
      ['poll_ui_messages', { channel_id: 'x'.repeat(65) }, 'BAD_CHANNEL_ID', /^Invalid channel id/, { field: 'channel_id' }],
      [
        'notify_agent',
        { channel_id: channel, event: 'e', data: 'x'.repeat(1024 * 1024) },
        'TOO_LARGE',
        /^The message is \d+ bytes, .*Split it/,
        { field: 'message', size: expect.any(Number), limit: expect.any(Number) },
      ],
      ['notify_agent', { channel_id: channel, event: '' }, 'BAD_MESSAGE', /^The event name must be a non-empty string/, undefined],
    ]
    for (const [name, args, code, message, data] of cases) {
      const r = await call(name, args)
      expect(r.isError, name).toBe(true)
      expect(r.structuredContent, name).toEqual({ error: { code, message: expect.stringMatching(message), ...(data && { data }) } })
      expect(text(r), name).toBe(`${code}: ${(r.structuredContent!.error as { message: string }).message}`)
    }
    await call('close_channel', { channel_id: channel })
    const closed = await call('notify_ui', { channel_id: channel, event: 'e' })
    expect(closed.isError).toBe(true)
    expect(text(closed)).toMatch(/^CHANNEL_CLOSED: .*Open a new channel/)
    expect(closed.structuredContent).toMatchObject({ error: { code: 'CHANNEL_CLOSED', message: expect.stringMatching(/Open a new channel/) } })
    // Arguments of the wrong type are refused by the schema, also as a tool error.
    const wrong = await call('poll_agent_messages', { channel_id: 42 })
    expect(wrong.isError).toBe(true)
    const tooLong = await call('poll_agent_messages', { channel_id: 'ok', wait_seconds: 10_000 })
    expect(tooLong.isError).toBe(true)
    // Still serving.
    const fresh = (await call('open_channel', {})).structuredContent!.channel_id as string
    expect((await call('notify_ui', { channel_id: fresh, event: 'ok' })).isError).toBeFalsy()
  })
})
