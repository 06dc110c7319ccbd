// node packages/server/bench/compile.js (after npm run build) — what display_component costs on the compile pool.
// 1. Latency: the p50 of display_component (a fresh component each call, so every call compiles on a warm
//    worker) minus the p50 of display_ui_to_user (no compile: the anchor), both over HTTP on one
//    agent-apps server, interleaved in the same run. Goal: at most 30 ms.
// 2. Memory: N = 8 hostile compiles at once (string-folding balloons that grow to gigabytes, and deep JSX
//    that runs ~20 s) on a pool with the default size and limits; the peak resident memory of the pool's
//    whole process tree (every worker and its esbuild service), sampled every 5 ms, against the pool's
//    configured limit (workers × maxMemoryMb). Goal: the peak within that limit.
import { readdirSync, readFileSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { createAgentAppsServer } from '../dist/apps/agent-apps-server.js'
import { compileIn } from '../dist/apps/compile-component.js'
import { createCompilePool } from '../dist/apps/compile-pool.js'

const CALLS = 100
const WARMUP = 8
const GOAL_MS = 30
const HOSTILE = 8
const p50 = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const verdict = (ok) => (ok ? 'met' : 'NOT met')
const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(0)} MB`

const component = (i) => `import { xs } from 'duetkit'
function Counter({ state }) {
  return <button type="button" className="inc">{\`Clicked \${state.n} times (${i})\`}</button>
}
Counter.initialState = { n: 0 }
Counter.intent = ({ DOM }) => ({ INC: xs.merge(DOM.click('.inc')) })
Counter.model = { INC: (state) => ({ n: state.n + 1 }) }
export default Counter
`
const html = (i) =>
  `<button type="button" id="inc">Clicked 0 times (${i})</button><script>let n = 0; inc.onclick = () => { inc.textContent = 'Clicked ' + ++n + ' times' }</script>`

async function latency() {
  const dataDir = mkdtempSync(join(tmpdir(), 'duet-bench-compile-'))
  const app = await createAgentAppsServer({ dataDir })
  const { url } = await app.listen({ http: { port: 0 }, handleSignals: false })
  const client = new Client({ name: 'bench', version: '1' })
  await client.connect(new StreamableHTTPClientTransport(new URL(url)))
  const timed = async (name, args) => {
    const started = performance.now()
    const result = await client.callTool({ name, arguments: args })
    if (result.isError) throw new Error(`${name} failed: ${result.content[0].text}`)
    return performance.now() - started
  }
  const html50 = []
  const component50 = []
  try {
    for (let i = 0; i < WARMUP; i++) {
      await timed('display_ui_to_user', { html: html(`w${i}`) })
      await timed('display_component', { source: component(`w${i}`) })
    }
    for (let i = 0; i < CALLS; i++) {
      html50.push(await timed('display_ui_to_user', { html: html(i) }))
      component50.push(await timed('display_component', { source: component(i) }))
    }
  } finally {
    await client.close()
    await app.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
  const anchor = p50(html50)
  const compiled = p50(component50)
  const extra = compiled - anchor
  console.log(`display_ui_to_user p50 (anchor, no compile): ${anchor.toFixed(1)} ms`)
  console.log(`display_component p50 (a fresh component each call): ${compiled.toFixed(1)} ms`)
  console.log(`display_component p50 - display_ui_to_user p50: ${extra.toFixed(1)} ms (goal <= ${GOAL_MS} ms): ${verdict(extra <= GOAL_MS)}`)
}

/** Parent pid of each live process, from /proc. */
function parents() {
  const map = new Map()
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      if (fields[0] !== 'Z') map.set(Number(name), Number(fields[1]))
    } catch {}
  }
  return map
}
const rss = (pid) => {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024
  } catch {
    return 0
  }
}

async function memory() {
  const pool = createCompilePool()
  const limit = pool.size * pool.limits.maxMemoryMb * 1024 * 1024
  const balloon = (i) => `const x = ${'"xxxxxxxxxx"+'.repeat(20_000)}"x"\nexport default () => <p>{x}</p>\n// ${i}\n`
  const loop = (i) => `export default () => ${'<b>'.repeat(100_000)}x${'</b>'.repeat(100_000)}\n// ${i}\n`
  // The pool's processes: children of this process (the workers) and theirs (esbuild), listed now and then.
  let tree = []
  let peak = 0
  let listed = 0
  const sampler = setInterval(() => {
    if (Date.now() - listed > 100) {
      const byParent = parents()
      const workers = [...byParent].filter(([, parent]) => parent === process.pid).map(([pid]) => pid)
      tree = [...workers, ...[...byParent].filter(([, parent]) => workers.includes(parent)).map(([pid]) => pid)]
      listed = Date.now()
    }
    let sum = 0
    for (const pid of tree) sum += rss(pid)
    peak = Math.max(peak, sum)
  }, 5)
  const started = Date.now()
  let answers
  try {
    answers = await Promise.all(
      Array.from({ length: HOSTILE }, (_, i) =>
        compileIn(pool, i % 2 ? balloon(i) : loop(i), `subject-${i}`).then(
          () => 'compiled',
          (err) => `${err.code}${err.data?.limit ? ` (${err.data.limit})` : ''}`,
        ),
      ),
    )
  } finally {
    clearInterval(sampler)
    await pool.close()
  }
  const counts = {}
  for (const a of answers) counts[a] = (counts[a] ?? 0) + 1
  console.log(
    `${HOSTILE} hostile compiles at once: answered in ${((Date.now() - started) / 1000).toFixed(1)} s: ${Object.entries(counts)
      .map(([k, n]) => `${n} × ${k}`)
      .join(', ')}`,
  )
  console.log(
    `peak RSS of the pool's process tree: ${mb(peak)} (limit ${pool.size} workers × ${pool.limits.maxMemoryMb} MB = ${mb(limit)}): ${verdict(peak <= limit)}`,
  )
}

await latency()
await memory()
