// Two users on one agent-apps server over real HTTP with bearer tokens (a test verifier: token "alice" is
// subject alice) and a real SQLite store: neither reaches the other's channels, apps, data, renders or log.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { OAuthError, OAuthErrorCode, type AuthInfo } from '@modelcontextprotocol/server'
import { createAgentAppsServer } from '../../src/apps/agent-apps-server.js'
import { openChannelStore } from '../../src/channel/index.js'
import type { AppServer, Listening } from '../../src/server/app-server.js'
import { tempDir } from '../channel/temp-dir.js'

async function verifier(token: string): Promise<AuthInfo> {
  if (!/^[a-z]+$/.test(token)) throw new OAuthError(OAuthErrorCode.InvalidToken, 'Unknown token')
  return { token, clientId: 'test', scopes: [], expiresAt: Math.floor(Date.now() / 1000) + 3600, extra: { sub: token } }
}

type Result = { isError?: boolean; content: Array<{ type: string; text?: string }>; structuredContent?: Record<string, any> }
type Caller = (name: string, args?: Record<string, unknown>) => Promise<Result>

let data: ReturnType<typeof tempDir>
let app: AppServer
let listening: Listening
const clients: Client[] = []

async function as(token: string): Promise<Caller> {
  const client = new Client({ name: `test-${token}`, version: '1' })
  await client.connect(new StreamableHTTPClientTransport(new URL(listening.url!), { requestInit: { headers: { authorization: `Bearer ${token}` } } }))
  clients.push(client)
  return (name, args = {}) => client.callTool({ name, arguments: args }) as Promise<Result>
}

/** The error code of a tool error (its text starts with the code), or 'ok'. */
const codeOf = (result: Result) => (result.isError ? (result.structuredContent?.error?.code ?? result.content[0]?.text?.split(':')[0]) : 'ok')

beforeAll(async () => {
  data = tempDir('duet-isolation-http-')
  app = await createAgentAppsServer({ dataDir: data.dir, auth: { verifier } })
  listening = await app.listen({ http: { port: 0 }, handleSignals: false })
})
afterAll(async () => {
  for (const client of clients) await client.close().catch(() => {})
  await app?.close()
  data?.remove()
})

