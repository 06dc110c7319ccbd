import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, FrameLocator, Page } from 'playwright-core'
import { openDevPage } from './dev-page.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_CSP } from '../../src/dev/csp.js'
import { startDevServer, type DevServer } from '../../src/dev/dev-server.js'
import { launchBrowser } from '../../../../test/support/browser.js'
import { startFixtureServer, type FixtureServer } from './fixtures/app-server.mjs'
import { writeView } from './fixtures/build-view.js'

import { SHOTS_DIR as SHOTS } from '../../../../test/support/shots.js'
const WAIT = { timeout: 20_000 }

describe('duet dev in Chromium', { timeout: 90_000 }, () => {
  let dir: string
  let viewPath: string
  let fixture: FixtureServer
  let dev: DevServer
  let browser: Browser
  let page: Page
  const sandboxResponses: { url: string; csp: string | undefined }[] = []
  // The view lives two frames down: host page → sandbox proxy (second origin) → view.
  const view = (): FrameLocator => page.frameLocator('[data-testid=app-frame]').frameLocator('iframe')
  const panel = (id: string) => page.getByTestId(id)
  const waitText = (locator: ReturnType<Page['getByTestId']>, text: string) => locator.filter({ hasText: text }).first().waitFor(WAIT)

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'duet-dev-'))
    viewPath = join(dir, 'counter.html')
    await writeView(viewPath, 'v1')
    fixture = await startFixtureServer({ viewPath, channelId: 'ch-e2e' })
    dev = await startDevServer({ servers: [{ kind: 'http', url: fixture.url }], port: 0, pollMs: 300 })
    browser = await launchBrowser()
    page = await openDevPage(browser, dev.url, {
      beforeLoad: (tab) =>
        tab.on('response', (r) => {
          if (r.url().includes('/sandbox.html')) sandboxResponses.push({ url: r.url(), csp: r.headers()['content-security-policy'] })
        }),
    })
  })

  afterAll(async () => {
    await browser?.close()
    await dev?.close()
    await fixture?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('lists tools with app tools marked and app-only tools apart, and calls one into a sandboxed app', async () => {
    await waitText(panel('server-status-s1'), 'connected')
    expect(await page.getByTestId('tool-show_counter').locator('.badge').innerText()).toBe('app')
    expect(await page.getByTestId('tool-bump').locator('.badge.apponly').count()).toBe(1)
    expect(await page.getByTestId('tool-echo').locator('.badge').count()).toBe(0)

    await page.getByTestId('tool-show_counter').click()
    await page.getByTestId('field-label').fill('apples')
    await page.getByTestId('call-button').click()
    await view().locator('#label').filter({ hasText: 'apples' }).waitFor(WAIT)
    expect(await view().locator('#input').innerText()).toBe('{"label":"apples"}')

    // The proxy runs on the sandbox origin, not the host's, and the view got the spec's default CSP as a header.
    const proxy = page.frames().find((f) => f.url().startsWith(`${dev.sandboxOrigin}/sandbox.html`))
    expect(proxy).toBeDefined()
    expect(new URL(dev.sandboxOrigin).origin).not.toBe(new URL(dev.url).origin)
    expect(await page.getByTestId('app-frame').getAttribute('sandbox')).toBe('allow-scripts allow-same-origin allow-forms')
    expect(sandboxResponses.at(-1)?.csp?.startsWith(`${DEFAULT_CSP}; frame-ancestors `)).toBe(true)
    // Under that CSP the view cannot reach the network.
    const blocked = await view()
      .locator('body')
      .evaluate(() =>
        fetch('http://127.0.0.1:1/').then(
          () => 'fetched',
          () => 'blocked',
        ),
      )
    expect(blocked).toBe('blocked')

    await waitText(panel('tool-result'), 'Counter for apples')
    const trace = await panel('trace').innerText()
    for (const method of [
      'ui/notifications/sandbox-proxy-ready',
      'ui/initialize',
      'ui/notifications/tool-input',
      'ui/notifications/tool-result',
      '"tools/call"',
    ]) {
      expect(trace).toContain(method)
    }
  })

  it('shows model context and messages the app sends, and app-only tools reach the server', async () => {
    await view().locator('#plus').click()
    await view().locator('#count').filter({ hasText: '1' }).waitFor(WAIT)
    await waitText(panel('model-context'), 'count is 1')
    await view().locator('#plus').click()
    await waitText(panel('model-context'), 'count is 2')
    // Each update replaces the previous context rather than piling up.
    expect(await panel('model-context').innerText()).not.toContain('count is 1')

    await view().locator('#say').click()
    await waitText(panel('messages'), 'the count is 2')
  })

  it('filters the trace by text and direction', async () => {
    await page.getByTestId('trace-filter').fill('update-model-context')
    const shown = await page.locator('[data-testid=trace] .entry:not([hidden])').allInnerTexts()
    expect(shown.length).toBeGreaterThan(0)
    expect(shown.every((t) => t.includes('update-model-context'))).toBe(true)
    await page.getByTestId('trace-filter').fill('')
    await page.getByTestId('trace-dir').selectOption('server')
    const server = await page.locator('[data-testid=trace] .entry:not([hidden])').allInnerTexts()
    expect(server.every((t) => /(→|←) server/.test(t))).toBe(true)
    await page.getByTestId('trace-dir').selectOption('')
  })

  it('switches theme and the app follows, with the full set of style variables', async () => {
    await page.screenshot({ path: `${SHOTS}/dev-light.png` })
    const lightBg = await view()
      .locator('body')
      .evaluate((b) => getComputedStyle(b).backgroundColor)
    await page.getByTestId('theme-select').selectOption('dark')
    await view().locator('#theme').filter({ hasText: 'dark' }).waitFor(WAIT)
    const darkBg = await view()
      .locator('body')
      .evaluate((b) => getComputedStyle(b).backgroundColor)
    expect(darkBg).not.toBe(lightBg)
    const varCount = await view()
      .locator('html')
      .evaluate((el) => Array.from(el.style).filter((p) => p.startsWith('--')).length)
    expect(varCount).toBe(76)
    await page.screenshot({ path: `${SHOTS}/dev-dark.png` })
  })

  it('sends display mode, width and locale changes as host context', async () => {
    await page.getByTestId('display-select').selectOption('fullscreen')
    await page.getByTestId('trace-filter').fill('host-context-changed')
    await waitText(panel('trace'), '"displayMode": "fullscreen"')
    await page.getByTestId('display-select').selectOption('inline')
    await page.getByTestId('width-input').fill('420')
    await page.getByTestId('width-input').dispatchEvent('change')
    await waitText(panel('trace'), '"width": 420')
    await page.getByTestId('trace-filter').fill('')
    expect(await page.locator('#stage .frame-box').evaluate((el) => el.getBoundingClientRect().width)).toBe(420)
  })

  it('lets a person play the agent on the channel the tool result names', async () => {
    expect(await page.getByTestId('agent-channel').inputValue()).toBe('ch-e2e')
    // This fixture's poll_agent_messages has no `since`, so the panel reads only when asked to play the agent.
    await page.getByTestId('agent-consume').check()
    await view().locator('#ask').click()
    await waitText(panel('agent-inbox'), 'what next?')
    await page.getByTestId('agent-data').fill('{"text":"try the blue one"}')
    await page.getByTestId('agent-send').click()
    await waitText(panel('agent-status'), 'sent answer')
    await view().locator('#poll').click()
    await view().locator('#answers').filter({ hasText: 'try the blue one' }).waitFor(WAIT)
  })

  it('reloads the app when the view is rebuilt, replaying input and result', async () => {
    await writeView(viewPath, 'v2')
    await view().locator('#version').filter({ hasText: 'v2' }).waitFor(WAIT)
    await view().locator('#label').filter({ hasText: 'apples' }).waitFor(WAIT)
    await waitText(panel('logs'), 'the view changed on the server')
  })

  it('streams partial input when asked, and tells the app when the call is cancelled', async () => {
    await page.getByTestId('stream-input').check()
    await page.getByTestId('field-label').fill('slow')
    await page.getByTestId('call-button').click()
    await view().locator('#input').filter({ hasText: '"slow"' }).waitFor(WAIT)
    await page.getByTestId('cancel-button').click()
    await view().locator('#label').filter({ hasText: 'cancelled: cancelled by the user' }).waitFor(WAIT)
    await waitText(panel('tool-result'), 'cancelled')
    expect(await panel('trace').innerText()).toContain('ui/notifications/tool-input-partial')
    await page.getByTestId('stream-input').uncheck()
  })

  it('refuses app calls to tools the app may not use', async () => {
    const answer = await page.evaluate(async () => {
      const res = await fetch('/api/rpc', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ server: 's1', method: 'tools/call', caller: 'app', params: { name: 'model_only_peek', arguments: {} } }),
      })
      return res.json()
    })
    expect(answer.error.code).toBe(-32602)
    expect(answer.error.message).toContain('visibility')
  })

  it('re-renders under another host preset, so the app meets only what that host offers', async () => {
    await page.getByTestId('preset-select').selectOption('vscode')
    await waitText(panel('logs'), 'host preset changed')
    expect(await page.locator('[data-testid=display-select] option[value=fullscreen]').isDisabled()).toBe(true)
    await view().locator('#plus').click()
    await view().locator('#count').filter({ hasText: '1' }).waitFor(WAIT)
    // VS Code advertises no updateModelContext, so the bridge answers the view's request with Method not found.
    await page.getByTestId('trace-filter').fill('Method not found')
    await waitText(panel('trace'), '-32601')
    await page.getByTestId('trace-filter').fill('')
    await page.getByTestId('preset-select').selectOption('full')
  })

  it('shows a clear error when the server dies and recovers when it comes back', async () => {
    const port = fixture.port
    await fixture.close()
    await waitText(panel('server-banner'), 'unreachable')
    expect(await panel('server-status-s1').innerText()).toMatch(/^error: /)
    await page.screenshot({ path: `${SHOTS}/dev-server-down.png` })
    fixture = await startFixtureServer({ viewPath, channelId: 'ch-e2e', port })
    await waitText(panel('server-status-s1'), 'connected')
    expect(await panel('server-banner').innerText()).toBe('')
    // Calls work again after the reconnect.
    await page.getByTestId('tool-echo').click()
    await page.getByTestId('field-text').fill('back')
    await page.getByTestId('call-button').click()
    await waitText(panel('tool-result'), '"back"')
  })
})
