import { renderComponent } from 'duetkit'
import { describe, expect, it } from 'vitest'
import type { ServerView } from '../../../src/dev/page/api.js'
import { Header } from '../../../src/dev/page/Header.js'
import { Layout } from '../../../src/dev/page/Layout.js'
import { ServerBanner } from '../../../src/dev/page/ServerBanner.js'
import { SideTabs } from '../../../src/dev/page/SideTabs.js'
import { Stage } from '../../../src/dev/page/Stage.js'

describe('Header (the host the page plays)', () => {
  it('labels every control, and offers only the display modes the chosen host has', async () => {
    const t = renderComponent(Header)
    const html = t.html()
    const labels = [...html.matchAll(/<label>(.*?)<\/label>/g)].map((m) => m[1])
    for (const id of ['preset-select', 'theme-select', 'display-select', 'width-input', 'locale-input', 'stream-input'])
      expect(labels.filter((l) => l.includes(`data-testid="${id}"`))).toHaveLength(1)
    expect(html.match(/<(select|input)/g)).toHaveLength(6)
    expect(html).not.toContain('disabled')
    await t.simulateEvent('.preset', 'change', { value: 'vscode' })
    expect(t.html()).toMatch(/<option value="fullscreen" disabled>full screen<\/option>/)
  })

  it('tells the page each change with the settings after it; a host without the current mode puts it back to inline', async () => {
    const t = renderComponent(Header)
    await t.simulateEvent('.display', 'change', { value: 'fullscreen' })
    await t.simulateEvent('.theme', 'change', { value: 'dark' })
    await t.simulateEvent('.width', 'change', { value: '420' })
    await t.simulateEvent('.stream', 'change', { checked: true })
    expect(t.requests('PAGE').map((r) => (r as { changed: string }).changed)).toEqual(['display', 'theme', 'width', 'stream'])
    expect(t.requests('PAGE').at(-1)).toMatchObject({ settings: { display: 'fullscreen', theme: 'dark', width: '420', stream: true } })
    await t.simulateEvent('.preset', 'change', { value: 'vscode' })
    expect(t.requests('PAGE').at(-1)).toMatchObject({ changed: 'preset', settings: { preset: 'vscode', display: 'inline' } })
    expect(t.state.display).toBe('inline')
  })

  it('shows a mode the view asked for without telling the page again', async () => {
    const t = renderComponent(Header)
    await t.simulateAction('SET_DISPLAY', 'pip')
    expect(t.state.display).toBe('pip')
    expect(t.html()).toMatch(/<option value="pip" selected>picture-in-picture<\/option>/)
    expect(t.requests('PAGE')).toEqual([])
  })
})

describe('SideTabs (the left column)', () => {
  const tabs = [
    { id: 'tools', label: 'Tools' },
    { id: 'resources', label: 'Resources' },
  ]

  it('shows one pane at a time, leaves each pane empty for its list, and tells the page which tab was shown', async () => {
    const t = renderComponent(SideTabs, { initialState: { tabs, shown: 'tools' } })
    expect(t.html()).toContain('<div role="tabpanel" data-testid="side-pane-tools" data-pane="tools"></div>')
    expect(t.html()).toContain('<div hidden role="tabpanel" data-testid="side-pane-resources" data-pane="resources"></div>')
    await t.simulateEvent('[data-testid=side-tab-resources]', 'click')
    expect(t.requests('PAGE')).toEqual([{ shown: 'resources' }])
    expect(t.html()).toMatch(/aria-selected="true" data-tab="resources"|data-tab="resources"[^>]*aria-selected="true"/)
    expect(t.html()).toContain('<div hidden role="tabpanel" data-testid="side-pane-tools" data-pane="tools"></div>')
  })
})

describe('Stage (where the app renders)', () => {
  it('shows Close app only while an app is shown', async () => {
    const t = renderComponent(Stage)
    expect(t.html()).not.toContain('close-app')
    // No app, no empty dashed frame above the tool's form either.
    expect(t.html()).toContain('border-style: none')
    await t.simulateAction('STAGE', { hasApp: true, tool: 'get_forecast' })
    await t.simulateEvent('.close-app', 'click')
    expect(t.requests('PAGE')).toEqual([{ close: true }])
    await t.simulateAction('STAGE', { hasApp: false })
    expect(t.html()).not.toContain('close-app')
    await t.simulateAction('STAGE', { hasApp: true })
    expect(t.html()).not.toContain('border-style: none')
  })

  it('draws the mode, the inline width, the host bar with its title and Exit, and a render error above the app', async () => {
    const t = renderComponent(Stage)
    await t.simulateAction('STAGE', { display: 'inline', width: 420, border: false, hasApp: true })
    expect(t.html()).toContain('<div class="frame-box" style="width: 420px; border-style: none"></div>')
    await t.simulateAction('STAGE', { display: 'fullscreen', tool: 'show_counter', error: 'Could not render ui://x: boom' })
    const html = t.html()
    expect(html).toMatch(/id="stage" class="fullscreen"|class="fullscreen" id="stage"/)
    expect(html).toContain('show_counter — full screen')
    expect(html.indexOf('Could not render ui://x: boom')).toBeLessThan(html.indexOf('frame-box'))
    await t.simulateEvent('.exit-fullscreen', 'click')
    expect(t.requests('PAGE')).toEqual([{ exitFullscreen: true }])
  })
})

describe('ServerBanner and Layout', () => {
  it('names each server that is down, and says duet dev keeps trying', async () => {
    const t = renderComponent(ServerBanner)
    const servers = [
      { id: 's1', label: 'http://127.0.0.1:1/mcp', status: 'error', error: 'ECONNREFUSED', tools: [] },
      { id: 's2', label: 'ok', status: 'connected', tools: [] },
    ] as unknown as ServerView[]
    await t.simulateAction('SERVERS', servers)
    expect(t.html()).toBe(
      '<div data-testid="server-banner"><div class="error-banner">Server http://127.0.0.1:1/mcp is unreachable: ECONNREFUSED. duet dev keeps retrying.</div></div>',
    )
  })

  it('puts the stage above the tool area in the middle column, and leaves every mount point empty', () => {
    const html = renderComponent(Layout).html()
    const mounts = [...html.matchAll(/data-mount="([^"]+)"/g)].map((m) => m[1])
    expect(mounts).toEqual([
      'header',
      'side',
      'chat',
      'banner',
      'stage',
      'tool-area',
      'tool-input',
      'tool-result',
      'model-context',
      'messages',
      'agent',
      'logs',
      'trace',
    ])
    expect(html).not.toMatch(/data-mount="[^"]+"[^>]*>[^<]/)
  })
})
