import { Client } from '@modelcontextprotocol/client'
import { InMemoryTransport } from '@modelcontextprotocol/server'
import { createAppServer, type AppServer } from '../../src/server/app-server.js'
import { registerChannelTools, type ChannelStore } from '../../src/channel/index.js'

/** A server with the channel tools on `store`, and an SDK client connected to it in memory. */
export async function connectChannelTools(store: ChannelStore, name: string): Promise<{ app: AppServer; client: Client }> {
  const app = createAppServer({ name, version: '1.0.0' })
  registerChannelTools(app, store)
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await app.mcp.connect(serverSide)
  const client = new Client({ name: 'test', version: '1' })
  await client.connect(clientSide)
  return { app, client }
}
