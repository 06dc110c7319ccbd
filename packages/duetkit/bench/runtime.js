// Runtime benchmark: (a) min+gzip size of a counter app built with Duet, (b) time to update every
// 10th row of a 1,000-row keyed list in Chromium, Duet against hand-written snabbdom in the same run.
// Run with `npm run bench:runtime` (it builds first: the app is bundled from the built package).
import { build } from 'esbuild'
import { gzipSync } from 'node:zlib'
import { fileURLToPath } from 'node:url'
import { COUNTER_APP, DEPS_ONLY, LIST_PAGE } from './runtime/sources.js'
import { duetShims } from '../dist/build/index.js'
import { loadTestHelpers } from '../../../test/support/load-test-helpers.js'

const here = fileURLToPath(new URL('.', import.meta.url))
const SIZE_GOAL_KB = 12
const RATIO_GOAL = 1.5
const WARMUP = 20
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 100)

async function bundle(contents, minify, plugins = []) {
  const out = await build({
    plugins,
    stdin: { contents, loader: 'jsx', resolveDir: here },
    bundle: true,
    write: false,
    minify,
    format: 'iife',
    jsx: 'automatic',
    jsxImportSource: 'duetkit',
    // Resolve `duet` through node_modules to the built package, not through tsconfig paths to src/.
    tsconfigRaw: {},
    logLevel: 'silent',
  })
  return out.outputFiles[0].contents
}

const kb = (n) => (n / 1024).toFixed(2)

async function sizes() {
  const app = await bundle(COUNTER_APP, true)
  const deps = await bundle(DEPS_ONLY, true)
  const aliased = await bundle(COUNTER_APP, true, [duetShims()])
  const appGz = gzipSync(app, { level: 9 }).length
  const aliasedGz = gzipSync(aliased, { level: 9 }).length
  const depsGz = gzipSync(deps, { level: 9 }).length
  console.log('(a) counter app, esbuild --minify, gzip -9')
  console.log(
    `    app bundle:           ${kb(app.length)} KB min, ${kb(appGz)} KB gzip (goal <= ${SIZE_GOAL_KB} KB gzip: ${appGz / 1024 <= SIZE_GOAL_KB ? 'met' : 'NOT met'})`,
  )
  console.log(
    `    with duetkit/vite's shims: ${kb(aliased.length)} KB min, ${kb(aliasedGz)} KB gzip (goal: ${aliasedGz / 1024 <= SIZE_GOAL_KB ? 'met' : 'NOT met'})`,
  )
  // The app carries no snabbdom code (Duet patches with its own); snabbdom's patcher is printed for scale.
  console.log(`    snabbdom's patcher, not in the app: ${kb(deps.length)} KB min, ${kb(depsGz)} KB gzip`)
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.floor(s.length / 2)]
}

async function listUpdate() {
  const code = Buffer.from(await bundle(LIST_PAGE, true)).toString('utf8')
  const { launchBrowser } = await loadTestHelpers("export { launchBrowser } from './test/support/browser.ts'")
  const browser = await launchBrowser()
  try {
    const page = await browser.newPage()
    const errors = []
    page.on('pageerror', (e) => errors.push(String(e)))
    await page.setContent(
      '<!doctype html><html><body><div id="duet"></div><div id="snabbdom"><div></div></div><div id="thunked"><div></div></div></body></html>',
    )
    await page.addScriptTag({ content: code })
    if (errors.length) throw new Error(`bench page failed: ${errors.join('; ')}`)
    const times = await page.evaluate(
      async ({ warmup, rounds, BATCH }) => {
        const kinds = ['duet', 'snabbdom', 'thunked']
        const out = { duet: [], snabbdom: [], thunked: [] }
        for (let r = 0; r < warmup + rounds; r++) {
          // Rotate the order so no variant always runs right after garbage from another.
          for (let k = 0; k < kinds.length; k++) {
            const kind = kinds[(r + k) % kinds.length]
            // Ten updates per sample: Chromium rounds performance.now() to 0.1 ms without isolation.
            const t0 = performance.now()
            for (let j = 0; j < BATCH; j++) await window.bench[kind](r * BATCH + j)
            const dt = (performance.now() - t0) / BATCH
            if (r >= warmup) out[kind].push(dt)
          }
        }
        return out
      },
      { warmup: WARMUP, rounds: ROUNDS, BATCH: 10 },
    )
    // Check all three really patched the page the same way.
    const labels = await page.evaluate(() => ['duet', 'snabbdom', 'thunked'].map((id) => document.querySelector(`#${id} tr:nth-child(11) .label`)?.textContent))
    if (new Set(labels).size !== 1 || !labels[0]) throw new Error(`the three lists differ after the run: ${labels.join(' | ')}`)
    const d = median(times.duet)
    const s = median(times.snabbdom)
    const t = median(times.thunked)
    console.log(`(b) update every 10th row of a 1,000-row keyed list, Chromium, median of ${ROUNDS} samples of 10 updates after ${WARMUP} warm-up`)
    console.log(`    Duet (Collection):          ${d.toFixed(3)} ms`)
    console.log(`    hand-written snabbdom:      ${s.toFixed(3)} ms`)
    console.log(`    hand-written snabbdom+thunk: ${t.toFixed(3)} ms`)
    console.log(`    ratio Duet / snabbdom:       ${(d / s).toFixed(2)} (goal <= ${RATIO_GOAL}: ${d / s <= RATIO_GOAL ? 'met' : 'NOT met'})`)
    console.log(`    ratio Duet / snabbdom+thunk: ${(d / t).toFixed(2)}`)
    console.log(`    row 11 label in each page:   ${labels.join(' | ')}`)
  } finally {
    await browser.close()
  }
}

await sizes()
await listUpdate()
