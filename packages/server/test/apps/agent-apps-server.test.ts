import { afterEach, expect, it } from 'vitest'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/client'
import { InMemoryTransport } from '@modelcontextprotocol/server'
import { createAgentAppsServer } from '../../src/apps/agent-apps-server.js'
import { tempDataDir } from './harness.js'

let cleanup: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const fn of cleanup.reverse()) await fn()
  cleanup = []
})

it("duet serve's assembly carries the agent-apps tools and recipe prompts next to the channel tools", async () => {
  const tmp = tempDataDir()
  cleanup.push(tmp.remove)
  const app = await createAgentAppsServer({ dataDir: tmp.dir })
  cleanup.push(() => app.close())
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await app.mcp.connect(serverSide)
  const client = new Client({ name: 'test', version: '1' })
  await client.connect(clientSide)
  cleanup.push(() => client.close())

  const names = (await client.listTools()).tools.map((t) => t.name)
  expect(names).toEqual(
    expect.arrayContaining([
      'open_channel',
      'notify_ui',
      'save_app',
      'load_app',
      'put_app_data',
      'get_app_data',
      'write_server_log',
      'tail_server_log',
      'list_recipes',
      'get_recipe',
    ]),
  )
  expect((await client.listPrompts()).prompts.map((p) => p.name)).toContain('getting-started')
  expect(client.getInstructions()).toMatch(/get_recipe/)
  expect(existsSync(join(tmp.dir, 'apps.db'))).toBe(true)
})
