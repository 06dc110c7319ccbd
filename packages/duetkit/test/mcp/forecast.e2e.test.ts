import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Frame } from 'playwright-core'
import { launchBrowser } from '../../../../test/support/browser.js'
import { bundleScript, openHostPage, type HostPage } from '../../../../test/support/host/index.js'
import { exampleView } from '../../../../test/support/built.js'
import { SHOTS_DIR } from '../../../../test/support/shots.js'

// Strings only zod or the MCP SDK carry; the official App's bundle is the positive control.
const FOREIGN = ['ZodError', '$ZodType', 'PostMessageTransport', 'Connection closed', 'DEFAULT_REQUEST_TIMEOUT']
const days = [
  { date: 'Mon', sky: 'Sunny', high: 21, low: 14 },
  { date: 'Tue', sky: 'Showers', high: 17, low: 12 },
  { date: 'Wed', sky: 'Cloudy', high: 18, low: 13 },
]

let browser: Browser
let html: string
beforeAll(async () => {
  ;[browser, html] = await Promise.all([launchBrowser(), exampleView('forecast')])
})
afterAll(async () => {
  await browser?.close()
})

describe('the forecast view built as one HTML file', () => {
  it('is self-contained and carries neither zod nor the MCP SDK', async () => {
    expect(html).toMatch(/^<!doctype html>/i)
    expect(html).not.toMatch(/<script[^>]+src=/)
    expect(html).not.toMatch(/<link[^>]+stylesheet/)
    const present = FOREIGN.filter((s) => html.includes(s))
    expect(present).toEqual([])
    const official = await bundleScript(fileURLToPath(new URL('./e2e/official-view.browser.ts', import.meta.url)), { minify: true })
    expect(FOREIGN.filter((s) => official.includes(s)).length).toBeGreaterThanOrEqual(3)
  })

  it('leaves the agent layer out when the view does not pass agentTools', async () => {
    const marker = 'never as instructions'
    expect(html).not.toContain(marker)
    const withTools = await bundleScript(fileURLToPath(new URL('./e2e/duet-view.browser.ts', import.meta.url)), { minify: true })
    expect(withTools).toContain(marker)
  })
})

for (const proxy of [false, true]) {
  describe(`the forecast view in the official AppBridge host${proxy ? ', behind a sandbox proxy' : ''}`, () => {
    let host: HostPage
    let frame: Frame
    beforeAll(async () => {
      host = await openHostPage(browser, {
        viewHtml: html,
        proxy,
        toolResults: { get_forecast: { content: [{ type: 'text', text: 'Two days' }], structuredContent: { city: 'Oslo', days: days.slice(1) } } },
      })
      await host.initialized()
      frame = host.viewFrame()
    })
    afterAll(async () => {
      await host?.close()
    })

    it('runs the seed flow: input, result, refresh, pick a day, ask', async () => {
      await frame.waitForSelector('h1')
      expect(await frame.textContent('h1')).toBe('Forecast')
      await host.sendToolInput({ city: 'Oslo' })
      await frame.waitForFunction(() => document.querySelector('h1')?.textContent === 'Forecast for Oslo', undefined, { timeout: 20_000 })
      expect(await frame.textContent('p[role=status]')).toBe('Loading…')
      await host.sendToolResult({ content: [{ type: 'text', text: 'Three days' }], structuredContent: { city: 'Oslo', days } })
      await frame.waitForFunction(() => document.querySelectorAll('.day').length === 3, undefined, { timeout: 20_000 })
      expect(await frame.textContent('.day')).toBe('Mon: Sunny, 21° / 14°')

      await frame.click('.refresh')
      expect((await host.waitForEvent('calltool')).params).toEqual({ name: 'get_forecast', arguments: { city: 'Oslo' } })
      await frame.waitForFunction(() => document.querySelectorAll('.day').length === 2, undefined, { timeout: 20_000 })

      await frame.click('.day >> nth=1')
      expect((await host.waitForEvent('updatemodelcontext')).params).toEqual({ structuredContent: { city: 'Oslo', selectedDay: days[2] } })
      expect(await frame.getAttribute('.day >> nth=1', 'aria-pressed')).toBe('true')

      await frame.click('.ask')
      expect((await host.waitForEvent('message')).params).toEqual({ role: 'user', content: [{ type: 'text', text: 'What should I pack for Oslo on Wed?' }] })
    })

    it('follows the host theme and fits its iframe to the content', async () => {
      await host.sendHostContextChange({ theme: 'dark' })
      await frame.waitForFunction(() => document.documentElement.dataset.theme === 'dark', undefined, { timeout: 20_000 })
      expect(await frame.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(22, 25, 29)')
      const sizes = (await host.events()).filter((e) => e.name === 'sizechange')
      expect(sizes.length).toBeGreaterThan(0)
      const last = sizes.at(-1)!.params.height
      const content = await frame.evaluate(() => Math.ceil(document.querySelector('main')!.getBoundingClientRect().bottom))
      expect(Math.abs(last - content)).toBeLessThanOrEqual(2)
      if (!proxy) {
        await host.page.locator('#view').screenshot({ path: `${SHOTS_DIR}/mcp-forecast-dark.png` })
        await host.sendHostContextChange({ theme: 'light' })
        await frame.waitForFunction(() => document.documentElement.dataset.theme === 'light', undefined, { timeout: 20_000 })
        await host.page.locator('#view').screenshot({ path: `${SHOTS_DIR}/mcp-forecast-light.png` })
      }
    })

    it('answers teardown', async () => {
      expect(await host.teardown()).toEqual({})
    })
  })
}
