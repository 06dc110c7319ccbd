// Two `duet serve --http --redis-url … --auth-issuer …` replicas on one real redis-server, with tokens from a
// real OpenID provider (oidc-provider on loopback): two users kept apart whichever replica answers, and one
// user's data the same on both.
import { spawn, type ChildProcess } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { startIssuer, type TestIssuer } from '../auth/oidc-issuer.js'
import { startRedis } from '../channel/redis-server.js'
import { builtDuetCli } from '../../../../test/support/built.js'

// Both replicas serve one public resource (as behind a load balancer), so one token is good on either.
const RESOURCE = 'http://127.0.0.1/duet-replicas/mcp'

interface Replica {
  child: ChildProcess
  url: string
}

type Result = { isError?: boolean; content: Array<{ type: string; text?: string }>; structuredContent?: Record<string, any> }
type Caller = (name: string, args?: Record<string, unknown>) => Promise<Result>

let bin: string
let redis: Awaited<ReturnType<typeof startRedis>>
let issuer: TestIssuer
let replicas: Replica[] = []
const clients: Client[] = []

function startReplica(): Promise<Replica> {
  const args = ['serve', '--http', '--port', '0', '--redis-url', redis.url, '--auth-issuer', issuer.url, '--auth-resource', RESOURCE]
  const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'ignore', 'pipe'] })
  return new Promise((resolve, reject) => {
    let stderr = ''
    child.stderr!.on('data', (chunk) => {
      stderr += chunk
      const match = stderr.match(/listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/)
      if (match) resolve({ child, url: match[1]! })
    })
    child.once('exit', (code) => reject(new Error(`duet serve exited ${code}: ${stderr}`)))
  })
}

/** A client of `replica` with `subject`'s token (from the authorization-code flow with PKCE). */
async function as(subject: string, replica: Replica): Promise<Caller> {
  const token = await issuer.tokenFor(subject, { audience: RESOURCE })
  const client = new Client({ name: `${subject}-test`, version: '1' }, { versionNegotiation: { mode: 'auto' } })
  await client.connect(new StreamableHTTPClientTransport(new URL(replica.url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }))
  clients.push(client)
  return (name, args = {}) => client.callTool({ name, arguments: args }) as Promise<Result>
}

const codeOf = (result: Result) => (result.isError ? (result.structuredContent?.error?.code ?? result.content[0]?.text?.split(':')[0]) : 'ok')

beforeAll(async () => {
  bin = builtDuetCli()
  ;[redis, issuer] = await Promise.all([startRedis(), startIssuer()])
  replicas = await Promise.all([startReplica(), startReplica()])
}, 60_000)

afterAll(async () => {
  for (const client of clients) await client.close().catch(() => {})
  for (const r of replicas) if (r.child.exitCode === null && r.child.signalCode === null) r.child.kill('SIGKILL')
  await Promise.all([redis?.stop(), issuer?.close()])
})

describe('two subjects on two duet serve replicas on one Redis', () => {
  it('a request without a token is refused (auth is on)', async () => {
    const response = await fetch(replicas[0]!.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    })
    expect(response.status).toBe(401)
  })

  it("neither can poll, notify, load, overwrite, delete or tail the other's channels, apps, data or log, on either replica", async () => {
    const [a, b] = replicas as [Replica, Replica]
    const alice = await as('alice', a)
    const bobOnA = await as('bob', a)
    const bobOnB = await as('bob', b)

    const shown = await alice('display_ui_to_user', { html: '<p>alice only</p>', title: 'Private' })
    const id = shown.structuredContent!.channel_id as string
    expect(codeOf(await alice('notify_agent', { channel_id: id, event: 'secret', data: 'from alice' }))).toBe('ok')
    expect(codeOf(await alice('save_app', { name: 'notes', channel_id: id }))).toBe('ok')
    expect(codeOf(await alice('put_app_data', { app: 'reader', key: 'pages', value: ['one'] }))).toBe('ok')
    expect(codeOf(await alice('write_server_log', { level: 'error', message: 'alice: failed' }))).toBe('ok')

    for (const bob of [bobOnA, bobOnB]) {
      expect(codeOf(await bob('poll_agent_messages', { channel_id: id, after: '0' }))).toBe('UNKNOWN_CHANNEL')
      expect(codeOf(await bob('poll_ui_messages', { channel_id: id }))).toBe('UNKNOWN_CHANNEL')
      expect(codeOf(await bob('notify_ui', { channel_id: id, event: 'forged' }))).toBe('UNKNOWN_CHANNEL')
      expect(codeOf(await bob('notify_agent', { channel_id: id, event: 'forged' }))).toBe('UNKNOWN_CHANNEL')
      expect(codeOf(await bob('get_render', { channel_id: id }))).toBe('NOT_FOUND')
      expect(codeOf(await bob('load_app', { name: 'notes' }))).toBe('NOT_FOUND')
      expect((await bob('list_saved_apps')).structuredContent!.apps).toEqual([])
      expect((await bob('delete_saved_app', { name: 'notes' })).structuredContent!.deleted).toBe(false)
      expect(codeOf(await bob('get_app_data', { app: 'reader', key: 'pages' }))).toBe('NOT_FOUND')
      expect((await bob('tail_server_log', { n: 50 })).structuredContent!.entries).toEqual([])
    }
    // Bob's own app and data under the same names stay his.
    const own = (await bobOnB('display_ui_to_user', { html: '<p>bob</p>' })).structuredContent!.channel_id
    expect(codeOf(await bobOnB('save_app', { name: 'notes', channel_id: own, replace: true }))).toBe('ok')
    expect(codeOf(await bobOnA('put_app_data', { app: 'reader', key: 'pages', value: ['forged'] }))).toBe('ok')

    // Alice, on the other replica, finds everything of hers unchanged.
    const aliceOnB = await as('alice', b)
    const polled = await aliceOnB('poll_agent_messages', { channel_id: id, after: '0' })
    expect(polled.structuredContent!.messages.map((m: { data: unknown }) => m.data)).toEqual(['from alice'])
    expect((await aliceOnB('load_app', { name: 'notes' })).structuredContent!.html).toBe('<p>alice only</p>')
    expect((await aliceOnB('get_app_data', { app: 'reader', key: 'pages' })).structuredContent!.value).toEqual(['one'])
    expect((await aliceOnB('tail_server_log', { n: 50 })).structuredContent!.entries.map((e: { message: string }) => e.message)).toEqual(['alice: failed'])
    expect((await aliceOnB('get_render', { channel_id: id })).structuredContent!.html).toBe('<p>alice only</p>')
  })

  it('the duet wait command a subject is given wakes on its channel, through the same Redis', async () => {
    const alice = await as('alice', replicas[0]!)
    const shown = await alice('display_ui_to_user', { html: '<p>wait</p>' })
    const id = shown.structuredContent!.channel_id as string
    const key = shown.content[0]!.text!.match(/duet wait (\S+)/)![1]!
    expect(key.endsWith(`.${id}`)).toBe(true)
    await (await as('alice', replicas[1]!))('notify_agent', { channel_id: id, event: 'ready' })
    const waited = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
      const child = spawn(process.execPath, [bin, 'wait', key, '--timeout', '10'], {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, DUET_REDIS_URL: redis.url },
      })
      let stdout = ''
      child.stdout!.on('data', (chunk) => (stdout += chunk))
      child.on('exit', (code) => resolve({ code, stdout }))
    })
    expect(waited.code).toBe(0)
    expect(waited.stdout).toContain('1 message waiting')
  })
})
