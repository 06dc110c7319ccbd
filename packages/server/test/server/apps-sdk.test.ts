// The Apps SDK dialect an app tool speaks beside MCP Apps: template, twin resource and `openai/*` keys.
import { afterEach, describe, expect, it } from 'vitest'
import * as z from 'zod'
import { Client } from '@modelcontextprotocol/client'
import { appsSdkAdapterScript } from 'duetkit/protocol'
import { InMemoryTransport } from '@modelcontextprotocol/server'
import { createAppServer, type AppServer } from '../../src/server/app-server.js'
import { createAgentAppsServer } from '../../src/apps/agent-apps-server.js'
import { tempDataDir } from '../apps/harness.js'

let cleanup: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const fn of cleanup.reverse()) await fn()
  cleanup = []
})

async function connect(app: AppServer): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await app.mcp.connect(serverSide)
  const client = new Client({ name: 'apps-sdk', version: '1' })
  await client.connect(clientSide)
  cleanup.push(() => client.close())
  return client
}

const VIEW = '<!doctype html><html><head><title>card</title></head><body><p>card</p></body></html>'

function cardServer(options: { appsSdk?: boolean } = {}) {
  return createAppServer({ name: 'cards', version: '1', ...options })
    .appTool(
      'show_card',
      {
        description: 'Shows a card',
        inputSchema: { q: z.string() },
        invoking: 'Drawing the card…',
        invoked: 'Card drawn',
        view: { html: VIEW, uri: 'ui://cards/card.html', csp: { connectDomains: ['https://api.example.com'] }, prefersBorder: true },
      },
      async () => ({ content: [{ type: 'text', text: 'a card' }] }),
    )
    .tool('model_only', { description: 'For the model', visibility: ['model'] }, async () => ({ content: [] }))
}

describe('the Apps SDK dialect of app tools', () => {
  it('names a text/html+skybridge twin of the view, with the view-side openai/* keys', async () => {
    const client = await connect(cardServer())
    const tools = (await client.listTools()).tools
    const card = tools.find((t) => t.name === 'show_card')!
    expect(card._meta).toMatchObject({
      ui: { resourceUri: 'ui://cards/card.html' },
      'openai/outputTemplate': 'ui://cards/openai/card.html',
      'openai/widgetAccessible': true,
      'openai/toolInvocation/invoking': 'Drawing the card…',
      'openai/toolInvocation/invoked': 'Card drawn',
    })
    // App-only tools stay private to the widget; model-only ones are not callable from it.
    expect(tools.find((t) => t.name === 'duet_view_state')!._meta).toMatchObject({ 'openai/visibility': 'private', 'openai/widgetAccessible': true })
    expect(tools.find((t) => t.name === 'model_only')!._meta).toMatchObject({ 'openai/widgetAccessible': false })
    expect(tools.find((t) => t.name === 'model_only')!._meta?.['openai/outputTemplate']).toBeUndefined()

    const twin = await client.readResource({ uri: 'ui://cards/openai/card.html' })
    const content = twin.contents[0] as { mimeType: string; text: string; _meta: Record<string, unknown> }
    expect(content.mimeType).toBe('text/html+skybridge')
    // The view's HTML with duetkit's adapter script first in its head, and nothing else changed.
    expect(content.text).toBe(VIEW.replace('<head>', `<head><script>${appsSdkAdapterScript()}</script>`))
    expect(content._meta).toEqual({
      'openai/widgetDescription': 'Shows a card',
      'openai/widgetCSP': { connect_domains: ['https://api.example.com'], resource_domains: [] },
      'openai/widgetPrefersBorder': true,
    })
    // The MCP Apps resource is unchanged.
    const original = await client.readResource({ uri: 'ui://cards/card.html' })
    expect((original.contents[0] as { text: string; mimeType: string }).text).toBe(VIEW)
    expect(original.contents[0]!.mimeType).toBe('text/html;profile=mcp-app')
  })

  it('appsSdk: false leaves the dialect out', async () => {
    const client = await connect(cardServer({ appsSdk: false }))
    const card = (await client.listTools()).tools.find((t) => t.name === 'show_card')!
    expect(Object.keys(card._meta ?? {}).filter((k) => k.startsWith('openai/'))).toEqual([])
    expect((await client.listResources()).resources.map((r) => r.uri)).toEqual(['ui://cards/card.html'])
  })

  it('refuses bad options, naming them', () => {
    expect(() => createAppServer({ name: 'x', version: '1', appsSdk: 'yes' as unknown as boolean })).toThrow(/appsSdk/)
    const app = createAppServer({ name: 'x', version: '1' })
    expect(() => app.appTool('t', { description: 'd', invoking: 'x'.repeat(65), view: { html: '<p></p>' } }, async () => ({ content: [] }))).toThrow(/invoking/)
  })

  it("duet serve's display tools both name the shell's twin", async () => {
    const tmp = tempDataDir()
    cleanup.push(tmp.remove)
    const app = await createAgentAppsServer({ dataDir: tmp.dir })
    cleanup.push(() => app.close())
    const client = await connect(app)
    const tools = (await client.listTools()).tools
    for (const name of ['display_ui_to_user', 'display_component'])
      expect(tools.find((t) => t.name === name)!._meta?.['openai/outputTemplate']).toBe('ui://duet/openai/display.html')
    const twin = await client.readResource({ uri: 'ui://duet/openai/display.html' })
    expect((twin.contents[0] as { text: string }).text).toContain(`<script>${appsSdkAdapterScript()}</script>`)
  })
})
