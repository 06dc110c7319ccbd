// npm run bench:mcp (second part) — what the OpenAI Apps SDK dialect costs a view that never meets
// such a host: the forecast card and the minimal view built as one HTML file (vite +
// vite-plugin-singlefile), once as shipped and once with the driver's look-up of an Apps SDK host
// (src/mcp/apps-sdk-host.ts, imported by driver-core) swapped for a stub that finds no such host. The
// adapter itself is not in a view: the server puts it in the Apps SDK twin, whose extra weight is
// printed too. Prints each size, the difference and "met" / "NOT met" against the goal; asserts nothing.
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { appsSdkAdapterScript } from '../dist/protocol/index.js'
import { buildView } from './build-view.js'

const here = (p) => fileURLToPath(new URL(p, import.meta.url))
// At most about one kilobyte gzip more for a view that never meets an Apps SDK host.
const GOAL_BYTES = 1024
const STUB = here('./mcp/no-dialect.js')

const VIEWS = [
  { name: 'minimal', root: here('./mcp/minimal-duet/') },
  { name: 'forecast', root: here('../../../examples/forecast/') },
]

// Resolves the driver's import of its adapter to the stub.
const withoutDialect = {
  name: 'duet-bench-no-dialect',
  enforce: 'pre',
  resolveId(source, importer) {
    if (source === './apps-sdk-host.js' && importer && /[\\/]mcp[\\/]driver-core\.js$/.test(importer)) return STUB
    return undefined
  },
}

const kb = (n) => `${(n / 1024).toFixed(2)} KB`

console.log(`\nApps SDK dialect: its cost to a view that never meets such a host (goal ≤ ${kb(GOAL_BYTES)} gzip)`)
console.log(`${'view'.padEnd(12)}${'with dialect'.padEnd(16)}${'without (anchor)'.padEnd(20)}difference`)
for (const view of VIEWS) {
  const shipped = gzipSync(await buildView(view.root), { level: 9 }).length
  const anchor = gzipSync(await buildView(view.root, { plugins: [withoutDialect] }), { level: 9 }).length
  if (shipped === anchor) console.log(`${view.name}: the stub changed nothing; the bench no longer reaches the adapter`)
  const diff = shipped - anchor
  console.log(
    `${view.name.padEnd(12)}${`${kb(shipped)} gzip`.padEnd(16)}${`${kb(anchor)} gzip`.padEnd(20)}${kb(diff)} gzip, ${diff} B (${diff <= GOAL_BYTES ? 'met' : 'NOT met'})`,
  )
}

// What an Apps SDK host receives on top of the view: the adapter script in the twin's head.
const script = `<script>${appsSdkAdapterScript()}</script>`
const forecast = await buildView(VIEWS[1].root)
const added = gzipSync(forecast + script, { level: 9 }).length - gzipSync(forecast, { level: 9 }).length
console.log(`the Apps SDK twin carries the adapter script: ${script.length} B, ${kb(added)} gzip more for the forecast's twin (information, no goal)`)
