// duet_view_state with auth: a view's kept state belongs to the user whose token stored it. Another
// user who learns the viewUUID (it travels in tool results) gets its own empty slot, over real HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import type { AuthInfo } from '@modelcontextprotocol/server'
import { createAppServer, type Listening } from '@duetkit/server'

// A token here is its subject's name.
const verifier = async (token: string): Promise<AuthInfo> => ({
  token,
  clientId: 'test',
  scopes: [],
  expiresAt: Math.floor(Date.now() / 1000) + 3600,
  extra: { sub: token },
})

async function connect(url: string, token: string): Promise<Client> {
  const client = new Client({ name: 'test', version: '1' })
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }))
  return client
}

const stateOf = (r: { structuredContent?: unknown }) => (r.structuredContent as { state: unknown }).state

describe('duet_view_state per subject', () => {
  const app = createAppServer({ name: 'vs', version: '1', auth: { verifier } }).appTool(
    'show',
    { description: 'Show', view: { html: '<p>view</p>' } },
    async () => ({ content: [{ type: 'text', text: 'shown' }] }),
  )
  let listening: Listening
  let alice: Client
  let bob: Client
  beforeAll(async () => {
    listening = await app.listen({ http: { port: 0 }, handleSignals: false })
    alice = await connect(listening.url!, 'alice')
    bob = await connect(listening.url!, 'bob')
  })
  afterAll(async () => {
    await alice?.close()
    await bob?.close()
    await app.close()
  })

  it("keeps alice's state from bob even with the same viewUUID, and bob's put does not overwrite it", async () => {
    const viewUUID = 'view-shared-0001'
    await alice.callTool({ name: 'duet_view_state', arguments: { op: 'put', viewUUID, state: { day: 'Tue' } } })
    expect(stateOf(await bob.callTool({ name: 'duet_view_state', arguments: { op: 'get', viewUUID } }))).toBeNull()
    await bob.callTool({ name: 'duet_view_state', arguments: { op: 'put', viewUUID, state: { day: 'Fri' } } })
    expect(stateOf(await alice.callTool({ name: 'duet_view_state', arguments: { op: 'get', viewUUID } }))).toEqual({ day: 'Tue' })
    expect(stateOf(await bob.callTool({ name: 'duet_view_state', arguments: { op: 'get', viewUUID } }))).toEqual({ day: 'Fri' })
  })
})
