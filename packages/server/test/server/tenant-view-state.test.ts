// duet_view_state's in-memory store with two (and more) real subjects of the test issuer, over real HTTP:
// a user who writes many states evicts only their own oldest, never another user's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { createAppServer, type AppServer } from '../../src/server/index.js'
import { startIssuer, type TestIssuer } from '../auth/oidc-issuer.js'

let issuer: TestIssuer
let app: AppServer
let url: string
const clients: Client[] = []

async function as(subject: string): Promise<(op: 'get' | 'put', viewUUID: string, state?: unknown) => Promise<unknown>> {
  const token = await issuer.tokenFor(subject, { audience: url })
  const client = new Client({ name: subject, version: '1' })
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }))
  clients.push(client)
  return async (op, viewUUID, state) => {
    const result = await client.callTool({ name: 'duet_view_state', arguments: { op, viewUUID, ...(state !== undefined && { state }) } })
    return (result.structuredContent as { state: unknown }).state
  }
}

beforeAll(async () => {
  issuer = await startIssuer()
  app = createAppServer({ name: 'vs', version: '1', auth: { issuer: issuer.url }, viewState: { maxEntries: 4, maxEntriesPerSubject: 2 } }).appTool(
    'show',
    { description: 'Show', view: { html: '<p>view</p>' } },
    async () => ({ content: [{ type: 'text', text: 'shown' }] }),
  )
  url = (await app.listen({ http: { port: 0 }, handleSignals: false })).url!
})
afterAll(async () => {
  for (const client of clients) await client.close().catch(() => {})
  await app?.close()
  await issuer?.close()
})

describe('view states bounded per subject', () => {
  it("one user's many writes evict only that user's own oldest states; past the total, the largest holder pays", async () => {
    const alice = await as('alice')
    const bob = await as('bob')
    await alice('put', 'alice-view-1', { page: 1 })
    for (let i = 0; i < 10; i++) await bob('put', `bob-view-${i}`, { n: i })
    expect(await alice('get', 'alice-view-1')).toEqual({ page: 1 })
    expect(await bob('get', 'bob-view-0')).toBeNull()
    expect(await bob('get', 'bob-view-9')).toEqual({ n: 9 })
    expect(await bob('get', 'bob-view-8')).toEqual({ n: 8 })
    // The store holds 4: Alice 1, Bob 2; Carol's two writes take the last slot, then one of Bob's.
    const carol = await as('carol')
    await carol('put', 'carol-view-1', { c: 1 })
    await carol('put', 'carol-view-2', { c: 2 })
    expect(await alice('get', 'alice-view-1')).toEqual({ page: 1 })
    expect(await carol('get', 'carol-view-1')).toEqual({ c: 1 })
    expect([await bob('get', 'bob-view-8'), await bob('get', 'bob-view-9')].filter((s) => s !== null)).toHaveLength(1)
  })

  it('refuses a maxEntriesPerSubject that is not a positive integer, naming it', () => {
    expect(() => createAppServer({ name: 'x', version: '1', viewState: { maxEntriesPerSubject: 0 } })).toThrow(/viewState\.maxEntriesPerSubject/)
  })
})
