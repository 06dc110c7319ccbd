import { renderComponent } from 'duetkit'
import { describe, expect, it } from 'vitest'
import type { ServerView } from '../../../src/dev/page/api.js'
import { ServerList } from '../../../src/dev/page/ServerList.js'

const tool = (name: string, ui?: Record<string, unknown>) => ({ name, inputSchema: { type: 'object' as const }, ...(ui && { _meta: { ui } }) })
const servers: ServerView[] = [
  {
    id: 's1',
    label: 'http://127.0.0.1:1/mcp',
    status: 'connected',
    serverInfo: { name: 'forecast', version: '1.0.0' },
    tools: [tool('get_forecast', { resourceUri: 'ui://forecast' }), tool('duet_view_state', { visibility: ['app'] })],
    tokenSet: false,
  },
  { id: 's2', label: 'node s.js --stdio', status: 'error', error: 'spawn ENOENT', tools: [] },
]

describe('ServerList', () => {
  const render = async () => {
    const t = renderComponent(ServerList)
    await t.simulateAction('SERVERS', servers)
    return t
  }

  it('shows each server with its status, app tools badged, app-only tools apart, and a token field for HTTP servers only', async () => {
    const html = (await render()).html()
    expect(html).toContain('forecast 1.0.0')
    expect(html).toContain('error: spawn ENOENT')
    expect(html).toMatch(/data-testid="tool-get_forecast"[^>]*>get_forecast<span class="badge">app<\/span>/)
    expect(html.indexOf('App-only (hidden from the model)')).toBeLessThan(html.indexOf('tool-duet_view_state'))
    expect(html).toContain('data-testid="token-input-s1"')
    expect(html).not.toContain('token-input-s2')
  })

  it('asks the page to select a clicked tool, and marks the selected one', async () => {
    const t = await render()
    await t.simulateEvent('[data-testid=tool-get_forecast]', 'click')
    expect(t.requests('PAGE')).toEqual([{ pick: { server: 's1', tool: 'get_forecast' } }])
    await t.simulateAction('SELECTED', { server: 's1', tool: 'get_forecast' })
    expect(t.html()).toMatch(/<button class="tool selected"[^>]*data-testid="tool-get_forecast"/)
  })

  it('keeps a typed token across server updates, sends it on Set token, and shows why it was refused', async () => {
    const t = await render()
    await t.simulateEvent('.token-input', 'input', { value: ' two words ' })
    await t.simulateAction(
      'SERVERS',
      servers.map((s) => ({ ...s })),
    )
    expect(t.state.tokens.s1.draft).toBe(' two words ')
    await t.simulateEvent('.token-set', 'click')
    expect(t.requests('PAGE').at(-1)).toMatchObject({ token: { server: 's1', token: 'two words' } })
    await t.fail('PAGE', 's1: token must be one bearer token (printable characters, no spaces)', 'TOKEN_REFUSED')
    expect(t.html()).toContain('token must be one bearer token (printable characters, no spaces)')
    await t.simulateEvent('.token-input', 'keydown', { key: 'Enter' })
    await t.respond('PAGE', { server: 's1' }, 'TOKEN_SENT')
    expect(t.state.tokens.s1).toEqual({ draft: '' })
  })
})
