// npm run bench:channel — Duet's SQLite channel store against the seed's algorithm (anchor), in one run.
// Prints appends per second (1 and 4 processes, backlog 0 / 1,000 / 10,000), the time to drain a backlog,
// and wake latency app→agent (`duet wait` exits) and agent→app (a waiting long-poll returns),
// each with the anchor's figure and the ratio. Goals: ≥ 10,000 appends/s per process, flat with backlog;
// wake p50 ≤ 20 ms. Each goal is printed at the end with "met" or "NOT met", computed from the figures.
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { openChannelStore } from '../dist/channel/index.js'
import { sqliteDriverName } from '../dist/channel/sqlite-driver.js'

const here = (p) => fileURLToPath(new URL(p, import.meta.url))
const WORKER = here('./channel/worker.js')
const ANCHOR = here('./channel/anchor.py')
const BIN = here('../dist/cli/bin.js')
const MESSAGE = { event: 'ask', data: { quote: 'We hold these truths to be self-evident', question: 'What does self-evident mean here?' } }
const APPENDS_PER_PROCESS = 3000
const ANCHOR_MAX_SECONDS = 2
const WAKE_SAMPLES = 20
const ANCHOR_WAKE_SAMPLES = 10
const APPENDS_GOAL = 10_000
// "Flat with backlog": at every backlog, each process still appends at least this share of its rate on an empty channel.
const FLAT_SHARE = 0.8
const WAKE_GOAL_MS = 20

const dirs = []
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'duet-bench-channel-'))
  dirs.push(d)
  return d
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
const now = () => process.hrtime.bigint()
const ms = (ns) => Number(ns) / 1e6

const LINE_TIMEOUT_MS = 60_000

