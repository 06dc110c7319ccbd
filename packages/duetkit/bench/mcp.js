// npm run bench:mcp — size and speed of a Duet MCP App view against the same view on the
// official ext-apps `App`, both built as one HTML file (vite + vite-plugin-singlefile) and timed
// in Chromium with the official AppBridge as host. Prints figures and ratios, each ratio with
// "met" or "NOT met" against its goal; asserts nothing.
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { build } from 'vite'
import { viteSingleFile } from 'vite-plugin-singlefile'
import { duet } from '../dist/build/index.js'
import { loadTestHelpers } from '../../../test/support/load-test-helpers.js'

const here = (p) => fileURLToPath(new URL(p, import.meta.url))
const RUNS = Number(process.env.BENCH_RUNS ?? 21)
// Duet's view at most a fifth of the official App's size, and its start-up and render in at most half the time.
const SIZE_GOAL = 0.2
const TIME_GOAL = 0.5

const days = [
  { date: 'Mon', sky: 'Sunny', high: 21, low: 14 },
  { date: 'Tue', sky: 'Showers', high: 17, low: 12 },
  { date: 'Wed', sky: 'Cloudy', high: 18, low: 13 },
]

const ALL_VIEWS = [
  {
    name: 'minimal',
    duet: here('./mcp/minimal-duet/'),
    official: here('./mcp/minimal-official/'),
    rendered: "document.querySelector('.result')?.textContent === 'done'",
    result: { content: [{ type: 'text', text: 'done' }] },
  },
  {
    name: 'forecast',
    duet: here('../../../examples/forecast/'),
    official: here('./mcp/forecast-official/'),
    rendered: "document.querySelectorAll('.day').length === 3",
    result: { content: [{ type: 'text', text: 'three days' }], structuredContent: { city: 'Oslo', days } },
  },
]

// BENCH_VIEWS=forecast times one view only.
const VIEWS = ALL_VIEWS.filter((v) => !process.env.BENCH_VIEWS || process.env.BENCH_VIEWS.split(',').includes(v.name))

/**
 * Builds one view directory into a single HTML string, the way its users would: a Duet view with
 * the examples' `plugins: [duet(), viteSingleFile()]`, the official one with `viteSingleFile()` alone.
 */
async function buildView(root, withDuet) {
  const out = await build({
    root,
    configFile: false,
    logLevel: 'silent',
    plugins: withDuet ? [duet(), viteSingleFile()] : [viteSingleFile()],
    build: { write: false },
  })
  const page = (Array.isArray(out) ? out : [out]).flatMap((o) => o.output).find((f) => f.fileName === 'index.html')
  return String(page.source)
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2
}
const kb = (n) => `${(n / 1024).toFixed(1)} KB`
const ms = (n) => `${n.toFixed(2)} ms`
const ratio = (a, b) => (a / b).toFixed(3)
const verdict = (r, goal) => (r <= goal ? 'met' : 'NOT met')
/** A ratio with its verdict, e.g. `0.208 NOT met`. */
const judged = (a, b, goal) => `${ratio(a, b)} ${verdict(a / b, goal)}`

/**
 * One run: navigation → initialized, then tool-result → first render of the result, timed twice:
 * from the host's send (includes the AppBridge and the postMessage hop, which are the same for
 * both views) and from the message's arrival in the view (the view's own work only).
 */
