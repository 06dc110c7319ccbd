import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import type { Browser, Page } from 'playwright-core'
import { openDevPage } from './dev-page.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDevServer, type DevServer } from '../../src/dev/dev-server.js'
import { MAX_DIAGNOSTICS, VIEW_DIAGNOSTIC } from '../../src/dev/view-diagnostics.js'
import { launchBrowser } from '../../../../test/support/browser.js'
import { duetkitSources } from '../../../../test/support/duetkit-aliases.js'
import { SHOTS_DIR } from '../../../../test/support/shots.js'
import { startFixtureServer, type FixtureServer } from './fixtures/app-server.mjs'

// A view's errors happen two frames down, in a sandbox the page cannot script: these tests check
// they reach the dev page's Logs panel anyway, through the proxy.
const WAIT = { timeout: 20_000 }

// Just enough of the protocol for a hand-written view: initialize, say initialized, answer teardown.
const HANDSHAKE = `<script>
addEventListener('message', (e) => {
  if (e.source !== parent) return;
  const m = e.data;
  if (m && m.id === 1 && m.result) parent.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/initialized', params: {} }, '*');
  if (m && m.method === 'ui/resource-teardown') parent.postMessage({ jsonrpc: '2.0', id: m.id, result: {} }, '*');
});
parent.postMessage({ jsonrpc: '2.0', id: 1, method: 'ui/initialize', params: { protocolVersion: '2026-01-26', appInfo: { name: 'raw', version: '1.0.0' }, appCapabilities: {} } }, '*');
</script>`

