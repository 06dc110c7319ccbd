import { describe, expect, it, vi } from 'vitest'
import { Client } from '@modelcontextprotocol/client'
import { InMemoryTransport } from '@modelcontextprotocol/server'
import { createAgentAppsServer } from '../../src/apps/agent-apps-server.js'
import { storeWithOneCorruptRow } from './corrupt-sqlite.js'
import { tempDir } from './temp-dir.js'

describe('set-aside rows in the server log', () => {
  it('a corrupt stored message shows in tail_server_log with its channel id, and its neighbours are delivered', async () => {
    const { dir, remove } = tempDir()
    try {
      const { id } = await storeWithOneCorruptRow(dir, 5, 2)

      const app = await createAgentAppsServer({ dataDir: dir })
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
      await app.mcp.connect(serverSide)
      const client = new Client({ name: 'test', version: '1' })
      await client.connect(clientSide)
      try {
        const polled = (await client.callTool({ name: 'poll_agent_messages', arguments: { channel_id: id, after: '0' } })) as {
          structuredContent: { messages: Array<{ data: { i: number } }> }
        }
        expect(polled.structuredContent.messages.map((m) => m.data.i)).toEqual([0, 1, 3, 4])
        let text = ''
        // The log write is fire-and-forget beside the poll's reply: read the log until it is there.
        await vi.waitFor(
          async () => {
            const tail = (await client.callTool({ name: 'tail_server_log', arguments: { n: 20 } })) as { content: Array<{ text?: string }> }
            text = tail.content.map((c) => c.text ?? '').join('\n')
            expect(text).toContain(id)
          },
          { timeout: 20_000, interval: 20 },
        )
        expect(text).toMatch(/1 unreadable stored message\(s\) set aside \(app-to-agent\)/)
        expect(text).toMatch(/warning/)
      } finally {
        await client.close()
        await app.close()
      }
    } finally {
      remove()
    }
  })
})