async function timeOnce(helpers, browser, html, view) {
  const host = await helpers.openHostPage(browser, { viewHtml: html })
  try {
    await host.initialized()
    const { navigated, initialized } = await host.timing()
    const frame = host.viewFrame()
    // When the view's HTML had arrived: separates the view's own start-up from loopback networking.
    const received = await frame.evaluate(() => performance.timeOrigin + performance.getEntriesByType('navigation')[0].responseEnd)
    await host.sendToolInput({ city: 'Oslo' })
    await frame.waitForFunction(() => document.body.textContent.includes('Oslo'), undefined, { timeout: 20_000 })
    // Watch the view's DOM from inside, so the render time is read on the view's own clock. The
    // message event's own timeStamp is when it was dispatched, whichever listener reads it first.
    await frame.evaluate((check) => {
      window.addEventListener('message', (e) => {
        if (e.data?.method === 'ui/notifications/tool-result' && window.__arrivedAt === undefined) window.__arrivedAt = performance.timeOrigin + e.timeStamp
      })
      const done = new Function(`return (${check})`)
      new MutationObserver((_, obs) => {
        if (done()) {
          window.__renderedAt = performance.timeOrigin + performance.now()
          obs.disconnect()
        }
      }).observe(document.body, { subtree: true, childList: true, characterData: true })
    }, view.rendered)
    const sentAt = await host.page.evaluate((result) => {
      const h = window.__duetHost
      const t = h.now()
      h.bridge.sendToolResult(result)
      return t
    }, view.result)
    await frame.waitForFunction(() => window.__renderedAt, undefined, { timeout: 20_000 })
    const { arrivedAt, renderedAt } = await frame.evaluate(() => ({ arrivedAt: window.__arrivedAt, renderedAt: window.__renderedAt }))
    return { init: initialized - navigated, start: initialized - received, render: renderedAt - sentAt, own: renderedAt - arrivedAt }
  } finally {
    await host.close()
  }
}

async function main() {
  console.log('MCP Apps view: Duet against the official ext-apps App (single-file HTML builds)\n')
  const built = {}
  for (const view of VIEWS) {
    built[view.name] = { duet: await buildView(view.duet, true), official: await buildView(view.official, false) }
  }

  console.log(`${`Size (goal ratio ≤ ${SIZE_GOAL.toFixed(3)})`.padEnd(26)}Duet raw   gzip      official raw  gzip      ratio raw        ratio gzip`)
  for (const view of VIEWS) {
    const d = built[view.name].duet
    const o = built[view.name].official
    const dz = gzipSync(d).length
    const oz = gzipSync(o).length
    console.log(
      `${view.name.padEnd(25)} ${kb(d.length).padEnd(10)} ${kb(dz).padEnd(9)} ${kb(o.length).padEnd(13)} ${kb(oz).padEnd(9)} ${judged(d.length, o.length, SIZE_GOAL).padEnd(16)} ${judged(dz, oz, SIZE_GOAL)}`,
    )
  }

  const helpers = await loadTestHelpers("export * from './test/support/host/index.ts'; export { launchBrowser } from './test/support/browser.ts'")
  const browser = await helpers.launchBrowser()
  try {
    console.log(`\nTime in Chromium, official AppBridge host, median of ${RUNS} runs (goal ratio ≤ ${TIME_GOAL})`)
    // Each column group is Duet (9), official (9) and the judged ratio (13), space-separated.
    const group = (s) => s.padEnd(34)
    console.log(
      `${''.padEnd(21)}${['navigation → initialized', 'HTML received → initialized', 'tool-result sent → first render', 'tool-result arrived → first render'].map(group).join('')}`,
    )
    console.log(`${'view'.padEnd(21)}${group(`${'Duet'.padEnd(9)} ${'official'.padEnd(9)} ratio`).repeat(4)}`.trimEnd())
    for (const view of VIEWS) {
      const samples = { duet: [], official: [] }
      await timeOnce(helpers, browser, built[view.name].duet, view) // warm-up (compile caches, fonts)
      await timeOnce(helpers, browser, built[view.name].official, view)
      for (let i = 0; i < RUNS; i++) {
        // Interleaved, so machine noise hits both alike.
        samples.duet.push(await timeOnce(helpers, browser, built[view.name].duet, view))
        samples.official.push(await timeOnce(helpers, browser, built[view.name].official, view))
      }
      const m = (k, which) => median(samples[which].map((s) => s[k]))
      const cols = ['init', 'start', 'render', 'own'].map(
        (k) => `${ms(m(k, 'duet')).padEnd(9)} ${ms(m(k, 'official')).padEnd(9)} ${judged(m(k, 'duet'), m(k, 'official'), TIME_GOAL).padEnd(13)}`,
      )
      console.log(`${view.name.padEnd(20)} ${cols.join(' ')}`.trimEnd())
    }
  } finally {
    await browser.close()
  }
}

main().catch((err) => {
  console.error(err)
  process.exitCode = 1
})
