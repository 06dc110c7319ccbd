// npm run bench:sqlite-driver — the two SQLite drivers behind the channel and apps stores, node:sqlite
// (built in, the default) against better-sqlite3 (native; the anchor), in one process, rounds interleaved
// so that load from other processes falls on both alike. Each round: 2,000 channel sends, one drain of
// them, 500 app-data puts and 5,000 gets. Prints each driver's median CPU time per operation and the ratio; goal:
// node:sqlite within 1.2× of better-sqlite3 on every operation. Needs better-sqlite3 built for this Node.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openAppStore } from '../dist/apps/index.js'
import { openChannelStore } from '../dist/channel/index.js'
import { SQLITE_DRIVER_ENV } from '../dist/channel/sqlite-driver.js'

const ROUNDS = 9
const SENDS = 2000
const PUTS = 500
// Gets are quick: several passes, so each sample is long enough to stand above timer and scheduling noise.
const GET_PASSES = 10
const GOAL = 1.2
const DRIVERS = ['node', 'better-sqlite3']
const MESSAGE = { event: 'ask', data: { quote: 'We hold these truths to be self-evident', question: 'What does self-evident mean here?' } }

// CPU time of this process (user + system), not wall time: on a shared machine other processes' load
// stretches wall time at random, while the work a driver does stays what it is.
const now = () => {
  const { user, system } = process.cpuUsage()
  return user + system
}
const usPer = (start, n) => (now() - start) / n
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

async function round(driver) {
  process.env[SQLITE_DRIVER_ENV] = driver
  const dir = mkdtempSync(join(tmpdir(), 'duet-bench-sqlite-'))
  try {
    const store = await openChannelStore({ dataDir: dir, limits: { maxPending: 1_000_000 } })
    const channel = await store.open()
    let t = now()
    for (let i = 0; i < SENDS; i++) await store.send(channel, 'app-to-agent', MESSAGE)
    const send = usPer(t, SENDS)
    t = now()
    const drained = await store.drain(channel, 'app-to-agent', { max: SENDS })
    const drain = usPer(t, drained.length)
    await store.dispose()
    const apps = await openAppStore({ dataDir: dir })
    t = now()
    for (let i = 0; i < PUTS; i++) await apps.putData('bench', `k${i}`, { n: i, text: MESSAGE.data.quote })
    const put = usPer(t, PUTS)
    t = now()
    for (let pass = 0; pass < GET_PASSES; pass++) for (let i = 0; i < PUTS; i++) await apps.getData('bench', `k${i}`)
    const get = usPer(t, PUTS * GET_PASSES)
    await apps.close()
    return { send, drain, put, get }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const samples = Object.fromEntries(DRIVERS.map((d) => [d, []]))
await round('node') // warm-up: module loads and the first file creation are not what is measured
await round('better-sqlite3')
for (let r = 0; r < ROUNDS; r++) for (const driver of r % 2 ? [...DRIVERS].reverse() : DRIVERS) samples[driver].push(await round(driver))

console.log(`SQLite drivers on Node ${process.versions.node}: median of ${ROUNDS} interleaved rounds, CPU µs per operation`)
console.log(`  ${'operation'.padEnd(28)} ${'node:sqlite'.padStart(12)} ${'better-sqlite3'.padStart(15)} ${'ratio'.padStart(7)}`)
const ratios = []
for (const [op, label] of [
  ['send', `channel send (${SENDS})`],
  ['drain', 'channel drain, per message'],
  ['put', `app data put (${PUTS})`],
  ['get', `app data get (${PUTS * GET_PASSES})`],
]) {
  const [ours, anchor] = DRIVERS.map((d) => median(samples[d].map((s) => s[op])))
  ratios.push([label, ours / anchor])
  console.log(`  ${label.padEnd(28)} ${ours.toFixed(1).padStart(12)} ${anchor.toFixed(1).padStart(15)} ${`${(ours / anchor).toFixed(2)}×`.padStart(7)}`)
}
const worst = ratios.reduce((a, b) => (b[1] > a[1] ? b : a))
console.log(
  `Goal: node:sqlite within ${GOAL}× of better-sqlite3 on every operation (worst ${worst[1].toFixed(2)}×, ${worst[0]}): ${worst[1] <= GOAL ? 'met' : 'NOT met'}`,
)
