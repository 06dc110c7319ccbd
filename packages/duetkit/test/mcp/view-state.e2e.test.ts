// App.persist in real Chromium under the official AppBridge, with the forecast example: the picked
// day survives a re-mount (same viewUUID), a new tool call starts fresh, and where localStorage is
// blocked the forecast server's own duet_view_state tool keeps it.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Frame } from 'playwright-core'
import { Client } from '@modelcontextprotocol/client'
import { InMemoryTransport } from '@modelcontextprotocol/server'
import { launchBrowser } from '../../../../test/support/browser.js'
import { openHostPage, type HostPage } from '../../../../test/support/host/index.js'
import { exampleView } from '../../../../test/support/built.js'
import { SHOTS_DIR } from '../../../../test/support/shots.js'
// @ts-expect-error the example is JavaScript without declarations
import { createForecastServer } from '../../../../examples/forecast/server/server.js'

const days = [
  { date: 'Mon', sky: 'Sunny', high: 21, low: 14 },
  { date: 'Tue', sky: 'Showers', high: 17, low: 12 },
  { date: 'Wed', sky: 'Cloudy', high: 18, low: 13 },
]
const result = (viewUUID: string) => ({ content: [{ type: 'text', text: 'Three days' }], structuredContent: { city: 'Oslo', days }, _meta: { viewUUID } })

// What an iframe without allow-same-origin does to a script that reads localStorage.
const BLOCK_STORAGE = `<script>Object.defineProperty(window, 'localStorage', { get() { throw new DOMException('The document is sandboxed and lacks the allow-same-origin flag.', 'SecurityError') } })</script>`

// Chromium blocks storage in third-party frames (third-party cookie phase-out): a view framed by a host
// on another site gets no localStorage, as in real browsers. This one allows it, for the localStorage path.
const ALLOW_THIRD_PARTY_STORAGE = ['--disable-features=TrackingProtection3pcd']

let browser: Browser
let storageBrowser: Browser
let html: string
let host: HostPage | undefined
beforeAll(async () => {
  ;[browser, storageBrowser, html] = await Promise.all([launchBrowser(), launchBrowser(ALLOW_THIRD_PARTY_STORAGE), exampleView('forecast')])
})
afterEach(async () => {
  await host?.close()
  host = undefined
})
afterAll(async () => {
  await browser?.close()
  await storageBrowser?.close()
})

/** The host shows a tool result; resolves with the view frame once the days are there. */
async function show(h: HostPage, viewUUID: string): Promise<Frame> {
  await h.initialized()
  const frame = h.viewFrame()
  await h.sendToolInput({ city: 'Oslo' })
  await h.sendToolResult(result(viewUUID))
  await frame.waitForFunction(() => document.querySelectorAll('.day').length === 3, undefined, { timeout: 20_000 })
  return frame
}
const picked = (frame: Frame) => frame.$$eval('.day', (els) => els.map((e) => e.getAttribute('aria-pressed')))

/** A re-mount: the host page reloads, its bridge frames the view anew and replays the same result. */
async function remount(h: HostPage, viewUUID: string): Promise<Frame> {
  await h.page.reload()
  return show(h, viewUUID)
}

describe('the forecast view keeps the picked day across a re-mount', () => {
  it('in localStorage: same viewUUID restores it, a new viewUUID starts fresh', async () => {
    host = await openHostPage(storageBrowser, { viewHtml: html })
    let frame = await show(host, 'view-0000-aaaa')
    expect(await picked(frame)).toEqual(['false', 'false', 'false'])
    await frame.click('.day >> nth=1')
    await frame.waitForFunction(() => document.querySelectorAll('.day')[1]?.getAttribute('aria-pressed') === 'true')
    await frame.waitForFunction(() => localStorage.getItem('duet:view-state:view-0000-aaaa') === '{"selected":"Tue"}', undefined, { timeout: 5_000 })

    frame = await remount(host, 'view-0000-aaaa')
    await frame.waitForFunction(() => document.querySelectorAll('.day')[1]?.getAttribute('aria-pressed') === 'true', undefined, { timeout: 5_000 })
    expect(await picked(frame)).toEqual(['false', 'true', 'false'])
    await host.page.locator('#view').screenshot({ path: `${SHOTS_DIR}/view-state-restored.png` })

    frame = await remount(host, 'view-1111-bbbb')
    // Give a wrongly restored state the time it would take to show.
    await new Promise((r) => setTimeout(r, 300))
    expect(await picked(frame)).toEqual(['false', 'false', 'false'])
  })

  it('with localStorage blocked (a cross-site frame, and a script that makes it throw): through the forecast server’s duet_view_state tool', async () => {
    const server = createForecastServer()
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
    await server.mcp.connect(serverSide)
    const client = new Client({ name: 'test-host', version: '1' })
    await client.connect(clientSide)
    const calls: Array<{ name: string; args: any }> = []
    try {
      host = await openHostPage(browser, {
        viewHtml: html.replace(/<head>/i, `<head>${BLOCK_STORAGE}`),
        onToolCall: async (name, args) => {
          calls.push({ name, args })
          return client.callTool({ name, arguments: args as Record<string, unknown> })
        },
      })
      let frame = await show(host, 'view-2222-cccc')
      expect(
        await frame.evaluate(() => {
          try {
            return typeof localStorage
          } catch (e) {
            return (e as Error).name
          }
        }),
      ).toBe('SecurityError')
      await frame.click('.day >> nth=2')
      await frame.waitForFunction(() => document.querySelectorAll('.day')[2]?.getAttribute('aria-pressed') === 'true')
      await expect
        .poll(() => calls.some((c) => c.name === 'duet_view_state' && c.args.op === 'put' && c.args.state?.selected === 'Wed'), { timeout: 5_000 })
        .toBe(true)

      frame = await remount(host, 'view-2222-cccc')
      await frame.waitForFunction(() => document.querySelectorAll('.day')[2]?.getAttribute('aria-pressed') === 'true', undefined, { timeout: 5_000 })
      expect(calls.filter((c) => c.name === 'duet_view_state' && c.args.op === 'get').map((c) => c.args.viewUUID)).toEqual(['view-2222-cccc', 'view-2222-cccc'])
    } finally {
      await client.close()
      await server.close()
    }
  })
})

describe('the forecast view on a host that offers less (as MCP Inspector does)', () => {
  it('offers no model context, question, download or full screen, and sends nothing the host did not advertise', async () => {
    const messages: string[] = []
    host = await openHostPage(browser, {
      viewHtml: html,
      capabilities: { serverTools: {}, openLinks: {}, logging: {} },
      hostContext: { theme: 'light', displayMode: 'inline', availableDisplayModes: ['inline'] },
    })
    host.page.on('console', (m) => messages.push(`${m.type()}: ${m.text()}`))
    const frame = await show(host, 'view-3333-dddd')
    expect(await frame.$$eval('button', (els) => els.map((e) => e.className))).toEqual(['day', 'day', 'day', 'refresh'])
    await frame.click('.day >> nth=0')
    await frame.click('.refresh')
    await host.waitForEvent('calltool', { name: 'get_forecast' })
    // A window, not an event: a model-context update or message after the refresh would be sent within it.
    await new Promise((r) => setTimeout(r, 200))
    const sent = (await host.log()).filter((e) => e.dir === 'view->host').map((e) => e.data.method)
    expect(sent).not.toContain('ui/update-model-context')
    expect(sent).not.toContain('ui/message')
    expect((await host.log()).filter((e) => e.data?.error?.code === -32601)).toEqual([])
    expect(messages.filter((m) => /duetkit|-32601|Method not found/.test(m))).toEqual([])
  })
})
