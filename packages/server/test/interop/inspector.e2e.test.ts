// MCP Inspector 2.12.0 (npm, test/interop) as a second real host: it frames the forecast view with
// ext-apps 2.0.4's AppBridge and advertises no updateModelContext, so the view must ask before it sends.
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { launchBrowser } from '../../../../test/support/browser.js'
import { freePort } from '../../../../test/support/ports.js'
import { SHOTS_DIR } from '../../../../test/support/shots.js'
import type { Listening } from '../../src/server/index.js'
import { expectForecastCardWorks } from './forecast-card.js'
import { type HostProcess, startForecast, startHost } from './host-process.js'

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url))
const INTEROP = here('../../../../test/interop/')
const NODE22 = join(INTEROP, 'node_modules/.bin/node')
const INSPECTOR = join(INTEROP, 'node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js')

let browser: Browser
let forecast: Listening
let inspector: HostProcess | undefined
let home: string
let ui: number
const token = randomBytes(24).toString('hex')

beforeAll(async () => {
  if (!existsSync(INSPECTOR) || !existsSync(NODE22))
    throw new Error(`MCP Inspector is not installed: run npm ci --prefix test/interop (looked for ${INSPECTOR})`)
  forecast = await startForecast()

  home = mkdtempSync(join(tmpdir(), 'duet-inspector-'))
  const [backend, sandbox] = [await freePort(), await freePort()]
  ui = await freePort()
  inspector = await startHost(
    'MCP Inspector',
    NODE22,
    [INSPECTOR, '--web'],
    {
      cwd: INTEROP,
      env: {
        ...process.env,
        HOME: home,
        HOST: '127.0.0.1',
        CLIENT_PORT: String(ui),
        SERVER_PORT: String(backend),
        MCP_SANDBOX_PORT: String(sandbox),
        MCP_AUTO_OPEN_ENABLED: 'false',
        MCP_INSPECTOR_API_TOKEN: token,
        MCP_INSPECTOR_SECRET_STORE: 'memory',
      },
    },
    (output) => output.includes('is up and running'),
  )
  browser = await launchBrowser()
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await inspector?.stop()
  await forecast?.close()
  if (home) rmSync(home, { recursive: true, force: true })
})

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')

describe('the forecast card in MCP Inspector 2.12.0', () => {
  let page: Page
  const logs: string[] = []

  it('connects through the deep link, opens the app and renders the card', async () => {
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage()
    page.on('console', (m) => logs.push(`${m.type()}: ${m.text()}`))
    const link =
      `http://127.0.0.1:${ui}/?serverUrl=${encodeURIComponent(forecast.url!)}&transport=http&autoConnect=${token}` +
      `&openApp=get_forecast&appArgs=${base64url({ city: 'Oslo' })}`
    await page.goto(link)
    await page.locator('[data-testid="connection-status"][data-status="connected"]').waitFor({ timeout: 30_000 })
    await page.getByRole('button', { name: 'Open App' }).first().click()
    const view = page.frameLocator('iframe').first().frameLocator('iframe').first()
    await expect.poll(() => view.locator('h1').textContent({ timeout: 30_000 }), { timeout: 30_000 }).toBe('Forecast for Oslo')
    await expect.poll(() => view.locator('.day').count(), { timeout: 30_000 }).toBe(5)
  }, 90_000)

  it('works: picking a day marks it, refresh calls the tool again through the host', async () => {
    const view = page.frameLocator('iframe').first().frameLocator('iframe').first()
    await expectForecastCardWorks(view)
    await page.screenshot({ path: `${SHOTS_DIR}/inspector-forecast.png`, fullPage: true })
  }, 60_000)

  it('logs no -32601 and no driver warning: the view sent nothing the host did not offer', () => {
    const noise = [...logs, ...(inspector?.output() ?? '').split('\n')].filter((line) => /-32601|Method not found|\[duetkit\/mcp\]/.test(line))
    expect(noise).toEqual([])
  })
})
