// node packages/server/bench/channel-waiters.js (after npm run build) — wake cost against idle waiters, SQLite store.
// Prints the send latency p50 with 0, 1,000 and 10,000 idle long-polls waiting on other channels (goal: at most
// 1.2× the 0 case, which is the anchor measured in the same run), the server CPU time those sends cost, and the
// send → line latency of `duet wait --follow` (goal p50 ≤ 20 ms). Each goal ends with "met" or "NOT met".
import { spawn } from 'node:child_process'
import { setMaxListeners } from 'node:events'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { openChannelStore } from '../dist/channel/index.js'

const BIN = fileURLToPath(new URL('../dist/cli/bin.js', import.meta.url))
const SENDS = 200
const HERDS = [0, 1_000, 10_000]
const RATIO_GOAL = 1.2
// Enough sends that p99 shows a missed wake (a reader left to the 250 ms change poll).
const FOLLOW_SAMPLES = 80
const FOLLOW_GOAL_MS = 20
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
const p50 = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(p * xs.length) - 1)]
const verdict = (ok) => (ok ? 'met' : 'NOT met')

async function herd(n) {
  const dir = mkdtempSync(join(tmpdir(), 'duet-bench-waiters-'))
  const store = await openChannelStore({ dataDir: dir })
  const abort = new AbortController()
  // One signal ends every idle waiter of the herd.
  setMaxListeners(0, abort.signal)
  try {
    // Idle waiters on their own channels (each opens its channel on first use), all long-polling.
    const waits = []
    for (let i = 0; i < n; i++) waits.push(store.read(`idle-${i}`, 'app-to-agent', { waitMs: 600_000, signal: abort.signal }))
    await sleep(n ? 1000 : 100)
    const busy = 'busy-channel'
    await store.send(busy, 'agent-to-app', { event: 'warm' })
    const times = []
    const cpu = process.cpuUsage()
    for (let i = 0; i < SENDS; i++) {
      const t = performance.now()
      await store.send(busy, 'agent-to-app', { event: 'e', data: { i } })
      times.push(performance.now() - t)
      // Lets the WAL watcher's events arrive between sends, as they would between a real server's calls.
      await sleep(2)
    }
    const used = process.cpuUsage(cpu)
    abort.abort()
    await Promise.all(waits)
    return { p50: p50(times), cpuMs: (used.user + used.system) / 1000 }
  } finally {
    await store.dispose()
    rmSync(dir, { recursive: true, force: true })
  }
}

async function followLatency() {
  const dir = mkdtempSync(join(tmpdir(), 'duet-bench-follow-'))
  const store = await openChannelStore({ dataDir: dir })
  const channel = await store.open()
  const child = spawn(process.execPath, [BIN, 'wait', channel, '--follow', '--data-dir', dir], { stdio: ['ignore', 'pipe', 'inherit'] })
  let pending
  let buffer = ''
  child.stdout.on('data', (chunk) => {
    buffer += chunk
    while (buffer.includes('\n')) {
      buffer = buffer.slice(buffer.indexOf('\n') + 1)
      pending?.()
    }
  })
  try {
    await sleep(1500)
    const times = []
    for (let i = 0; i < FOLLOW_SAMPLES + 2; i++) {
      const line = new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('duet wait --follow printed no line within 10 s')), 10_000)
        pending = () => {
          clearTimeout(timer)
          resolve()
        }
      })
      const t = performance.now()
      await store.send(channel, 'app-to-agent', { event: 'e', data: { i } })
      await line
      // The first two warm the follower up (its watcher and first query).
      if (i >= 2) times.push(performance.now() - t)
      await sleep(50)
    }
    return times
  } finally {
    child.kill('SIGTERM')
    await store.dispose()
    rmSync(dir, { recursive: true, force: true })
  }
}

const results = []
for (const n of HERDS) results.push({ n, ...(await herd(n)) })
const base = results[0]
console.log('SQLite send latency with idle waiters on other channels (same process as the waiters):')
for (const r of results) {
  const ratio = r.p50 / base.p50
  console.log(
    `  ${String(r.n).padStart(6)} idle waiters: send p50 ${r.p50.toFixed(2)} ms (${ratio.toFixed(2)}× the 0 case), server CPU for ${SENDS} sends ${r.cpuMs.toFixed(0)} ms`,
  )
}
const followTimes = await followLatency()
const follow = p50(followTimes)
console.log(
  `duet wait --follow: send → line p50 ${follow.toFixed(1)} ms, p90 ${pct(followTimes, 0.9).toFixed(1)} ms, p99 ${pct(followTimes, 0.99).toFixed(1)} ms (${followTimes.length} sends)`,
)
console.log('Goals:')
for (const r of results.slice(1)) {
  console.log(`  send p50 with ${r.n} idle waiters ≤ ${RATIO_GOAL}× the 0 case: ${(r.p50 / base.p50).toFixed(2)}× — ${verdict(r.p50 <= base.p50 * RATIO_GOAL)}`)
}
console.log(`  duet wait --follow send → line p50 ≤ ${FOLLOW_GOAL_MS} ms: ${follow.toFixed(1)} ms — ${verdict(follow <= FOLLOW_GOAL_MS)}`)
