import type { ChildProcess } from 'node:child_process'
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import type { Browser, FrameLocator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDevServer, type DevServer } from '../../src/dev/dev-server.js'
import { launchBrowser } from '../../../../test/support/browser.js'
import { copyForecast, FORECAST_NEEDS, startForecastServer } from './fixtures/forecast-copy.mjs'
import { builtOutputs } from '../../../../test/support/built.js'

// `duet dev --watch` on a copy of the forecast example: Vite rebuilds on save, the view is re-mounted
// with the picked day kept (App.persist) and the last input and result replayed.
const WAIT = { timeout: 30_000 }

const READY = builtOutputs('duet dev --watch on the forecast example', FORECAST_NEEDS)

describe.skipIf(!READY)('duet dev --watch on the forecast example', { timeout: 120_000 }, () => {
  let dir: string
  let forecast: ChildProcess
  let dev: DevServer
  let browser: Browser
  let page: Page
  const view = (): FrameLocator => page.frameLocator('[data-testid=app-frame]').frameLocator('iframe')
  const appSource = () => `${dir}/src/App.jsx`

  beforeAll(async () => {
    dir = copyForecast()
    const f = await startForecastServer(dir)
    forecast = f.child
    dev = await startDevServer({ servers: [{ kind: 'http', url: f.url }], port: 0, watch: dir })
    browser = await launchBrowser()
    page = await browser.newPage({ viewport: { width: 1400, height: 1000 } })
    await page.goto(dev.url)
    await page.getByTestId('server-status-s1').filter({ hasText: 'connected' }).waitFor(WAIT)
  })

  afterAll(async () => {
    await browser?.close()
    await dev?.close()
    forecast?.kill()
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  it('built the view before serving it', () => {
    expect(existsSync(`${dir}/dist/index.html`)).toBe(true)
  })

  it('rebuilds on save and re-mounts the view with the picked day still picked', async () => {
    await page.getByTestId('tool-get_forecast').click()
    await page.getByTestId('field-city').fill('Lisbon')
    await page.getByTestId('call-button').click()
    await view().locator('h1').filter({ hasText: 'Forecast for Lisbon' }).waitFor(WAIT)
    const third = view().locator('button.day').nth(2)
    await third.click()
    await view().locator('button.day[aria-pressed=true]').waitFor(WAIT)
    const picked = await third.innerText()
    // The state is saved after the flush that changed it; the model context is sent in the same turn.
    await page.getByTestId('model-context').filter({ hasText: 'selectedDay' }).waitFor(WAIT)

    writeFileSync(appSource(), readFileSync(appSource(), 'utf8').replace('`Forecast for ', '`Weather for '))
    await view().locator('h1').filter({ hasText: 'Weather for Lisbon' }).waitFor(WAIT)
    await view().locator('button.day[aria-pressed=true]').waitFor(WAIT)
    expect(await view().locator('button.day[aria-pressed=true]').innerText()).toBe(picked)
    expect(await view().locator('button.day').count()).toBe(5)
    await page.getByTestId('logs').filter({ hasText: 'view rebuilt in' }).waitFor(WAIT)
  })

  it('keeps the last good view on a save that does not build, says why, and reloads once it builds again', async () => {
    const good = readFileSync(appSource(), 'utf8')
    writeFileSync(appSource(), `${good}\nexport const broken = (\n`)
    await page.getByTestId('logs').filter({ hasText: 'the view did not build' }).waitFor(WAIT)
    expect(await view().locator('h1').innerText()).toBe('Weather for Lisbon')
    expect(await view().locator('button.day[aria-pressed=true]').count()).toBe(1)

    writeFileSync(appSource(), good.replace('`Weather for ', '`Outlook for '))
    await view().locator('h1').filter({ hasText: 'Outlook for Lisbon' }).waitFor(WAIT)
    expect(await view().locator('button.day[aria-pressed=true]').count()).toBe(1)
  })
})
