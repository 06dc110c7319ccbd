import type { ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServerProcess } from './server-process.js'
import { launchBrowser } from '../../../../test/support/browser.js'
import { bundleScript, htmlPage } from '../../../../test/support/host/index.js'
import { startHttpServer, type TestHttpServer } from '../../../../test/support/http-server.js'

// Stands in for the ext-apps basic-host, whose MCP client runs in the page: Chromium on one loopback origin
// calls our real servers (`duet serve --http` and the forecast example, as processes) on another.

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url))
const DUET_BIN = here('../../../cli/bin/duet.js')
const FORECAST = here('../../../../examples/forecast/server/server.js')

interface Outcome {
  ok: boolean
  protocolVersion?: string
  sessionId?: string
  tools?: string[]
  result?: { content?: Array<{ text?: string }>; structuredContent?: Record<string, unknown> }
  error?: string
}

describe('a browser host on another origin (as the ext-apps basic-host)', () => {
  let browser: Browser
  let pages: TestHttpServer
  let dataDir: string
  const servers: ChildProcess[] = []
  let duetUrl: string
  let forecastUrl: string

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'duet-cors-'))
    const script = await bundleScript(here('fixtures/browser-mcp-client.browser.ts'))
    pages = await startHttpServer({ '/': { body: htmlPage(script, { title: 'browser host' }) } })
    const duet = await startServerProcess([DUET_BIN, 'serve', '--http', '--port', '0', '--data-dir', dataDir])
    const forecast = await startServerProcess([FORECAST], { PORT: '0' })
    servers.push(duet.child, forecast.child)
    duetUrl = duet.url
    forecastUrl = forecast.url
    // evil.example resolves to loopback, as a DNS-rebinding attacker's name would.
    browser = await launchBrowser(['--host-resolver-rules=MAP evil.example 127.0.0.1'])
  })

  afterAll(async () => {
    await browser?.close()
    for (const child of servers) child.kill('SIGTERM')
    await pages?.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  async function openPage(origin: string): Promise<Page> {
    const page = await browser.newPage()
    await page.goto(`${origin}/`)
    await page.waitForFunction(() => 'tryServer' in window)
    return page
  }

  const run = (page: Page, url: string, era: 'legacy' | 'modern', call: { name: string; arguments: Record<string, unknown> }) =>
    page.evaluate(([u, e, c]) => (window as unknown as { tryServer: (...a: unknown[]) => Promise<unknown> }).tryServer(u, e, c), [
      url,
      era,
      call,
    ] as const) as Promise<Outcome>

  for (const era of ['legacy', 'modern'] as const) {
    it(`connects to duet serve --http from http://localhost:<other port> (${era} era), lists and calls tools`, async () => {
      const page = await openPage(`http://localhost:${pages.port}`)
      const outcome = await run(page, duetUrl, era, { name: 'list_recipes', arguments: {} })
      expect(outcome.error).toBeUndefined()
      expect(outcome.tools).toEqual(expect.arrayContaining(['display_ui_to_user', 'open_channel', 'list_recipes']))
      expect(JSON.stringify(outcome.result)).toContain('getting-started')
      if (era === 'modern') expect(outcome.protocolVersion).toBe('2026-07-28')
      await page.close()
    })

    it(`connects to the forecast server from http://127.0.0.1:<other port> (${era} era) and gets a forecast`, async () => {
      const page = await openPage(pages.origin)
      const outcome = await run(page, forecastUrl, era, { name: 'get_forecast', arguments: { city: 'Oslo' } })
      expect(outcome.error).toBeUndefined()
      expect(outcome.tools).toContain('get_forecast')
      expect(outcome.result?.structuredContent).toMatchObject({ city: 'Oslo', days: expect.any(Array) })
      await page.close()
    })
  }

  it('refuses a page on http://evil.example (mapped to loopback) for both servers', async () => {
    const page = await openPage(`http://evil.example:${pages.port}`)
    for (const url of [duetUrl, forecastUrl]) {
      const outcome = await run(page, url, 'modern', { name: 'list_recipes', arguments: {} })
      expect(outcome.ok).toBe(false)
      expect(outcome.error).toMatch(/fetch|Failed|CORS|403/i)
    }
    // The server refused it (403), not only the browser: the same request with that Origin, outside a browser.
    for (const url of [duetUrl, forecastUrl]) {
      const res = await fetch(url, { method: 'OPTIONS', headers: { origin: `http://evil.example:${pages.port}`, 'access-control-request-method': 'POST' } })
      expect(res.status).toBe(403)
    }
    await page.close()
  })
})
