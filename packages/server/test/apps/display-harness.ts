import { Client } from '@modelcontextprotocol/client'
import { InMemoryTransport } from '@modelcontextprotocol/server'
import { createAppServer, type AppServer } from '@duetkit/server'
import { openChannelStore, type ChannelStore } from '@duetkit/server/channels'
import { registerChannelTools } from '../../src/channel/index.js'
import { openAppStore, registerAgentAppTools, type AppStore } from '../../src/apps/index.js'
import { registerDisplayTools } from '../../src/apps/display-tools.js'
import type { CompileLimits } from '../../src/apps/compile-component.js'
import { tempDataDir } from './harness.js'

export interface DisplayServer {
  dir: string
  app: AppServer
  channels: ChannelStore
  store: AppStore
  client: Client
  call(name: string, args?: Record<string, unknown>): Promise<any>
  close(): Promise<void>
}

/**
 * The agent-apps assembly with the display tools over a real SQLite data dir, and an SDK client on
 * it (in memory): what `duet serve` runs, without a process.
 */
export async function startDisplayServer(options: { compileLimits?: Partial<CompileLimits> } = {}): Promise<DisplayServer> {
  const tmp = tempDataDir()
  const channels = await openChannelStore({ backend: 'sqlite', dataDir: tmp.dir })
  const store = await openAppStore({ dataDir: tmp.dir })
  const app = createAppServer({ name: 'duet-display-test', version: '0.0.0' })
  registerChannelTools(app, channels)
  const display = registerDisplayTools(app, { channels, store, dataDir: tmp.dir, ...options })
  registerAgentAppTools(app, { store, onLoad: display.onLoad, loadAppMeta: display.viewMeta })
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await app.mcp.connect(serverSide)
  const client = new Client({ name: 'agent', version: '1' })
  await client.connect(clientSide)
  return {
    dir: tmp.dir,
    app,
    channels,
    store,
    client,
    call: (name, args = {}) => client.callTool({ name, arguments: args }),
    async close() {
      await client.close()
      await app.close()
      await store.close()
      await channels.dispose()
      tmp.remove()
    },
  }
}
