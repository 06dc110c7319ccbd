// npm run bench:mcp — size and speed of a Duet MCP App view against two anchors: the same view on the
// official ext-apps `App`, and (for the forecast card) the floor, a hand-written card with no framework
// and a 40-line postMessage client. All are built as one HTML file (vite + vite-plugin-singlefile) and
// timed in Chromium with the official AppBridge as host. Prints figures and ratios, each goal with
// "met" or "NOT met"; asserts nothing.
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { loadTestHelpers } from '../../../test/support/load-test-helpers.js'
import { buildView } from './build-view.js'

const here = (p) => fileURLToPath(new URL(p, import.meta.url))
const RUNS = Number(process.env.BENCH_RUNS ?? 21)
// Duet's view at most a fifth of the official App's size, and its start-up and render in at most half the time.
const SIZE_GOAL = 0.2
const TIME_GOAL = 0.5
// This round's size goals on the way to SIZE_GOAL, and start-up against the hand-written floor.
const FORECAST_GOALS = [
  { kb: 15, ratio: 0.25, when: 'this round' },
  { kb: 12, ratio: SIZE_GOAL, when: 'next' },
]
const MINIMAL_GOAL_KB = 10
const FLOOR_INIT_GOAL = 1.25

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
    floor: here('./mcp/forecast-floor/'),
    rendered: "document.querySelectorAll('.day').length === 3",
    result: { content: [{ type: 'text', text: 'three days' }], structuredContent: { city: 'Oslo', days } },
  },
]

// BENCH_VIEWS=forecast times one view only.
const VIEWS = ALL_VIEWS.filter((v) => !process.env.BENCH_VIEWS || process.env.BENCH_VIEWS.split(',').includes(v.name))

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
  console.log('MCP Apps view: Duet against the official ext-apps App and a hand-written floor (single-file HTML builds)\n')
  const built = {}
  for (const view of VIEWS) {
    built[view.name] = { duet: await buildView(view.duet), official: await buildView(view.official, { withDuet: false }) }
    if (view.floor) built[view.name].floor = await buildView(view.floor, { withDuet: false })
  }
  const gz = (html) => (html === undefined ? undefined : gzipSync(html).length)

  console.log(
    `${`Size (goal ratio ≤ ${SIZE_GOAL.toFixed(3)})`.padEnd(26)}Duet raw   gzip      official raw  gzip      floor gzip  ratio raw        ratio gzip       Duet/floor gzip`,
  )
  for (const view of VIEWS) {
    const d = built[view.name].duet
    const o = built[view.name].official
    const f = built[view.name].floor
    const [dz, oz, fz] = [gz(d), gz(o), gz(f)]
    console.log(
      `${view.name.padEnd(25)} ${kb(d.length).padEnd(10)} ${kb(dz).padEnd(9)} ${kb(o.length).padEnd(13)} ${kb(oz).padEnd(9)} ${(fz ? kb(fz) : '-').padEnd(11)} ${judged(d.length, o.length, SIZE_GOAL).padEnd(16)} ${judged(dz, oz, SIZE_GOAL).padEnd(16)} ${fz ? `${ratio(dz, fz)}×` : '-'}`,
    )
  }
  const goal = (text, ok) => console.log(`  ${text.padEnd(64)} ${ok ? 'met' : 'NOT met'}`)
  console.log('\nSize goals (gzip)')
  if (built.forecast) {
    const [dz, oz] = [gz(built.forecast.duet), gz(built.forecast.official)]
    for (const g of FORECAST_GOALS) {
      goal(`forecast ≤ ${g.kb} KB (${g.when}): ${kb(dz)}`, dz <= g.kb * 1024)
      goal(`forecast ≤ ${g.ratio}× official (${g.when}): ${ratio(dz, oz)}×`, dz / oz <= g.ratio)
    }
  }
  if (built.minimal) goal(`minimal ≤ ${MINIMAL_GOAL_KB} KB: ${kb(gz(built.minimal.duet))}`, gz(built.minimal.duet) <= MINIMAL_GOAL_KB * 1024)
  if (built.forecast) {
    // Pay for what you use: the same card on the driver with every feature.
    const full = gz(await buildView(here('./mcp/forecast-full/')))
    const lean = gz(built.forecast.duet)
    console.log(
      `\nforecast on makeMcpAppDriver (every feature): ${kb(full)} gzip; on makeLeanMcpAppDriver (its 3 features): ${kb(lean)} (${kb(full - lean)} less)`,
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
    const floors = []
    for (const view of VIEWS) {
      const kinds = Object.keys(built[view.name])
      const samples = Object.fromEntries(kinds.map((k) => [k, []]))
      // Warm-up (compile caches, fonts), then interleaved runs, so machine noise hits every variant alike.
      // Each round starts with the next variant: the first page of a round is measurably slower (it meets
      // the previous round's teardown), which would otherwise always fall on the same one (Duet).
      for (const k of kinds) await timeOnce(helpers, browser, built[view.name][k], view)
      for (let i = 0; i < RUNS; i++) {
        for (let j = 0; j < kinds.length; j++) {
          const k = kinds[(i + j) % kinds.length]
          samples[k].push(await timeOnce(helpers, browser, built[view.name][k], view))
        }
      }
      const m = (k, which) => median(samples[which].map((s) => s[k]))
      const cols = ['init', 'start', 'render', 'own'].map(
        (k) => `${ms(m(k, 'duet')).padEnd(9)} ${ms(m(k, 'official')).padEnd(9)} ${judged(m(k, 'duet'), m(k, 'official'), TIME_GOAL).padEnd(13)}`,
      )
      console.log(`${view.name.padEnd(20)} ${cols.join(' ')}`.trimEnd())
      if (samples.floor) floors.push({ view: view.name, duet: m('init', 'duet'), official: m('init', 'official'), floor: m('init', 'floor') })
    }
    for (const f of floors) {
      console.log(`\nnavigation → initialized against the hand-written floor, ${f.view}: Duet ${ms(f.duet)}, official ${ms(f.official)}, floor ${ms(f.floor)}`)
      goal(`init ≤ ${FLOOR_INIT_GOAL}× the floor: ${ratio(f.duet, f.floor)}× (official ${ratio(f.official, f.floor)}×)`, f.duet / f.floor <= FLOOR_INIT_GOAL)
    }
  } finally {
    await browser.close()
  }
}

main().catch((err) => {
  console.error(err)
  process.exitCode = 1
})
