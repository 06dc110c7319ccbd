import { afterEach, describe, expect, it } from 'vitest'
import * as z from 'zod'
import { Client } from '@modelcontextprotocol/client'
import { InMemoryTransport } from '@modelcontextprotocol/server'
import { createAppServer, type AppServer, type AppServerOptions } from '@duetkit/server'

let app: AppServer | undefined
let client: Client | undefined
afterEach(async () => {
  await client?.close()
  await app?.close()
  client = app = undefined
})

async function connect(options: Partial<AppServerOptions> = {}) {
  app = createAppServer({ name: 'vs', version: '1', ...options })
    .appTool('show', { description: 'Show', inputSchema: { n: z.number() }, view: { html: '<p>view</p>' } }, async ({ n }) => ({
      content: [{ type: 'text', text: `n=${n}` }],
      _meta: { mine: true },
    }))
    .tool('plain', { description: 'Plain' }, async () => ({ content: [{ type: 'text', text: 'plain' }] }))
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await app.mcp.connect(serverSide)
  client = new Client({ name: 't', version: '1' })
  await client.connect(clientSide)
  return client
}

const call = (c: Client, args: Record<string, unknown>) => c.callTool({ name: 'duet_view_state', arguments: args })
const text = (r: { content?: unknown }) => ((r.content as Array<{ text?: string }>)[0]?.text ?? '') as string

describe('viewUUID in app tool results', () => {
  it('adds a fresh _meta.viewUUID to every app tool result, keeping the handler’s own _meta; plain tools get none', async () => {
    const c = await connect()
    const a = await c.callTool({ name: 'show', arguments: { n: 1 } })
    const b = await c.callTool({ name: 'show', arguments: { n: 1 } })
    expect(a._meta).toMatchObject({ mine: true, viewUUID: expect.stringMatching(/^[0-9a-f-]{36}$/) })
    expect(b._meta?.viewUUID).not.toBe(a._meta?.viewUUID)
    expect((await c.callTool({ name: 'plain', arguments: {} }))._meta?.viewUUID).toBeUndefined()
  })
})

describe('duet_view_state', () => {
  it('is registered with the first app tool, app-only', async () => {
    const c = await connect()
    const tool = (await c.listTools()).tools.find((t) => t.name === 'duet_view_state')
    expect(tool?._meta).toMatchObject({ ui: { visibility: ['app'] } })
  })

  it('keeps a state per viewUUID: get before put is null, get after put returns it', async () => {
    const c = await connect()
    expect((await call(c, { op: 'get', viewUUID: 'view-1234' })).structuredContent).toEqual({ state: null })
    await call(c, { op: 'put', viewUUID: 'view-1234', state: { selected: 'Tue' } })
    expect((await call(c, { op: 'get', viewUUID: 'view-1234' })).structuredContent).toEqual({ state: { selected: 'Tue' } })
    expect((await call(c, { op: 'get', viewUUID: 'view-5678' })).structuredContent).toEqual({ state: null })
  })

  it('refuses a state over maxBytes with TOO_LARGE and keeps the previous one', async () => {
    const c = await connect({ viewState: { maxBytes: 64 } })
    await call(c, { op: 'put', viewUUID: 'view-1234', state: { selected: 'Tue' } })
    const big = await call(c, { op: 'put', viewUUID: 'view-1234', state: { blob: 'x'.repeat(100) } })
    expect(big.isError).toBe(true)
    expect(text(big)).toMatch(/^TOO_LARGE: duet_view_state: the state is \d+ bytes, over the 64-byte limit/)
    expect((await call(c, { op: 'get', viewUUID: 'view-1234' })).structuredContent).toEqual({ state: { selected: 'Tue' } })
  })

  it('refuses a viewUUID that is not 8-128 letters, digits, _ or -, and a put without state', async () => {
    const c = await connect()
    for (const viewUUID of ['../../etc', 'short', 'a'.repeat(129), 'sp ace-1234']) {
      const r = await call(c, { op: 'get', viewUUID })
      expect(r.isError, viewUUID).toBe(true)
      expect(text(r)).toMatch(/viewUUID/)
    }
    const r = await call(c, { op: 'put', viewUUID: 'view-1234' })
    expect(text(r)).toMatch(/^INVALID_ARGUMENT: duet_view_state: 'put' needs a state/)
  })

  it('keeps states in a store given as an option, and forgets the oldest past maxEntries in memory', async () => {
    const kept = new Map<string, string>()
    let c = await connect({ viewState: { store: { get: (id) => kept.get(id), put: (id, json) => void kept.set(id, json) } } })
    await call(c, { op: 'put', viewUUID: 'view-1234', state: [1, 2] })
    expect(kept.get('view-1234')).toBe('[1,2]')
    await client!.close()
    await app!.close()

    c = await connect({ viewState: { maxEntries: 2 } })
    for (const id of ['view-0001', 'view-0002', 'view-0003']) await call(c, { op: 'put', viewUUID: id, state: id })
    expect((await call(c, { op: 'get', viewUUID: 'view-0001' })).structuredContent).toEqual({ state: null })
    expect((await call(c, { op: 'get', viewUUID: 'view-0003' })).structuredContent).toEqual({ state: 'view-0003' })
  })

  it('viewState: false leaves the tool out; bad options fail at createAppServer naming the option', async () => {
    const c = await connect({ viewState: false })
    expect((await c.listTools()).tools.map((t) => t.name)).toEqual(['show', 'plain'])
    expect(() => createAppServer({ name: 'x', version: '1', viewState: { maxBytes: -1 } })).toThrow(/option 'viewState.maxBytes' must be a positive integer/)
    expect(() => createAppServer({ name: 'x', version: '1', viewState: { store: {} as never } })).toThrow(/option 'viewState.store'/)
  })
})
