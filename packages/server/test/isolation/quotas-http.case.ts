// One `duet serve --http --auth-issuer …` with small per-subject quotas, on SQLite or on Redis, and two users
// with tokens from a real OpenID provider (oidc-provider on loopback): one fills every quota of hers, the other
// keeps working, and whatever the first one's flood refused or evicted is hers alone.
import type { ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { startIssuer, type TestIssuer } from '../auth/oidc-issuer.js'
import { bundle } from '../server/build-fixture.js'
import { startServerProcess } from '../server/server-process.js'

const RESOURCE = 'http://127.0.0.1/duet-quotas/mcp'
const QUOTAS = {
  '--max-channels-per-subject': 12,
  '--max-store-bytes-per-subject': 6000,
  '--max-renders': 30,
  '--max-renders-per-subject': 3,
  '--max-saved-apps-per-subject': 2,
  '--max-data-apps-per-subject': 2,
}

type Result = { isError?: boolean; content: Array<{ type: string; text?: string }>; structuredContent?: Record<string, any> }
type Caller = (name: string, args?: Record<string, unknown>) => Promise<Result>

const codeOf = (result: Result) => (result.isError ? (result.structuredContent?.error?.code ?? result.content[0]?.text?.split(':')[0]) : 'ok')
const errorData = (result: Result) => result.structuredContent?.error?.data as Record<string, unknown> | undefined

/** The store a server under test keeps its data in: `args` for `duet serve`, started and stopped around the suite. */
export interface QuotaBackend {
  name: string
  start(): Promise<string[]>
  stop(): Promise<void>
}

export function describeQuotasOverHttp(backend: QuotaBackend): void {
  let bin: string
  let issuer: TestIssuer
  let server: ChildProcess | undefined
  let url = ''
  const clients: Client[] = []

  async function as(subject: string): Promise<Caller> {
    const token = await issuer.tokenFor(subject, { audience: RESOURCE })
    const client = new Client({ name: `${subject}-test`, version: '1' })
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }))
    clients.push(client)
    return (name, args = {}) => client.callTool({ name, arguments: args }) as Promise<Result>
  }

  beforeAll(async () => {
    bin = await bundle(fileURLToPath(new URL('../../src/cli/bin.ts', import.meta.url)), `duet-bin-quotas-${backend.name}`)
    const [storeArgs, running] = await Promise.all([backend.start(), startIssuer()])
    issuer = running
    const flags = Object.entries(QUOTAS).flatMap(([flag, value]) => [flag, String(value)])
    const args = ['serve', '--http', '--port', '0', ...storeArgs, '--auth-issuer', issuer.url, '--auth-resource', RESOURCE, ...flags]
    const started = await startServerProcess([bin, ...args])
    server = started.child
    url = started.url
  }, 60_000)

  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => {})
    if (server && server.exitCode === null && server.signalCode === null) server.kill('SIGKILL')
    await Promise.all([issuer?.close(), backend.stop()])
  })

  describe(`per-subject quotas over HTTP, two users from a real issuer (${backend.name})`, () => {
    it("one user's renders evict only her own: the other's get_render and save_app keep working", async () => {
      const alice = await as('alice-renders')
      const bob = await as('bob-renders')
      const shown = await bob('display_ui_to_user', { html: '<p>bob keeps this</p>' })
      const bobs = shown.structuredContent!.channel_id as string
      const hers: string[] = []
      for (let i = 0; i < 10; i++) {
        const render = await alice('display_ui_to_user', { html: `<p>alice ${i}</p>` })
        expect(codeOf(render)).toBe('ok')
        hers.push(render.structuredContent!.channel_id as string)
        // Channels are hers to close; her renders stay recorded until her own newer ones push them out.
        await alice('close_channel', { channel_id: render.structuredContent!.channel_id })
      }
      expect((await bob('get_render', { channel_id: bobs })).structuredContent!.html).toBe('<p>bob keeps this</p>')
      expect(codeOf(await bob('save_app', { name: 'kept', channel_id: bobs }))).toBe('ok')
      expect(codeOf(await alice('get_render', { channel_id: hers[0] }))).toBe('NOT_FOUND')
      expect((await alice('get_render', { channel_id: hers[9] })).structuredContent!.html).toBe('<p>alice 9</p>')
    })

    it('past her channel quota one user gets LIMIT_REACHED naming it; the other opens, displays and notifies', async () => {
      const alice = await as('alice-channels')
      const bob = await as('bob-channels')
      let refused: Result | undefined
      for (let i = 0; i < 20 && !refused; i++) {
        const opened = await alice('open_channel')
        if (opened.isError) refused = opened
      }
      expect(codeOf(refused!)).toBe('LIMIT_REACHED')
      expect(errorData(refused!)).toEqual({ quota: 'maxChannelsPerSubject', limit: 12, used: 12 })
      const open = await bob('open_channel')
      expect(codeOf(open)).toBe('ok')
      expect(codeOf(await bob('notify_ui', { channel_id: open.structuredContent!.channel_id, event: 'ping', data: 'hello' }))).toBe('ok')
      expect(codeOf(await bob('display_ui_to_user', { html: '<p>bob</p>' }))).toBe('ok')
      const stats = (await alice('channel_stats')).structuredContent!
      expect(stats).toMatchObject({ channels: 12, limits: { channels: 12, bytes: 6000 } })
    })

    it('past her byte quota one user gets LIMIT_REACHED and keeps what she stored; the other still sends; stats show only her own', async () => {
      const alice = await as('alice-bytes')
      const bob = await as('bob-bytes')
      const id = (await alice('open_channel')).structuredContent!.channel_id as string
      let refused: Result | undefined
      let sent = 0
      for (let i = 0; i < 20 && !refused; i++) {
        const answer = await alice('notify_ui', { channel_id: id, event: 'fill', data: 'x'.repeat(900) })
        if (answer.isError) refused = answer
        else sent++
      }
      expect(codeOf(refused!)).toBe('LIMIT_REACHED')
      expect(errorData(refused!)).toMatchObject({ quota: 'maxStoreBytesPerSubject', limit: 6000 })
      const bobs = (await bob('open_channel')).structuredContent!.channel_id as string
      expect(codeOf(await bob('notify_ui', { channel_id: bobs, event: 'tiny', data: 'hi' }))).toBe('ok')
      expect((await alice('poll_ui_messages', { channel_id: id, after: '0' })).structuredContent!.messages).toHaveLength(sent)
      const mine = (await bob('channel_stats')).structuredContent!
      expect(mine.channels).toBe(1)
      expect(mine.bytes).toBeLessThan(100)
    })

    it('saved apps and app-data namespaces are per user: past hers LIMIT_REACHED with quota, limit and use; the other saves and stores', async () => {
      const alice = await as('alice-saved')
      const bob = await as('bob-saved')
      const id = (await alice('display_ui_to_user', { html: '<p>a</p>' })).structuredContent!.channel_id as string
      for (const name of ['one', 'two']) expect(codeOf(await alice('save_app', { name, channel_id: id }))).toBe('ok')
      const full = await alice('save_app', { name: 'three', channel_id: id })
      expect(errorData(full)).toEqual({ quota: 'maxSavedAppsPerSubject', limit: 2, used: 2 })
      for (const app of ['x', 'y']) expect(codeOf(await alice('put_app_data', { app, key: 'k', value: 1 }))).toBe('ok')
      expect(errorData(await alice('put_app_data', { app: 'z', key: 'k', value: 1 }))).toEqual({ quota: 'maxDataAppsPerSubject', limit: 2, used: 2 })
      const bobs = (await bob('display_ui_to_user', { html: '<p>b</p>' })).structuredContent!.channel_id as string
      expect(codeOf(await bob('save_app', { name: 'one', channel_id: bobs }))).toBe('ok')
      expect(codeOf(await bob('put_app_data', { app: 'z', key: 'k', value: 'bob' }))).toBe('ok')
      expect((await alice('list_saved_apps')).structuredContent!.apps.map((a: { name: string }) => a.name).sort()).toEqual(['one', 'two'])
    })

    it("a view's data calls reach only its own render's app; listing, loading and deleting saved apps are the agent's", async () => {
      const alice = await as('alice-confined')
      const bob = await as('bob-confined')
      const reader = (await alice('display_ui_to_user', { html: '<p>reader</p>', app: 'reader' })).structuredContent!.channel_id as string
      const notes = (await alice('display_ui_to_user', { html: '<p>notes</p>', app: 'notes' })).structuredContent!.channel_id as string
      const loose = (await alice('display_ui_to_user', { html: '<p>no app</p>' })).structuredContent!.channel_id as string
      // The agent (no channel) owns every app of its space.
      expect(codeOf(await alice('put_app_data', { app: 'reader', key: 'pages', value: ['one'] }))).toBe('ok')
      expect(codeOf(await alice('put_app_data', { app: 'notes', key: 'secret-diary', value: 'private' }))).toBe('ok')
      // The reader's view reads its own data; the notes view cannot read, probe or overwrite it.
      expect((await alice('get_app_data', { app: 'reader', key: 'pages', channel_id: reader })).structuredContent!.value).toEqual(['one'])
      const probed = await alice('get_app_data', { app: 'notes', key: 'nothing-here', channel_id: reader })
      const missing = await alice('get_app_data', { app: 'reader', key: 'nothing-here', channel_id: reader })
      expect(codeOf(probed)).toBe('NOT_FOUND')
      expect(probed.content[0]!.text!.replace('notes/', 'reader/')).toBe(missing.content[0]!.text)
      expect(JSON.stringify(probed)).not.toContain('secret-diary')
      expect(codeOf(await alice('get_app_data', { app: 'notes', key: 'secret-diary', channel_id: reader }))).toBe('NOT_FOUND')
      expect(codeOf(await alice('put_app_data', { app: 'notes', key: 'secret-diary', value: 'forged', channel_id: reader }))).toBe('FORBIDDEN')
      expect((await alice('get_app_data', { app: 'notes', key: 'secret-diary', channel_id: notes })).structuredContent!.value).toBe('private')
      const unbound = await alice('get_app_data', { app: 'reader', key: 'pages', channel_id: loose })
      expect(codeOf(unbound)).toBe('NOT_FOUND')
      expect(unbound.content[0]!.text).toMatch(/belongs to no app/)
      // Another user naming her render reaches nothing.
      expect(codeOf(await bob('get_app_data', { app: 'reader', key: 'pages', channel_id: reader }))).toBe('NOT_FOUND')
      // The agent-only tools say so to hosts (which refuse a view's call of them).
      const client = clients.at(-1)!
      const { tools } = await client.listTools()
      for (const name of ['list_saved_apps', 'load_app', 'delete_saved_app']) {
        expect((tools.find((t) => t.name === name)?._meta as { ui?: { visibility?: string[] } })?.ui?.visibility, name).toEqual(['model'])
      }
    })

    it('an event name with a lone surrogate is BAD_MESSAGE over the wire; a whole emoji comes back exactly', async () => {
      const alice = await as('alice-events')
      const id = (await alice('open_channel')).structuredContent!.channel_id as string
      expect(codeOf(await alice('notify_agent', { channel_id: id, event: 'half-\uD83D', data: 1 }))).toBe('BAD_MESSAGE')
      expect(codeOf(await alice('notify_agent', { channel_id: id, event: 'smile-\u{1F600}', data: 2 }))).toBe('ok')
      const polled = await alice('poll_agent_messages', { channel_id: id, after: '0' })
      expect(polled.structuredContent!.messages.map((m: { event: string }) => m.event)).toEqual(['smile-\u{1F600}'])
    })
  })
}
