import type { ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Browser, FrameLocator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDevServer, type DevServer } from '../../src/dev/dev-server.js'
import { launchBrowser } from '../../../../test/support/browser.js'
import { SHOTS_DIR } from '../../../../test/support/shots.js'
import { startListening } from './fixtures/forecast-copy.mjs'
import { builtOutputs } from '../../../../test/support/built.js'

// The acceptance flows on the real parts: the forecast example (built view + its server) and `duet serve`.
const repo = (p: string) => fileURLToPath(new URL(`../../../../${p}`, import.meta.url))
const FORECAST_SERVER = repo('examples/forecast/server/server.js')
const FORECAST_VIEW = repo('examples/forecast/dist/index.html')
const DUET_BIN = repo('packages/server/dist/cli/bin.js')
const ready = builtOutputs('duet dev on the forecast example', [FORECAST_SERVER, FORECAST_VIEW, DUET_BIN])
const WAIT = { timeout: 20_000 }

describe.skipIf(!ready)('duet dev on the forecast example and duet serve', { timeout: 90_000 }, () => {
  let dataDir: string
  let forecast: ChildProcess
  let serve: ChildProcess
  let dev: DevServer
  let browser: Browser
  let page: Page
  const view = (): FrameLocator => page.frameLocator('[data-testid=app-frame]').frameLocator('iframe')
  const waitText = (id: string, text: string) => page.getByTestId(id).filter({ hasText: text }).first().waitFor(WAIT)

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'duet-dev-serve-'))
    const f = await startListening([FORECAST_SERVER], { PORT: '0' })
    forecast = f.child
    const s = await startListening([DUET_BIN, 'serve', '--http', '--port', '0', '--data-dir', dataDir])
    serve = s.child
    dev = await startDevServer({
      servers: [
        { kind: 'http', url: f.url },
        { kind: 'http', url: s.url },
      ],
      port: 0,
    })
    browser = await launchBrowser()
    page = await browser.newPage({ viewport: { width: 1400, height: 1000 } })
    await page.goto(dev.url)
    await waitText('server-status-s1', 'connected')
    await waitText('server-status-s2', 'connected')
  })

  afterAll(async () => {
    await browser?.close()
    await dev?.close()
    forecast?.kill()
    serve?.kill()
    if (dataDir) rmSync(dataDir, { recursive: true, force: true })
  })

  it('renders the forecast view for a call, and shows what it tells the model', async () => {
    await page.getByTestId('tool-get_forecast').click()
    await page.getByTestId('field-city').fill('Lisbon')
    await page.getByTestId('call-button').click()
    await view().locator('h1').filter({ hasText: 'Forecast for Lisbon' }).waitFor(WAIT)
    await view().locator('button.day').first().waitFor(WAIT)
    await view().locator('button.day').first().click()
    await waitText('model-context', 'selectedDay')
    await view().locator('button.ask').click()
    await waitText('messages', 'What should I pack for Lisbon')
    await page.screenshot({ path: `${SHOTS_DIR}/forecast-light.png` })
    await page.getByTestId('theme-select').selectOption('dark')
    await page.getByTestId('trace-filter').fill('host-context-changed')
    await waitText('trace', '"theme": "dark"')
    await page.getByTestId('trace-filter').fill('')
    await page.screenshot({ path: `${SHOTS_DIR}/forecast-dark.png` })
  })

  it('plays the agent on a duet serve channel', async () => {
    await page.getByTestId('tool-open_channel').click()
    await page.getByTestId('call-button').click()
    await waitText('tool-result', 'channel_id')
    const channel = await page.getByTestId('agent-channel').inputValue()
    expect(channel).not.toBe('')
    // The app's side of the channel, as a view would call it through the host.
    const app = (name: string, args: Record<string, unknown>) =>
      page.evaluate(
        async ([n, a]) => {
          const res = await fetch('/api/rpc', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ server: 's2', method: 'tools/call', caller: 'app', params: { name: n, arguments: a } }),
          })
          return res.json()
        },
        [name, args] as const,
      )
    await app('notify_agent', { channel_id: channel, event: 'ask', data: { question: 'umbrella?' } })
    await waitText('agent-inbox', 'umbrella?')
    await page.getByTestId('agent-data').fill('{"text":"yes, take one"}')
    await page.getByTestId('agent-send').click()
    await waitText('agent-status', 'sent answer')
    const polled = await app('poll_ui_messages', { channel_id: channel })
    expect(JSON.stringify(polled.result.structuredContent.messages)).toContain('yes, take one')
  })
})