const rawView = (body: string, handshake = true) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>raw</title></head><body><p id="here">raw view</p>${handshake ? HANDSHAKE : ''}<script>${body}</script></body></html>`

/** The duetkit fixture view (a reducer that throws on "boom"), bundled from duetkit's sources. */
async function duetkitView(): Promise<string> {
  const out = await build({
    entryPoints: [fileURLToPath(new URL('./fixtures/throwing-reducer-view.jsx', import.meta.url))],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    jsx: 'automatic',
    jsxImportSource: 'duetkit',
    alias: duetkitSources,
    logLevel: 'silent',
  })
  const js = out.outputFiles[0].text.replace(/<\/script/gi, '<\\/script')
  return `<!doctype html><html><head><meta charset="utf-8"><title>duetkit</title></head><body><div id="root"></div><script type="module">${js}</script></body></html>`
}

describe('view errors in the duet dev Logs panel', { timeout: 120_000 }, () => {
  let dir: string
  let viewPath: string
  let fixture: FixtureServer
  let dev: DevServer
  let browser: Browser
  let page: Page

  const logs = () => page.getByTestId('logs')
  const logEntry = (text: string) => logs().locator('.entry').filter({ hasText: text }).first()
  const show = async (html: string, label = 'x') => {
    writeFileSync(viewPath, html)
    await page.getByTestId('tool-show_counter').click()
    await page.getByTestId('field-label').fill(label)
    await page.getByTestId('call-button').click()
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'duet-view-errors-'))
    viewPath = join(dir, 'view.html')
    writeFileSync(viewPath, rawView(''))
    fixture = await startFixtureServer({ viewPath, csp: { connectDomains: ['https://allowed.example.com'] } })
    // No resource watch during these tests: each one rewrites the view file, and a watch tick between the
    // write and the call would reload the app on show too, running the view twice (two floods, say).
    dev = await startDevServer({ servers: [{ kind: 'http', url: fixture.url }], port: 0, pollMs: 600_000 })
    browser = await launchBrowser()
    page = await openDevPage(browser, dev.url)
  })

  afterAll(async () => {
    await browser?.close()
    await dev?.close()
    await fixture?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it("shows a duetkit reducer's throw, which duetkit logs as a [duet] console error", async () => {
    await show(await duetkitView(), 'boom')
    const entry = logEntry('the reducer cannot count boom')
    await entry.waitFor(WAIT)
    expect(await entry.innerText()).toContain('[duet] USER_CODE_THREW')
    expect(await entry.locator('.dir').innerText()).toBe('view: console (error)')
  })

  it('shows a fetch the CSP blocked, naming the address and the directive', async () => {
    await show(rawView("fetch('https://api.example.com/forecast?city=Oslo').catch(() => {})"))
    const entry = logEntry('CSP blocked https://api.example.com/forecast')
    await entry.waitFor(WAIT)
    expect(await entry.innerText()).toContain('(connect-src)')
    expect(await entry.locator('.dir').innerText()).toBe('view: CSP violation (error)')
  })

  it('shows an unhandled rejection with its reason', async () => {
    await show(rawView("Promise.reject(new Error('nobody caught this promise'))"))
    const entry = logEntry('nobody caught this promise')
    await entry.waitFor(WAIT)
    expect(await entry.locator('.dir').innerText()).toBe('view: unhandled rejection (error)')
  })

  it('keeps a view that floods errors to a bounded number of entries', async () => {
    await show(rawView("for (let i = 0; i < 1000; i++) console.error('flood ' + i)"))
    await logEntry(`more than ${MAX_DIAGNOSTICS} errors from this view`).waitFor(WAIT)
    const floods = await logs().locator('.entry').filter({ hasText: 'flood ' }).count()
    expect(floods).toBe(MAX_DIAGNOSTICS)
    // The page is still in charge: the next call renders normally.
    await show(rawView("console.warn('calm again')"))
    await logEntry('calm again').waitFor(WAIT)
  })

  it('ignores a diagnostic posted by any window but its own sandbox frame', async () => {
    await show(rawView("console.error('the real one')"))
    await logEntry('the real one').waitFor(WAIT)
    await page.evaluate((type) => {
      const forged = { type, level: 'error', kind: 'console', text: 'forged by a sibling' }
      window.postMessage(forged, '*')
      // The sibling says when it has posted; its messages reach the page in the order it sent them.
      addEventListener('message', (e) => {
        if (e.data === 'forged-sent') (window as unknown as { forgedSent: boolean }).forgedSent = true
      })
      const sibling = document.createElement('iframe')
      sibling.srcdoc = `<script>parent.postMessage(${JSON.stringify(forged)}, '*'); parent.postMessage('forged-sent', '*')</script>`
      document.body.append(sibling)
    }, VIEW_DIAGNOSTIC)
    await page.waitForFunction(() => (window as unknown as { forgedSent?: boolean }).forgedSent === true, undefined, WAIT)
    // A real diagnostic sent after the forged ones: once it shows, an accepted forgery would have shown first.
    await show(rawView("console.error('the next real one')"))
    await logEntry('the next real one').waitFor(WAIT)
    expect(await logs().innerText()).not.toContain('forged by a sibling')
  })

  it('shows a throw at startup, and the did-not-initialize banner names it', { timeout: 60_000 }, async () => {
    await show(
      rawView(
        "console.error('loading the config'); fetch('https://api.example.com/x').catch(() => {}); Promise.reject(new Error('config promise failed')); throw new Error('startup exploded: no config')",
        false,
      ),
    )
    const entry = logEntry('startup exploded: no config')
    await entry.waitFor(WAIT)
    expect(await entry.locator('.dir').innerText()).toBe('view: uncaught exception (error)')
    await logEntry('config promise failed').waitFor(WAIT)
    await logs().scrollIntoViewIfNeeded()
    await logs().screenshot({ path: `${SHOTS_DIR}/dev-view-errors.png` })
    // No initialized after 15 s: the banner says why, with the view's last error instead of "see the logs".
    const banner = page.getByTestId('stage-error')
    await banner.filter({ hasText: 'did not send ui/notifications/initialized' }).waitFor({ timeout: 25_000 })
    const text = await banner.innerText()
    expect(text).toMatch(/the view's last error: .*(startup exploded: no config|config promise failed)/)
    expect(text).not.toContain('see the logs')
    await page.screenshot({ path: `${SHOTS_DIR}/dev-view-errors-page.png` })
  })
})
