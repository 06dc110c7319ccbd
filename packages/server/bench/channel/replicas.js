// Wake latency across replicas on Redis: two `duet serve --http --redis-url` processes on one
// redis-server; the app's long poll (poll_ui_messages) waits on replica B while the agent's
// notify_ui lands on replica A. Anchor: the same send and poll on one replica, measured in the same run.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { loadTestHelpers } from '../../../../test/support/load-test-helpers.js'
import { serveHttp } from './serve-process.js'

const SAMPLES = 30
const GOAL_MS = 20

const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]

const replica = (redisUrl) => serveHttp(['--redis-url', redisUrl])

async function client(url) {
  const c = new Client({ name: 'bench', version: '1' }, { versionNegotiation: { mode: 'auto' } })
  await c.connect(new StreamableHTTPClientTransport(new URL(url)))
  return c
}

/** Send with `sender`, long-poll with `reader`: milliseconds from the send's start to the poll's answer. */
async function wakeSamples(sender, reader) {
  const channel = (await sender.callTool({ name: 'open_channel', arguments: {} })).structuredContent.channel_id
  const samples = []
  for (let i = 0; i < SAMPLES; i++) {
    const poll = reader.callTool({ name: 'poll_ui_messages', arguments: { channel_id: channel, wait_ms: 10_000 } })
    await sleep(50 + Math.random() * 100)
    const sent = performance.now()
    await sender.callTool({ name: 'notify_ui', arguments: { channel_id: channel, event: 'ping', data: { i } } })
    const answer = await poll
    if (answer.structuredContent?.messages?.length !== 1) throw new Error(`poll ${i} returned ${JSON.stringify(answer.structuredContent)}`)
    samples.push(performance.now() - sent)
  }
  return samples
}

/** Prints the cross-replica wake p50/p99 with its same-replica anchor and the ≤ 20 ms verdict. */
export async function replicaWake() {
  const { startRedis } = await loadTestHelpers("export { startRedis } from './packages/server/test/channel/redis-server.ts'")
  const redis = await startRedis()
  const replicas = []
  const clients = []
  try {
    for (let i = 0; i < 2; i++) replicas.push(await replica(redis.url))
    const [a, b] = await Promise.all(replicas.map((r) => client(r.url)))
    clients.push(a, b)
    const across = await wakeSamples(a, b)
    const same = await wakeSamples(a, a)
    const fmt = (x) => `${x.toFixed(1)} ms`
    console.log(`Wake across replicas on Redis: notify_ui on replica A → poll_ui_messages returns on replica B (${SAMPLES} samples; anchor: both on A)`)
    console.log(
      `  ${'across replicas: p50'.padEnd(44)} ${fmt(pct(across, 50)).padStart(14)} ${fmt(pct(same, 50)).padStart(14)} ${`${(pct(across, 50) / pct(same, 50)).toFixed(2)}× the anchor`.padStart(9)}`,
    )
    console.log(`  ${'across replicas: p99'.padEnd(44)} ${fmt(pct(across, 99)).padStart(14)} ${fmt(pct(same, 99)).padStart(14)}`)
    console.log(`  Goal: wake p50 across replicas ≤ ${GOAL_MS} ms (${fmt(pct(across, 50))}): ${pct(across, 50) <= GOAL_MS ? 'met' : 'NOT met'}`)
  } finally {
    await Promise.all(clients.map((c) => c.close().catch(() => {})))
    for (const r of replicas) r.child.kill('SIGKILL')
    await redis.stop()
  }
}
