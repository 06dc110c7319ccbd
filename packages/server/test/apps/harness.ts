import { Client } from '@modelcontextprotocol/client'
import { InMemoryTransport } from '@modelcontextprotocol/server'
import { createAppServer, type AppServer } from '@duetkit/server'
import { registerAgentAppTools, type AgentAppToolsOptions, type AppStore } from '../../src/apps/index.js'
import { tempDir } from '../channel/temp-dir.js'

/** A fresh temporary data dir and a function that deletes it. */
export const tempDataDir = () => tempDir('duet-apps-')

export interface Connected {
  app: AppServer
  store: AppStore
  client: Client
  /** Calls a tool and returns the raw result (tool errors come back as `isError`, not thrown). */
  call(name: string, args?: Record<string, unknown>): Promise<{ isError?: boolean; content: Array<{ type: string; text?: string }>; structuredContent?: any }>
  close(): Promise<void>
}

/** A real app server with the agent-apps tools over a real SQLite file, and an SDK client on it. */
export async function connect(
  dataDir: string,
  options: Omit<AgentAppToolsOptions, 'dataDir'> = {},
  setup?: (app: AppServer, store: AppStore) => void,
): Promise<Connected> {
  const app = createAppServer({ name: 'duet-apps-test', version: '0.0.0' })
  const store = registerAgentAppTools(app, { dataDir, ...options })
  setup?.(app, store)
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await app.mcp.connect(serverSide)
  const client = new Client({ name: 'test', version: '1' })
  await client.connect(clientSide)
  return {
    app,
    store,
    client,
    call: (name, args = {}) => client.callTool({ name, arguments: args }) as never,
    async close() {
      await client.close()
      await app.close()
    },
  }
}

/** The text of a tool result's first block. */
export function textOf(result: { content: Array<{ type: string; text?: string }> }): string {
  return result.content[0]?.text ?? ''
}
