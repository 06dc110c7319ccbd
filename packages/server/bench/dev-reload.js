// Hot reload in `duet dev --watch`, end to end on the forecast example: from saving a source file to
// the re-mounted view showing the edit with the picked day still picked (Vite rebuild, resource re-read,
// teardown, sandbox proxy, AppBridge handshake, input and result replayed, state restored).
// The anchor, measured in the same run: what a developer does without it, a full reload of the dev
// page and the tool called again until the card shows its days (and the picked day is lost).
// `npm run bench:dev`; also runs alone after `npm run build`: node packages/server/bench/dev-reload.js
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { loadTestHelpers } from '../../../test/support/load-test-helpers.js'
import { startDevServer } from '../dist/dev/dev-server.js'
import { copyForecast, FORECAST_READY, startForecastServer } from '../test/dev/fixtures/forecast-copy.mjs'

const RUNS = Number(process.env.BENCH_RUNS ?? 10)
const GOAL_MS = 1000
const TIMEOUT = 30_000

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const ms = (n) => `${Math.round(n)} ms`

// The view is two frames down (dev page → sandbox proxy → view); after a re-mount it is a new frame.
function viewFrame(page) {
  return page.frames().find((f) => f.parentFrame()?.parentFrame() === page.mainFrame())
}

/** Resolves with Date.now() once a view frame shows `heading` with a day picked (`picked` text). */
async function shown(page, heading, picked) {
  const deadline = Date.now() + TIMEOUT
  let seen = null
  while (Date.now() < deadline) {
    const frame = viewFrame(page)
    seen = await frame
      ?.evaluate(() => ({
        title: document.querySelector('h1')?.textContent ?? '',
        pressed: document.querySelector('button.day[aria-pressed=true]')?.textContent ?? null,
        days: document.querySelectorAll('button.day').length,
      }))
      .catch(() => null)
    if (seen?.title.includes(heading) && (picked === undefined ? seen.days === 5 : seen.pressed === picked)) return Date.now()
    await new Promise((r) => setTimeout(r, 5))
  }
  // Say what was on screen and what the page logged, so a miss can be told from a lost state.
  const logs = await page
    .getByTestId('logs')
    .innerText()
    .catch(() => '')
  throw new Error(
    `the view did not show "${heading}"${picked ? ` with "${picked}" picked` : ''} within ${TIMEOUT / 1000} s; last seen ${JSON.stringify(seen)}; logs:\n${logs.slice(-2000)}`,
  )
}

async function callForecast(page) {
  await page.getByTestId('tool-get_forecast').click()
  await page.getByTestId('field-city').fill('Lisbon')
  await page.getByTestId('call-button').click()
}

export async function measureReload(runs = RUNS) {
  const { launchBrowser } = await loadTestHelpers("export { launchBrowser } from './test/support/browser.ts'")
  const dir = copyForecast()
  const source = join(dir, 'src/App.jsx')
  const original = readFileSync(source, 'utf8')
  const forecast = await startForecastServer(dir)
  const dev = await startDevServer({ servers: [{ kind: 'http', url: forecast.url }], port: 0, watch: dir })
  const browser = await launchBrowser()
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } })
    await page.goto(dev.url)
    await page.getByTestId('server-status-s1').filter({ hasText: 'connected' }).waitFor({ timeout: TIMEOUT })
    await callForecast(page)
    await shown(page, 'Forecast for Lisbon')
    const day = viewFrame(page).locator('button.day').nth(2)
    await day.click()
    const picked = await day.innerText()
    await page.getByTestId('model-context').filter({ hasText: 'selectedDay' }).waitFor({ timeout: TIMEOUT })

    const reloads = []
    // One warm-up save: the first rebuild pays for the JIT and Vite's caches.
    for (let i = -1; i < runs; i++) {
      const heading = `Forecast r${i + 1} for`
      const saved = Date.now()
      writeFileSync(source, original.replace('`Forecast for ', `\`${heading} `))
      const done = await shown(page, heading, picked)
      if (i >= 0) reloads.push(done - saved)
      // Let the watcher settle so saves do not overlap.
      await new Promise((r) => setTimeout(r, 300))
    }

    // What Vite itself took, from duet dev's own log lines (warm-up and first build left out).
    const logText = await page.getByTestId('logs').innerText()
    const builds = [...logText.matchAll(/view rebuilt in (\d+) ms/g)].map((m) => Number(m[1])).slice(-runs)

    const anchors = []
    for (let i = 0; i < Math.min(runs, 5); i++) {
      const started = Date.now()
      await page.reload()
      await page.getByTestId('server-status-s1').filter({ hasText: 'connected' }).waitFor({ timeout: TIMEOUT })
      await callForecast(page)
      anchors.push((await shown(page, 'for Lisbon')) - started)
    }
    return { reloads, anchors, builds }
  } finally {
    await browser.close()
    await dev.close()
    forecast.child.kill()
    rmSync(dir, { recursive: true, force: true })
  }
}

export async function main() {
  if (!FORECAST_READY) throw new Error('run npm run build first: the bench needs the built packages')
  const { reloads, anchors, builds } = await measureReload()
  const worst = Math.max(...reloads)
  console.log(`duet dev --watch on the forecast example: save → re-mounted view with the picked day kept (${reloads.length} saves; Chromium, AppBridge, Vite)`)
  console.log(`  save → view with state: median ${ms(median(reloads))}, worst ${ms(worst)}`)
  console.log(`  every save, in order: ${reloads.map((r) => Math.round(r)).join(', ')} ms`)
  if (builds.length) console.log(`  of which the Vite rebuild: median ${ms(median(builds))} (the rest: re-read, re-mount, handshake, replay, state restore)`)
  const ratio = median(anchors) / median(reloads)
  console.log(
    `  anchor, same run: full page reload + call the tool again (state lost): median ${ms(median(anchors))} over ${anchors.length} (${ratio.toFixed(2)}× the save → view median)`,
  )
  console.log(`  Goal: under ${GOAL_MS} ms on every save (worst ${ms(worst)}): ${worst < GOAL_MS ? 'met' : 'NOT met'}`)
}

main().catch((err) => {
  console.error(err)
  process.exitCode = 1
})