describe('two subjects on one server (SQLite, over HTTP)', () => {
  it("neither can poll, notify, close or read the render of the other's channel, even knowing its id", async () => {
    const alice = await as('alice')
    const bob = await as('bob')
    const shown = await alice('display_ui_to_user', { html: '<p>alice only</p>', title: 'Private' })
    expect(codeOf(shown)).toBe('ok')
    const id = shown.structuredContent!.channel_id as string
    expect(codeOf(await alice('notify_agent', { channel_id: id, event: 'secret', data: 'from alice' }))).toBe('ok')
    expect(codeOf(await alice('notify_ui', { channel_id: id, event: 'to view' }))).toBe('ok')

    for (const [name, args] of [
      ['poll_agent_messages', { channel_id: id }],
      ['poll_agent_messages', { channel_id: id, after: '0' }],
      ['poll_ui_messages', { channel_id: id }],
      ['notify_ui', { channel_id: id, event: 'forged' }],
      ['notify_agent', { channel_id: id, event: 'forged' }],
    ] as const) {
      const answer = await bob(name, args)
      expect(codeOf(answer), `${name} by bob`).toBe('UNKNOWN_CHANNEL')
      expect(JSON.stringify(answer)).not.toContain('from alice')
    }
    expect(codeOf(await bob('get_render', { channel_id: id }))).toBe('NOT_FOUND')
    expect(codeOf(await bob('save_app', { name: 'stolen', channel_id: id }))).toBe('NOT_FOUND')
    await bob('close_channel', { channel_id: id })

    // Alice's channel is untouched: her message is still there, the view's too, and it is still open.
    const polled = await alice('poll_agent_messages', { channel_id: id, after: '0' })
    expect(polled.structuredContent!.messages.map((m: { data: unknown }) => m.data)).toEqual(['from alice'])
    expect((await alice('poll_ui_messages', { channel_id: id, after: '0' })).structuredContent!.messages).toHaveLength(1)
    expect((await alice('get_render', { channel_id: id })).structuredContent!.html).toBe('<p>alice only</p>')
  })

  it('an id both pick themselves is two channels', async () => {
    const alice = await as('alice')
    const bob = await as('bob')
    await alice('notify_ui', { channel_id: 'ch-picked', event: 'a' })
    await bob('notify_ui', { channel_id: 'ch-picked', event: 'b' })
    const forAlice = await alice('poll_ui_messages', { channel_id: 'ch-picked' })
    expect(forAlice.structuredContent!.messages.map((m: { event: string }) => m.event)).toEqual(['a'])
  })

  it("neither can load, list, overwrite or delete the other's saved app", async () => {
    const alice = await as('alice')
    const bob = await as('bob')
    const id = (await alice('display_ui_to_user', { html: '<p>notes of alice</p>' })).structuredContent!.channel_id
    expect(codeOf(await alice('save_app', { name: 'notes', channel_id: id, description: 'hers' }))).toBe('ok')
    expect(codeOf(await bob('load_app', { name: 'notes' }))).toBe('NOT_FOUND')
    expect((await bob('list_saved_apps')).structuredContent!.apps).toEqual([])
    expect((await bob('delete_saved_app', { name: 'notes' })).structuredContent!.deleted).toBe(false)
    const own = (await bob('display_ui_to_user', { html: '<p>bob</p>' })).structuredContent!.channel_id
    expect(codeOf(await bob('save_app', { name: 'notes', channel_id: own, replace: true }))).toBe('ok')
    // load_app shows alice's own app again, on a fresh channel of hers.
    const loaded = await alice('load_app', { name: 'notes' })
    expect(loaded.structuredContent!.html).toBe('<p>notes of alice</p>')
    expect(codeOf(await bob('get_render', { channel_id: loaded.structuredContent!.channel_id }))).toBe('NOT_FOUND')
  })

  it("neither can read or overwrite the other's app data", async () => {
    const alice = await as('alice')
    const bob = await as('bob')
    expect(codeOf(await alice('put_app_data', { app: 'reader', key: 'pages', value: ['one'] }))).toBe('ok')
    expect(codeOf(await bob('get_app_data', { app: 'reader', key: 'pages' }))).toBe('NOT_FOUND')
    expect(codeOf(await bob('put_app_data', { app: 'reader', key: 'pages', value: ['forged'] }))).toBe('ok')
    expect((await alice('get_app_data', { app: 'reader', key: 'pages' })).structuredContent!.value).toEqual(['one'])
  })

  it('each tails only its own server log', async () => {
    const alice = await as('alice')
    const bob = await as('bob')
    await alice('write_server_log', { level: 'error', message: 'alice: script failed' })
    await bob('write_server_log', { level: 'error', message: 'bob: script failed' })
    const messages = async (call: Caller) => (await call('tail_server_log', { n: 50 })).structuredContent!.entries.map((e: { message: string }) => e.message)
    expect(await messages(bob)).toEqual(['bob: script failed'])
    expect(await messages(alice)).toEqual(['alice: script failed'])
  })

  it('the same subject on a second connection sees its own channel; the duet wait command it is given names the store key', async () => {
    const alice = await as('alice')
    const again = await as('alice')
    const shown = await alice('display_ui_to_user', { html: '<p>x</p>' })
    const id = shown.structuredContent!.channel_id as string
    await again('notify_agent', { channel_id: id, event: 'from the view' })
    expect((await alice('poll_agent_messages', { channel_id: id, after: '0' })).structuredContent!.messages).toHaveLength(1)
    // `duet wait` reads the store itself: the key it is told is alice's scope of the id, which holds her mail.
    const key = shown.content[0]!.text!.match(/duet wait (\S+)/)![1]!
    expect(key).not.toBe(id)
    expect(key.endsWith(`.${id}`)).toBe(true)
    const store = await openChannelStore({ dataDir: data.dir })
    try {
      expect(await store.peek(key, 'app-to-agent')).toBe(1)
      expect(await store.peek(id, 'app-to-agent').catch((e: { code?: string }) => e.code)).toBe('UNKNOWN_CHANNEL')
    } finally {
      await store.dispose()
    }
  })
})
