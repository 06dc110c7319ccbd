import type { ChildProcess } from 'node:child_process'
import { cpSync, rmSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { Browser, FrameLocator, Page } from 'playwright-core'
import { afterAll, beforeAll } from 'vitest'
import { startDevServer, type DevServer } from '../../src/dev/dev-server.js'
import { launchBrowser } from '../../../../test/support/browser.js'
import { openDevPage } from './dev-page.js'
import { copyForecast, startForecastServer } from './fixtures/forecast-copy.mjs'

/** How the stage is set: the example's built view copied in, `duet dev --watch` on the copy, the poll interval. */
export type ForecastDevStageOptions = { builtView?: boolean; watch?: boolean; pollMs?: number }

/**
 * A copy of the forecast example served over HTTP, `duet dev` on it and its page open in Chromium, set
 * up before the describe's tests and taken down after: the set-up the dev page's e2e files share. Read
 * the parts through the returned getters inside tests and hooks.
 */
export function useForecastDevStage(options: ForecastDevStageOptions = {}) {
  let dir: string | undefined
  let forecast: ChildProcess | undefined
  let dev: DevServer | undefined
  let browser: Browser | undefined
  let page: Page | undefined

  beforeAll(async () => {
    dir = copyForecast()
    // A copy with its own built view, which a test can take away and put back.
    if (options.builtView) cpSync(fileURLToPath(new URL('../../../../examples/forecast/dist', import.meta.url)), `${dir}/dist`, { recursive: true })
    const f = await startForecastServer(dir)
    forecast = f.child
    dev = await startDevServer({
      servers: [{ kind: 'http', url: f.url }],
      port: 0,
      ...(options.watch && { watch: dir }),
      ...(options.pollMs !== undefined && { pollMs: options.pollMs }),
    })
    browser = await launchBrowser()
    page = await openDevPage(browser, dev.url)
    await page.getByTestId('server-status-s1').filter({ hasText: 'connected' }).waitFor({ timeout: 30_000 })
  })

  afterAll(async () => {
    await browser?.close()
    await dev?.close()
    forecast?.kill()
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  return {
    get dir(): string {
      return dir!
    },
    get page(): Page {
      return page!
    },
    /** The app's own document, inside the dev page's sandbox frame. */
    view: (): FrameLocator => page!.frameLocator('[data-testid=app-frame]').frameLocator('iframe'),
  }
}