/** Spawns a child and yields its stdout lines; a wait fails (never hangs) when the child dies or stays silent. */
function start(command, args) {
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] })
  const lines = []
  const waiters = []
  let buffer = ''
  let exitCode
  child.stdout.on('data', (chunk) => {
    buffer += chunk
    const parts = buffer.split('\n')
    buffer = parts.pop()
    for (const line of parts) {
      const waiter = waiters.shift()
      if (waiter) waiter.resolve(line)
      else lines.push(line)
    }
  })
  const exited = new Promise((resolve) =>
    child.once('exit', (code, signal) => {
      exitCode = code ?? signal
      for (const w of waiters.splice(0)) w.reject(new Error(`${command} ${args[0]} exited (${exitCode}) before printing a line`))
      resolve(code)
    }),
  )
  const line = () => {
    if (lines.length) return Promise.resolve(lines.shift())
    if (exitCode !== undefined) return Promise.reject(new Error(`${command} ${args[0]} has exited (${exitCode})`))
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${command} ${args[0]} printed nothing for ${LINE_TIMEOUT_MS / 1000} s`)), LINE_TIMEOUT_MS)
      waiters.push({
        resolve: (l) => {
          clearTimeout(timer)
          resolve(l)
        },
        reject: (e) => {
          clearTimeout(timer)
          reject(e)
        },
      })
    })
  }
  return { child, line, exited }
}

async function appendRun(kind, processes, backlog) {
  const dir = tempDir()
  const channel = `bench-${processes}-${backlog}`
  if (kind === 'duet') {
    const store = await openChannelStore({ dataDir: dir, limits: { maxPending: 10_000_000 } })
    for (let i = 0; i < backlog; i++) await store.send(channel, 'app-to-agent', MESSAGE)
    await store.dispose()
  } else {
    await start('python3', [ANCHOR, 'fill', dir, channel, String(backlog)]).exited
  }
  const workers = Array.from({ length: processes }, () =>
    kind === 'duet'
      ? start(process.execPath, [WORKER, 'append', dir, channel, String(APPENDS_PER_PROCESS)])
      : start('python3', [ANCHOR, 'append', dir, channel, String(APPENDS_PER_PROCESS), String(ANCHOR_MAX_SECONDS)]),
  )
  if (kind === 'duet') await Promise.all(workers.map((w) => w.line()))
  for (const w of workers) w.child.stdin.write('go\n')
  const results = (await Promise.all(workers.map((w) => w.line()))).map((l) => JSON.parse(l))
  await Promise.all(workers.map((w) => w.exited))
  const total = results.reduce((s, r) => s + r.done, 0)
  const slowest = Math.max(...results.map((r) => r.seconds))
  return { perProcess: results.reduce((s, r) => s + r.done / r.seconds, 0) / results.length, total: total / slowest }
}

async function drainTime(kind, backlog) {
  const dir = tempDir()
  const channel = `drain-${backlog}`
  if (kind === 'duet') {
    const store = await openChannelStore({ dataDir: dir, limits: { maxPending: 10_000_000 } })
    for (let i = 0; i < backlog; i++) await store.send(channel, 'app-to-agent', MESSAGE)
    const t0 = now()
    const got = await store.drain(channel, 'app-to-agent', { max: backlog })
    const elapsed = ms(now() - t0)
    await store.dispose()
    if (got.length !== backlog) throw new Error(`drained ${got.length} of ${backlog}`)
    return elapsed
  }
  await start('python3', [ANCHOR, 'fill', dir, channel, String(backlog)]).exited
  const p = start('python3', [ANCHOR, 'drain-time', dir, channel])
  const r = JSON.parse(await p.line())
  await p.exited
  if (r.count !== backlog) throw new Error(`anchor drained ${r.count} of ${backlog}`)
  return r.seconds * 1000
}

/** app→agent: a watcher process is armed, the app side sends, we time until the watcher exits. */
async function wakeWatcher(kind) {
  const dir = tempDir()
  const samples = []
  const store = kind === 'duet' ? await openChannelStore({ dataDir: dir }) : undefined
  const helper = kind === 'anchor' ? start('python3', [ANCHOR, 'helper', dir]) : undefined
  const n = kind === 'duet' ? WAKE_SAMPLES : ANCHOR_WAKE_SAMPLES
  for (let i = 0; i < n; i++) {
    // Duet's channel is minted as a display tool's is, so `duet wait` has no "no app has touched it" hint to print.
    const channel = store ? await store.open() : `wake-${i}`
    const watcher =
      kind === 'duet'
        ? start(process.execPath, [BIN, 'wait', channel, '--data-dir', dir, '--timeout', '30'])
        : start('python3', [ANCHOR, 'watch', dir, channel, '30'])
    // Let the watcher start and arm (process start-up is not what is measured), then vary the phase.
    await sleep(400 + Math.random() * 500)
    let sent
    if (store) {
      sent = now()
      await store.send(channel, 'app-to-agent', MESSAGE)
    } else {
      helper.child.stdin.write(`${channel}\n`)
      sent = BigInt(await helper.line())
    }
    const code = await watcher.exited
    const woke = now()
    if (code !== 0) throw new Error(`${kind} watcher exited ${code}`)
    samples.push(ms(woke - sent))
  }
  await store?.dispose()
  helper?.child.stdin.end()
  helper?.child.kill()
  return samples
}

/** agent→app: a reader process waits (long-poll for Duet, the 1.2 s poll loop for the anchor); time until it has the message. */
async function wakeLongPoll(kind) {
  const dir = tempDir()
  const channel = 'ui'
  const samples = []
  if (kind === 'duet') {
    const store = await openChannelStore({ dataDir: dir })
    const reader = start(process.execPath, [WORKER, 'longpoll', dir, channel])
    await reader.line()
    await sleep(300)
    for (let i = 0; i < WAKE_SAMPLES; i++) {
      await sleep(20 + Math.random() * 80)
      const sent = now()
      await store.send(channel, 'agent-to-app', MESSAGE)
      samples.push(ms(BigInt(await reader.line()) - sent))
    }
    reader.child.stdin.end()
    await reader.exited
    await store.dispose()
    return samples
  }
  const helper = start('python3', [ANCHOR, 'helper', dir])
  const poller = start('python3', [ANCHOR, 'poll', dir, channel, '1.2'])
  // The anchor's helper appends to agent_<ch>.json; the poller drains the same file, so the queue is the same.
  for (let i = 0; i < ANCHOR_WAKE_SAMPLES; i++) {
    await sleep(Math.random() * 1200)
    helper.child.stdin.write(`${channel}\n`)
    const sent = BigInt(await helper.line())
    samples.push(ms(BigInt(await poller.line()) - sent))
  }
  helper.child.stdin.end()
  helper.child.kill()
  poller.child.kill()
  return samples
}

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]
}
const fmt = (x, unit) => `${x >= 100 ? Math.round(x).toLocaleString('en-US') : x.toFixed(1)}${unit}`
const verdict = (ok) => (ok ? 'met' : 'NOT met')
const row = (label, ours, anchor, unit, higherIsBetter) => {
  const ratio = higherIsBetter ? ours / anchor : anchor / ours
  console.log(`  ${label.padEnd(44)} ${fmt(ours, unit).padStart(14)} ${fmt(anchor, unit).padStart(14)} ${`${ratio.toFixed(1)}×`.padStart(9)}`)
}

async function main() {
  const began = Date.now()
  console.log('Channel benchmark: Duet (SQLite store) vs the seed algorithm (JSON file + flock, python3)')
  console.log(`  Node ${process.versions.node}, SQLite driver: ${sqliteDriverName()} (set DUET_SQLITE_DRIVER=node or better-sqlite3 to compare)`)
  console.log(`  ${''.padEnd(44)} ${'duet'.padStart(14)} ${'anchor'.padStart(14)} ${'better by'.padStart(9)}`)
  console.log('Appends per second (per process; all processes together), one shared channel')
  // Per-process rates by process count, in backlog order, for the goals.
  const rates = new Map()
  for (const processes of [1, 4]) {
    rates.set(processes, [])
    for (const backlog of [0, 1000, 10_000]) {
      const ours = await appendRun('duet', processes, backlog)
      rates.get(processes).push(ours.perProcess)
      const anchor = await appendRun('anchor', processes, backlog)
      row(`${processes} proc, backlog ${backlog.toLocaleString('en-US')}: per process`, ours.perProcess, anchor.perProcess, '/s', true)
      if (processes > 1) row(`${processes} proc, backlog ${backlog.toLocaleString('en-US')}: total`, ours.total, anchor.total, '/s', true)
    }
  }
  console.log('Drain the whole backlog in one call')
  for (const backlog of [1000, 10_000])
    row(`backlog ${backlog.toLocaleString('en-US')}`, await drainTime('duet', backlog), await drainTime('anchor', backlog), ' ms', false)
  console.log(`Wake latency, send → reader has it (duet ${WAKE_SAMPLES} samples, anchor ${ANCHOR_WAKE_SAMPLES})`)
  const [watchOurs, watchAnchor] = [await wakeWatcher('duet'), await wakeWatcher('anchor')]
  row('app→agent, `duet wait` exits: p50', pct(watchOurs, 50), pct(watchAnchor, 50), ' ms', false)
  row('app→agent, `duet wait` exits: p99', pct(watchOurs, 99), pct(watchAnchor, 99), ' ms', false)
  const [pollOurs, pollAnchor] = [await wakeLongPoll('duet'), await wakeLongPoll('anchor')]
  row('agent→app, long-poll returns (anchor: 1.2 s poll): p50', pct(pollOurs, 50), pct(pollAnchor, 50), ' ms', false)
  row('agent→app, long-poll returns (anchor: 1.2 s poll): p99', pct(pollOurs, 99), pct(pollAnchor, 99), ' ms', false)
  const lowest = Math.min(...[...rates.values()].flat())
  const shares = [...rates].map(([processes, [empty, ...full]]) => [processes, Math.min(...full) / empty])
  const wakes = [pct(watchOurs, 50), pct(pollOurs, 50)]
  console.log('Goals')
  console.log(`  ≥ ${APPENDS_GOAL.toLocaleString('en-US')} appends/s per process (lowest ${fmt(lowest, '/s')}): ${verdict(lowest >= APPENDS_GOAL)}`)
  console.log(
    `  flat with backlog, every backlog ≥ ${FLAT_SHARE * 100}% of the empty channel's rate (${shares.map(([p, s]) => `${p} proc ${(s * 100).toFixed(0)}%`).join(', ')}): ${verdict(shares.every(([, s]) => s >= FLAT_SHARE))}`,
  )
  console.log(
    `  wake p50 ≤ ${WAKE_GOAL_MS} ms (\`duet wait\` ${fmt(wakes[0], ' ms')}, long-poll ${fmt(wakes[1], ' ms')}): ${verdict(wakes.every((w) => w <= WAKE_GOAL_MS))}`,
  )
  console.log(`Took ${((Date.now() - began) / 1000).toFixed(0)} s.`)
}

try {
  await main()
  // Replicas on one Redis: a send on one wakes a long poll on another (bench/channel/replicas.js).
  await (await import('./channel/replicas.js')).replicaWake()
  // The full loop in a browser: app asks -> agent woken -> answer rendered (bench/channel-round-trip.js).
  await (await import('./channel-round-trip.js')).main()
} finally {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
}
