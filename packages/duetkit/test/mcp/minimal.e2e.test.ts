import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Frame } from 'playwright-core'
import { launchBrowser } from '../../../../test/support/browser.js'
import { openHostPage, type HostPage } from '../../../../test/support/host/index.js'
import { SHOTS_DIR } from '../../../../test/support/shots.js'
import { buildView } from '../size/view-size.js'

// The minimal view leaves out DOM events, sinks, host theming, SVG and hooks (duet({ omit }) in its
// vite.config.js): what is left must still be a whole MCP App in the official AppBridge.
let browser: Browser
let host: HostPage
let frame: Frame
const errors: string[] = []
beforeAll(async () => {
  const [b, html] = await Promise.all([launchBrowser(), buildView('minimal')])
  browser = b
  host = await openHostPage(browser, { viewHtml: html })
  // Every console error of the page and its frames, but for the browser's own request of the host page's favicon.
  host.page.on('console', (m) => {
    if (m.type() === 'error' && !m.location().url.endsWith('/favicon.ico')) errors.push(`${m.text()} at ${m.location().url}`)
  })
  await host.initialized()
  frame = host.viewFrame()
})
afterAll(async () => {
  await host?.close()
  await browser?.close()
})

describe('the minimal view, built with duet({ omit }), in the official AppBridge host', () => {
  it("shows the tool's input and result", async () => {
    await frame.waitForFunction(() => document.querySelector('h1')?.textContent === 'Waiting', undefined, { timeout: 20_000 })
    await host.sendToolInput({ city: 'Oslo' })
    await frame.waitForFunction(() => document.querySelector('h1')?.textContent === 'Oslo', undefined, { timeout: 20_000 })
    await host.sendToolResult({ content: [{ type: 'text', text: 'Sunny, 21°' }] })
    await frame.waitForFunction(() => document.querySelector('.result')?.textContent === 'Sunny, 21°', undefined, { timeout: 20_000 })
    await host.page.locator('#view').screenshot({ path: `${SHOTS_DIR}/mcp-minimal.png` })
  })

  it('fits its iframe to the content, answers teardown, and logs no error', async () => {
    // The whole document, margins included, is what the view reports (mcp/auto-resize.ts).
    const page = await frame.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height))
    const reported = async () => (await host.events()).filter((e) => e.name === 'sizechange').at(-1)?.params.height
    for (let i = 0; i < 50 && Math.abs(((await reported()) ?? -100) - page) > 2; i++) await new Promise((r) => setTimeout(r, 100))
    expect(Math.abs((await reported()) - page)).toBeLessThanOrEqual(2)
    expect(page).toBeGreaterThan(await frame.evaluate(() => Math.ceil(document.querySelector('.result')!.getBoundingClientRect().bottom)))
    expect(await host.teardown()).toEqual({})
    expect(errors).toEqual([])
  })
})
