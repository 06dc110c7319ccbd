#!/usr/bin/env node
// Makes docs/public/duet-dev.png, the picture of `duet dev` in docs/guide/dev-and-check.md: the built
// `duet dev` on the forecast example (over stdio, a free port), headless Chromium at 1400×900, get_forecast
// called for Lisbon and a day picked. Run `npm run docs:screenshot` (it builds first) after the page changes.
// duet dev and Chromium are ended on exit, on an error and on Ctrl-C.
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { chromium } from 'playwright-core'

const at = (p) => fileURLToPath(new URL(`../${p}`, import.meta.url))
const OUT = at('docs/public/duet-dev.png')
const CHROMIUM = process.env.DUET_CHROMIUM ?? '/usr/bin/chromium'
const WAIT = { timeout: 60_000 }

for (const needed of ['packages/server/dist/cli/bin.js', 'examples/forecast/dist/index.html'])
  if (!existsSync(at(needed))) throw new Error(`${needed} is missing: run npm run build && npm run build:examples first`)

const dev = spawn(
  process.execPath,
  [at('packages/server/dist/cli/bin.js'), 'dev', '--port', '0', '--stdio', 'node examples/forecast/server/server.js --stdio'],
  // From the repository root, so the server list shows a path that means something on any machine.
  { cwd: at(''), stdio: ['ignore', 'pipe', 'inherit'] },
)
let browser
const cleanup = async () => {
  await browser?.close().catch(() => {})
  if (dev.exitCode === null) dev.kill('SIGTERM')
}
for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => {
    void cleanup().then(() => process.exit(130))
  })

try {
  const url = await new Promise((resolve, reject) => {
    let out = ''
    dev.stdout.on('data', (chunk) => {
      out += chunk
      const m = /host ready at (http:\/\/\S+)/.exec(out)
      if (m) resolve(m[1])
    })
    dev.once('exit', (code) => reject(new Error(`duet dev exited ${code} before it was ready:\n${out}`)))
  })
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] })
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } })
  await page.goto(url)
  await page.getByTestId('server-status-s1').filter({ hasText: 'connected' }).waitFor(WAIT)
  await page.getByTestId('tool-get_forecast').click()
  await page.getByTestId('field-city').fill('Lisbon')
  await page.getByTestId('call-button').click()
  const view = page.frameLocator('[data-testid=app-frame]').frameLocator('iframe')
  await view.locator('h1').filter({ hasText: 'Forecast for Lisbon' }).waitFor(WAIT)
  await view.locator('button.day').nth(2).click()
  await view.locator('button.day[aria-pressed=true]').waitFor(WAIT)
  // The trace and panels fill as the view talks; let the last messages land before the picture.
  await page.getByTestId('model-context').filter({ hasText: 'selectedDay' }).waitFor(WAIT)
  mkdirSync(at('docs/public'), { recursive: true })
  await page.screenshot({ path: OUT })
  process.stdout.write(`docs-screenshot: wrote ${OUT}\n`)
} finally {
  await cleanup()
}
