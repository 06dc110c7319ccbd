// node packages/server/bench/channel-tool-waiters.js (after npm run build) — wake cost against idle waiters,
// measured through tool calls: a real `duet serve --http` process (SQLite store), the SDK client calling
// notify_ui, while 0, 1,000 and 10,000 idle long polls (poll_agent_messages with wait_seconds, raw HTTP
// requests) wait in that server on other channels. Prints the send p50 (goal: at most 1.2× the 0 case, the
// anchor measured in the same run) and the server's CPU time for the sends (from /proc), with "met"/"NOT met".
import { setMaxListeners } from 'node:events'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { serveHttp } from './channel/serve-process.js'

const SENDS = 200
const HERDS = [0, 1_000, 10_000]
const RATIO_GOAL = 1.2
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
const p50 = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const verdict = (ok) => (ok ? 'met' : 'NOT met')

/** The process's user + system CPU time in milliseconds, read from /proc (Linux). */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100
}

const serve = (dir) => serveHttp(['--data-dir', dir])

async function herd(n) {
  const dir = mkdtempSync(join(tmpdir(), 'duet-bench-tool-waiters-'))
  const server = await serve(dir)
  const abort = new AbortController()
  // One signal ends every long poll of the herd.
  setMaxListeners(0, abort.signal)
  let settled = 0
  const client = new Client({ name: 'bench', version: '1' })
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)))
    const waits = []
    for (let i = 0; i < n; i++) {
      const body = JSON.stringify({
        jsonrpc: '2.0',
        id: i,
        method: 'tools/call',
        params: { name: 'poll_agent_messages', arguments: { channel_id: `idle-${i}`, wait_seconds: 50 } },
      })
      waits.push(
        fetch(server.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
          body,
          signal: abort.signal,
        })
          .then((r) => r.text())
          .catch(() => {})
          .finally(() => settled++),
      )
      // Paced, so the herd is in place without a connection storm.
      if (i % 200 === 199) await sleep(50)
    }
    // Let the herd settle into its waits (each poll has opened its channel and armed its wake-up).
    await sleep(n ? 3000 : 200)
    const channel = (await client.callTool({ name: 'open_channel', arguments: {} })).structuredContent.channel_id
    for (let i = 0; i < 5; i++) await client.callTool({ name: 'notify_ui', arguments: { channel_id: channel, event: 'warm' } })
    const times = []
    const cpu = cpuMs(server.child.pid)
    for (let i = 0; i < SENDS; i++) {
      const t = performance.now()
      const r = await client.callTool({ name: 'notify_ui', arguments: { channel_id: channel, event: 'e', data: { i } } })
      times.push(performance.now() - t)
      if (r.isError) throw new Error(`notify_ui failed: ${JSON.stringify(r.content)}`)
      await sleep(2)
    }
    const used = cpuMs(server.child.pid) - cpu
    // The figure means something only if the herd was still waiting while the sends ran.
    return { p50: p50(times), cpuMs: used, waiting: n - settled }
  } finally {
    abort.abort()
    await client.close().catch(() => {})
    server.child.kill('SIGKILL')
    rmSync(dir, { recursive: true, force: true })
  }
}

const results = []
for (const n of HERDS) results.push({ n, ...(await herd(n)) })
const base = results[0]
console.log(`notify_ui through a duet serve --http process (SQLite), with idle poll_agent_messages long polls on other channels in that server:`)
for (const r of results) {
  console.log(
    `  ${String(r.n).padStart(6)} idle waiters (${r.waiting} still waiting after the sends): send p50 ${r.p50.toFixed(2)} ms (${(r.p50 / base.p50).toFixed(2)}× the 0 case), server CPU for ${SENDS} sends ${r.cpuMs.toFixed(0)} ms`,
  )
}
console.log('Goals:')
for (const r of results.slice(1)) {
  console.log(
    `  tool send p50 with ${r.n} idle waiters ≤ ${RATIO_GOAL}× the 0 case: ${(r.p50 / base.p50).toFixed(2)}× — ${verdict(r.p50 <= base.p50 * RATIO_GOAL)}`,
  )
}
