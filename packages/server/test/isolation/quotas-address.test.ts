// Without auth, the client address plays the user's part for quotas and evictions: two clients on two
// loopback addresses (127.0.0.1 and 127.0.0.2, both this machine) against one agent-apps server on SQLite.
import { request } from 'node:http'
import { Readable } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { createAgentAppsServer } from '../../src/apps/agent-apps-server.js'
import type { AppServer, Listening } from '../../src/server/app-server.js'
import { tempDir } from '../channel/temp-dir.js'

type Result = { isError?: boolean; content: Array<{ type: string; text?: string }>; structuredContent?: Record<string, any> }
type Caller = (name: string, args?: Record<string, unknown>) => Promise<Result>

/** A fetch whose connections leave from `localAddress`, so the server sees that client address. */
function fetchFrom(localAddress: string): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : input)
    const headers = new Headers(init?.headers)
    const body = init?.body === undefined || init.body === null ? undefined : String(init.body)
    return new Promise<Response>((resolve, reject) => {
      const req = request(url, { method: init?.method ?? 'GET', headers: Object.fromEntries(headers), localAddress }, (res) => {
        const out = new Headers()
        for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) out.set(name, Array.isArray(value) ? value.join(', ') : value)
        const stream = res.statusCode === 204 || res.statusCode === 202 ? null : (Readable.toWeb(res) as ReadableStream)
        resolve(new Response(stream, { status: res.statusCode, headers: out }))
      })
      init?.signal?.addEventListener('abort', () => req.destroy(new Error('aborted')))
      req.on('error', reject)
      req.end(body)
    })
  }) as typeof fetch
}

let data: ReturnType<typeof tempDir>
let app: AppServer
let listening: Listening
const clients: Client[] = []

async function from(address: string): Promise<Caller> {
  const client = new Client({ name: `test-${address}`, version: '1' })
  await client.connect(new StreamableHTTPClientTransport(new URL(listening.url!), { fetch: fetchFrom(address) }))
  clients.push(client)
  return (name, args = {}) => client.callTool({ name, arguments: args }) as Promise<Result>
}

beforeAll(async () => {
  data = tempDir('duet-quotas-address-')
  app = await createAgentAppsServer({ dataDir: data.dir, channelLimits: { maxChannelsPerSubject: 4 }, appLimits: { maxRendersPerSubject: 2 } })
  listening = await app.listen({ http: { port: 0 }, handleSignals: false })
})
afterAll(async () => {
  for (const client of clients) await client.close().catch(() => {})
  await app?.close()
  data?.remove()
})

describe('without auth, each client address has its own share', () => {
  it("one address's channels and renders hit its own quota and evict its own renders; the other address keeps working", async () => {
    const first = await from('127.0.0.1')
    const second = await from('127.0.0.2')
    const kept = (await second('display_ui_to_user', { html: '<p>second</p>' })).structuredContent!.channel_id as string
    const renders: string[] = []
    for (let i = 0; i < 3; i++) renders.push((await first('display_ui_to_user', { html: `<p>first ${i}</p>` })).structuredContent!.channel_id)
    expect((await second('get_render', { channel_id: kept })).structuredContent!.html).toBe('<p>second</p>')
    expect((await first('get_render', { channel_id: renders[0] })).isError).toBe(true)
    expect((await first('get_render', { channel_id: renders[2] })).structuredContent!.html).toBe('<p>first 2</p>')
    const opened = await first('open_channel')
    expect(opened.isError).toBeFalsy()
    const refused = await first('open_channel')
    expect(refused.structuredContent?.error).toMatchObject({ code: 'LIMIT_REACHED', data: { quota: 'maxChannelsPerSubject', limit: 4, used: 4 } })
    expect((await second('open_channel')).isError).toBeFalsy()
    expect((await second('channel_stats')).structuredContent).toMatchObject({ channels: 2, limits: { channels: 4 } })
    // The data is the shared space's: the second address reads the first one's render.
    expect((await second('get_render', { channel_id: renders[2] })).structuredContent!.html).toBe('<p>first 2</p>')
  })
})
