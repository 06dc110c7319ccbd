// node packages/server/bench/tenants.js [--redis] (after npm run build) — the noisy neighbour.
// One real `duet serve --http --sessions` (SQLite, or Redis with --redis: a throwaway redis-server) behind the
// real oidc-provider issuer the tests use, two users with tokens from it. The victim runs an agent's
// ordinary turn over and over (open_channel, notify_ui, poll_agent_messages, display_ui_to_user,
// display_component of a small component, put_app_data, get_app_data, get_render, tools/list,
// close_channel of its three channels): alone (the baseline) and while the other user floods the same server (fresh
// sessions by raw initialize, channels up to her quota, megabyte messages up to her byte quota, renders,
// hostile and benign compiles, rapid calls of made-up tools and cheap tools), in alternating rounds
// (alone, flood, alone, flood…) so a change in the machine's load falls on both. The victim's p50/p99 tool
// latency and errors in both phases, side by side, in the same run, and where the machine's CPU went in
// each (the server, its compile workers, the bench's own clients, other work) with the server's
// event-loop delay (a preloaded probe, event-loop-probe.js). Goals: no victim error at all, and the
// victim's p99 under the flood within 2× of its own baseline p99.
// Loopback only; ends by itself (a hard stop at 240 s) and stops the server (its compile workers with it),
// the issuer and redis-server, on success, failure or Ctrl-C.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { loadTestHelpers } from '../../../test/support/load-test-helpers.js'
import { serveHttp } from './channel/serve-process.js'
import { sampleCpu } from './process-cpu.js'

const REDIS = process.argv.includes('--redis')
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 10)
// Phases alternate: alone, flood, alone, flood…; each phase's figures are over all its rounds.
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const WARMUP = 3
const TURN_MS = 1000
const HARD_STOP_MS = 240_000
const FLOOD_PHASE_MAX_SECONDS = 90
const RESOURCE = 'http://127.0.0.1/duet-tenants-bench/mcp'
// A rate limit as a shared server would run one: the victim's turn stays far below it, the flood does not.
// Its whole-caller bucket is the default, twice that: 40 at once, 20 a second.
const RATE_LIMIT = '20:10'
// Lower than the defaults (1000 channels, 64 MiB) so the flood reaches it within the time box; every other quota is the default.
const CHANNELS_PER_SUBJECT = 100
const BYTES_PER_SUBJECT = 16 * 1024 * 1024
// BENCH_FLOOD=kind,kind runs only those parts of the flood (sessions, channels, bytes, renders, hostile, benign, made-up, rapid).
const FLOOD_KINDS = process.env.BENCH_FLOOD?.split(',')
const P99_FACTOR = 2
// BENCH_SERVE_ARGS adds duet serve flags (e.g. "--max-in-flight-per-subject 2"), to try other limits.
const EXTRA_ARGS = process.env.BENCH_SERVE_ARGS?.split(/\s+/).filter(Boolean) ?? []

const percentile = (xs, p) => {
  if (xs.length === 0) return Number.NaN
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)]
}
const ms = (n) => `${n.toFixed(1)} ms`
const verdict = (ok) => (ok ? 'met' : 'NOT met')
const sleep = (t) => new Promise((resolve) => setTimeout(resolve, t))
const loadAverage = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')

/** The server's event-loop delay since the last read (its preloaded probe writes it on SIGUSR2). */
async function eventLoopDelay(child, file) {
  rmSync(file, { force: true })
  child.kill('SIGUSR2')
  for (let i = 0; i < 300; i++) {
    try {
      if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8'))
    } catch {
      // Being written: read again.
    }
    await sleep(10)
  }
  return undefined // not written in 3 s (a very loaded machine): this phase shows n/a
}

/** This process's other children (redis-server), whose CPU counts apart from the server's. */
function othersOf(serverPid) {
  const pids = []
  try {
    for (const task of readdirSync(`/proc/${process.pid}/task`))
      for (const pid of readFileSync(`/proc/${process.pid}/task/${task}/children`, 'utf8').split(' '))
        if (pid && Number(pid) !== serverPid) pids.push(Number(pid))
  } catch {
    // No /proc: the figures show 0.
  }
  return pids
}

/** The outcome of a call as a short code: ok, the tool error's code, or what the transport threw. */
function codeOf(result, thrown) {
  if (thrown) {
    const text = String(thrown?.message ?? thrown)
    // The SDK throws an HTTP refusal with its JSON-RPC body in the message: its data.code names it.
    const named = /"data":\{[^}]*"code":"([A-Z_]+)"/.exec(text)?.[1]
    if (named) return named
    // A JSON-RPC error answer (an unknown tool is -32602 in this SDK), as opposed to an HTTP refusal.
    if (typeof thrown?.code === 'number' && !/HTTP \d{3}/.test(text)) return `JSON-RPC error ${thrown.code}`
    const status = /HTTP (\d{3})/.exec(text)?.[1] ?? /\b(4\d\d|5\d\d)\b/.exec(text)?.[1]
    return status === '429' ? 'RATE_LIMITED (429)' : status ? `HTTP ${status}` : `thrown: ${text.slice(0, 80)}`
  }
  if (!result?.isError) return 'ok'
  return result.structuredContent?.error?.code ?? String(result.content?.[0]?.text ?? '').split(':')[0]
}

// ---- processes, stopped whatever happens ------------------------------------------------------------
const cleanups = []
let cleaned = false
async function cleanUp() {
  if (cleaned) return
  cleaned = true
  for (const stop of cleanups.reverse()) await stop().catch(() => {})
}
/** Stops `duet serve` gracefully (it ends its compile workers), killing it if it has not exited within 10 s. */
function stopChild(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve()
    const kill = setTimeout(() => child.kill('SIGKILL'), 10_000)
    child.once('exit', () => {
      clearTimeout(kill)
      resolve()
    })
    child.kill('SIGTERM')
  })
}

// ---- the two users ---------------------------------------------------------------------------------
async function connect(url, token, name) {
  const client = new Client({ name, version: '1' })
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }))
  return client
}

const fragment = (i) => `<p id="n">turn ${i}</p><script>document.getElementById('n').title = 'ready'</script>`
const component = (i) => `import { xs } from 'duetkit'
function Tally({ state }) {
  return <button type="button" className="add">{\`turn ${i}: \${state.n}\`}</button>
}
Tally.initialState = { n: 0 }
Tally.intent = ({ DOM }) => ({ ADD: xs.merge(DOM.click('.add')) })
Tally.model = { ADD: (state) => ({ n: state.n + 1 }) }
export default Tally
`

/** One agent turn of the victim; every call timed into `times[tool]`, every failure into `errors`. */
async function victimTurn(client, i, times, errors) {
  const call = async (name, args) => {
    const started = performance.now()
    let result
    let thrown
    try {
      result = name === 'tools/list' ? await client.listTools() : await client.callTool({ name, arguments: args })
    } catch (err) {
      thrown = err
    }
    ;(times[name] ??= []).push(performance.now() - started)
    const code = codeOf(result, thrown)
    if (code !== 'ok') errors.push(`${name}: ${code}${thrown ? '' : ` ${String(result.content?.[0]?.text ?? '').slice(0, 120)}`}`)
    return code === 'ok' ? (result.structuredContent ?? {}) : undefined
  }
  const opened = await call('open_channel', {})
  const channel = opened?.channel_id
  if (channel) {
    await call('notify_ui', { channel_id: channel, event: 'turn', data: { i } })
    await call('poll_agent_messages', { channel_id: channel })
  }
  const drawn = await call('display_ui_to_user', { html: fragment(i), title: `turn ${i}` })
  const shown = await call('display_component', { source: component(i), title: `tally ${i}` })
  await call('put_app_data', { app: 'victim-notes', key: 'turn', value: { i } })
  const read = await call('get_app_data', { app: 'victim-notes', key: 'turn' })
  if (read && read.value?.i !== i) errors.push(`get_app_data: read ${JSON.stringify(read.value)}, wrote { i: ${i} }`)
  if (shown?.channel_id) await call('get_render', { channel_id: shown.channel_id })
  await call('tools/list')
  // Each display opened a channel: an agent done with them closes them, which keeps the victim under its channel quota.
  for (const open of [channel, drawn?.channel_id, shown?.channel_id]) if (open) await call('close_channel', { channel_id: open })
}

/** ITERATIONS turns, or fewer if `maxSeconds` run out first (a very loaded machine), so the run stays bounded. */
async function victimPhase(client, first, maxSeconds) {
  const times = {}
  const errors = []
  const started = performance.now()
  let turns = 0
  while (turns < ITERATIONS && (performance.now() - started) / 1000 < maxSeconds) {
    const turnStarted = performance.now()
    await victimTurn(client, first + turns++, times, errors)
    // An agent's turns are paced by its model: at most one a TURN_MS, which keeps its 13 calls under the whole-caller rate.
    await sleep(TURN_MS - (performance.now() - turnStarted))
  }
  return { turns, times, errors, all: Object.values(times).flat(), seconds: (performance.now() - started) / 1000 }
}

// ---- the flood -------------------------------------------------------------------------------------
const balloon = (i) => `const s = ${'"yyyyyyyyyy"+'.repeat(20_000)}"y"\nexport default () => <p>{s}</p>\n// flood ${i}\n`
const deep = (i) => `export default () => ${'<i>'.repeat(100_000)}z${'</i>'.repeat(100_000)}\n// flood ${i}\n`
const MEGA = 'x'.repeat(900 * 1024)

/**
 * The other user floods until `stop()`; `pause()` parks every loop once its call in flight is answered
 * (so a victim phase "alone" has nothing of hers still running), `resume()` lets them go again.
 * `counts[kind][code]` tallies what the server answered her.
 */
function flood(url, token, counts, samples) {
  let stopping = false
  let gate // a promise while paused
  let open = () => {}
  let inFlight = 0
  let parked = () => {}
  // Waits while paused; every call of hers goes through it, so none starts during a pause.
  const turn = async () => {
    while (gate && !stopping) await gate
  }
  const counted = async (work) => {
    inFlight++
    try {
      return await work()
    } finally {
      inFlight--
      if (inFlight === 0) parked()
    }
  }
  const tally = (kind, code, text) => {
    counts[kind] ??= {}
    counts[kind][code] = (counts[kind][code] ?? 0) + 1
    if (code !== 'ok' && text) samples[`${kind}: ${code}`] ??= text.slice(0, 160)
  }
  const clients = []
  const loop = async (kind, body) => {
    let client
    try {
      client = await connect(url, token, `flood-${kind}`)
      clients.push(client)
    } catch (err) {
      tally(kind, codeOf(undefined, err))
      return
    }
    for (let n = 0; !stopping; n++) {
      await turn()
      if (stopping) break
      let result
      let thrown
      try {
        result = await counted(() => body(client, n))
      } catch (err) {
        thrown = err
      }
      if (!stopping) tally(kind, codeOf(result, thrown), thrown ? String(thrown.message) : String(result?.content?.[0]?.text ?? ''))
      // A refused call is answered at once; a short pause keeps a refused loop from spinning the bench itself.
      if (thrown) await sleep(20)
    }
  }
  const initialize = async () => {
    for (let n = 0; !stopping; n++) {
      await turn()
      if (stopping) break
      let code
      try {
        const response = await counted(() =>
          fetch(url, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
            body: JSON.stringify({
              jsonrpc: '2.0',
              id: 1,
              method: 'initialize',
              params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: `flood-session-${n}`, version: '1' } },
            }),
          }).then(async (r) => {
            await r.text()
            return r
          }),
        )
        code = response.ok ? 'ok' : response.status === 429 ? 'RATE_LIMITED (429)' : `HTTP ${response.status}`
      } catch (err) {
        code = codeOf(undefined, err)
      }
      if (!stopping) tally('sessions (raw initialize)', code)
      if (code !== 'ok') await sleep(20)
    }
  }
  let bytesChannel
  const parts = {
    sessions: [initialize, initialize],
    channels: [() => loop('channels (open_channel)', (c) => c.callTool({ name: 'open_channel', arguments: {} }))],
    bytes: [
      () =>
        loop('bytes (notify_ui, 900 KB)', async (c) => {
          bytesChannel ??= (await c.callTool({ name: 'open_channel', arguments: {} })).structuredContent?.channel_id
          return c.callTool({ name: 'notify_ui', arguments: { channel_id: bytesChannel ?? 'none', event: 'blob', data: MEGA } })
        }),
    ],
    renders: [() => loop('renders (display_ui_to_user)', (c, n) => c.callTool({ name: 'display_ui_to_user', arguments: { html: fragment(`flood ${n}`) } }))],
    hostile: [
      () => loop('hostile compiles', (c, n) => c.callTool({ name: 'display_component', arguments: { source: n % 2 ? balloon(n) : deep(n) } })),
      () => loop('hostile compiles', (c, n) => c.callTool({ name: 'display_component', arguments: { source: n % 2 ? deep(n + 1) : balloon(n + 1) } })),
    ],
    benign: [() => loop('benign compiles', (c, n) => c.callTool({ name: 'display_component', arguments: { source: component(`flood ${n}`) } }))],
    'made-up': [
      () => loop('made-up tools', (c, n) => c.callTool({ name: `no_such_tool_${n}`, arguments: {} })),
      () => loop('made-up tools', (c, n) => c.callTool({ name: `also_not_a_tool_${n}`, arguments: {} })),
    ],
    rapid: [
      () => loop('rapid calls (channel_stats)', (c) => c.callTool({ name: 'channel_stats', arguments: {} })),
      () => loop('rapid calls (tools/list)', (c) => c.listTools()),
    ],
  }
  const running = Object.entries(parts)
    .filter(([kind]) => !FLOOD_KINDS || FLOOD_KINDS.includes(kind))
    .flatMap(([, starts]) => starts.map((start) => start()))
  return {
    async pause() {
      gate = new Promise((resolve) => {
        open = resolve
      })
      if (inFlight > 0) await new Promise((resolve) => (parked = resolve))
      parked = () => {}
    },
    resume() {
      gate = undefined
      open()
    },
    async stop() {
      stopping = true
      open()
      // Calls still in flight (a hostile compile runs for seconds) are not waited for past 5 s: the server stops next.
      await Promise.race([Promise.allSettled(running), sleep(5_000)])
      await Promise.race([Promise.allSettled(clients.map((c) => c.close())), sleep(2_000)])
    },
  }
}

/** The flood on a thread of its own, so its clients' work does not delay the victim's calls timed on this one. */
function floodOnThread(url, token) {
  const worker = new Worker(new URL(import.meta.url), { workerData: { url, token } })
  cleanups.push(() => worker.terminate())
  const running = new Promise((resolve, reject) => {
    worker.once('message', resolve)
    worker.once('error', reject)
  })
  const ask = (command) =>
    new Promise((resolve, reject) => {
      worker.once('message', resolve)
      worker.once('error', reject)
      worker.postMessage(command)
    })
  return { running, pause: () => ask('pause'), resume: () => ask('resume'), stop: () => ask('stop') }
}

if (!isMainThread) {
  const counts = {}
  const samples = {}
  const flooding = flood(workerData.url, workerData.token, counts, samples)
  parentPort.postMessage('running')
  parentPort.on('message', async (command) => {
    if (command === 'pause') await flooding.pause()
    if (command === 'resume') flooding.resume()
    if (command !== 'stop') return parentPort.postMessage(command)
    await flooding.stop()
    parentPort.postMessage({ counts, samples })
    parentPort.close()
  })
} else await main()

// ---- the run ---------------------------------------------------------------------------------------
async function main() {
  const hardStop = setTimeout(() => {
    console.error(`bench:tenants: still running after ${HARD_STOP_MS / 1000} s; stopping`)
    cleanUp().finally(() => process.exit(1))
  }, HARD_STOP_MS)
  for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => cleanUp().finally(() => process.exit(130)))
  const { startIssuer, startRedis } = await loadTestHelpers(
    "export { startIssuer } from './packages/server/test/auth/oidc-issuer.ts'\nexport { startRedis } from './packages/server/test/channel/redis-server.ts'",
  )
  let exitCode = 0
  try {
    const issuer = await startIssuer()
    cleanups.push(() => issuer.close())
    let storeArgs
    if (REDIS) {
      const redis = await startRedis()
      cleanups.push(() => redis.stop())
      storeArgs = ['--redis-url', redis.url]
    } else {
      const dataDir = mkdtempSync(join(tmpdir(), 'duet-bench-tenants-'))
      cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }))
      storeArgs = ['--data-dir', dataDir]
    }
    const probeDir = mkdtempSync(join(tmpdir(), 'duet-bench-probe-'))
    cleanups.push(async () => rmSync(probeDir, { recursive: true, force: true }))
    const probeFile = join(probeDir, 'event-loop.json')
    const preload = new URL('./event-loop-probe.js', import.meta.url).href
    // BENCH_PROFILE=<dir> also writes the server's CPU profile of each stretch there (see event-loop-probe.js).
    const probeEnv = {
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${preload}`.trim(),
      DUET_BENCH_PROBE: probeFile,
      ...(process.env.BENCH_PROFILE && { DUET_BENCH_PROFILE: process.env.BENCH_PROFILE }),
    }
    const { child, url } = await serveHttp(
      [
        '--sessions',
        ...storeArgs,
        '--auth-issuer',
        issuer.url,
        '--auth-resource',
        RESOURCE,
        '--rate-limit',
        RATE_LIMIT,
        '--max-channels-per-subject',
        String(CHANNELS_PER_SUBJECT),
        '--max-store-bytes-per-subject',
        String(BYTES_PER_SUBJECT),
        ...EXTRA_ARGS,
      ],
      probeEnv,
    )
    cleanups.push(() => stopChild(child))

    const [victimToken, floodToken] = [await issuer.tokenFor('victor', { audience: RESOURCE }), await issuer.tokenFor('mallory', { audience: RESOURCE })]
    const victim = await connect(url, victimToken, 'victim')
    cleanups.push(() => victim.close())

    console.log(
      `duet serve --http --sessions on ${REDIS ? 'Redis' : 'SQLite'}, --rate-limit ${RATE_LIMIT}, --max-channels-per-subject ${CHANNELS_PER_SUBJECT}, --max-store-bytes-per-subject ${BYTES_PER_SUBJECT}, other quotas default; two users of a real oidc-provider issuer`,
    )
    if (FLOOD_KINDS) console.log(`flood: only ${FLOOD_KINDS.join(', ')} (BENCH_FLOOD)`)
    if (EXTRA_ARGS.length > 0) console.log(`and ${EXTRA_ARGS.join(' ')} (BENCH_SERVE_ARGS)`)
    console.log(
      `victim: ${ROUNDS} rounds of ${ITERATIONS} turns of 13 tool calls alone, then ${ITERATIONS} under the flood (a turn at most every ${TURN_MS} ms, a phase at most ${FLOOD_PHASE_MAX_SECONDS} s; + ${WARMUP} warm-up turns)`,
    )
    console.log(`load average before: ${loadAverage()}`)

    const warm = { times: {}, errors: [] }
    for (let i = 0; i < WARMUP; i++) {
      await victimTurn(victim, -1 - i, warm.times, warm.errors)
      await sleep(TURN_MS)
    }
    // Alone and under the flood in turns (A B A B …), so a change in the machine's load from other work
    // during the run falls on both phases alike.
    const cpu = sampleCpu(child.pid, { others: othersOf(child.pid) })
    const loop = { alone: [], flood: [] }
    const probe = async (phase) => {
      const read = await eventLoopDelay(child, probeFile)
      if (read && loop[phase]) loop[phase].push(read)
    }
    const baseline = []
    const underFlood = []
    let flooding
    for (let round = 0; round < ROUNDS; round++) {
      cpu.phase('alone')
      await probe('between')
      baseline.push(await victimPhase(victim, round * 1000, FLOOD_PHASE_MAX_SECONDS / ROUNDS))
      await probe('alone')
      cpu.phase('ramp')
      if (!flooding) {
        flooding = floodOnThread(url, floodToken)
        await flooding.running
      } else await flooding.resume()
      // Let the flood reach its quotas and fill the compile queue before the victim's turns are timed.
      await sleep(round === 0 ? 3_000 : 1_000)
      cpu.phase('flood')
      await probe('between')
      underFlood.push(await victimPhase(victim, 10_000 + round * 1000, FLOOD_PHASE_MAX_SECONDS / ROUNDS))
      await probe('flood')
      cpu.phase('pause')
      if (round < ROUNDS - 1) await flooding.pause()
    }
    const { counts, samples } = await flooding.stop()
    const cpuPhases = cpu.stop()
    const merge = (phases) => {
      const times = {}
      for (const p of phases) for (const [tool, xs] of Object.entries(p.times)) (times[tool] ??= []).push(...xs)
      return {
        turns: phases.reduce((n, p) => n + p.turns, 0),
        seconds: phases.reduce((n, p) => n + p.seconds, 0),
        times,
        errors: phases.flatMap((p) => p.errors),
        all: phases.flatMap((p) => p.all),
      }
    }

    const alone = merge(baseline)
    const flooded = merge(underFlood)
    const row = (label, a, b) => console.log(`${label.padEnd(28)}${a.padStart(18)}${b.padStart(18)}`)
    console.log('')
    row('victim', 'baseline (alone)', 'under the flood')
    row('turns (seconds)', `${alone.turns} (${alone.seconds.toFixed(1)} s)`, `${flooded.turns} (${flooded.seconds.toFixed(1)} s)`)
    row('tool calls', String(alone.all.length), String(flooded.all.length))
    row('p50, all tools', ms(percentile(alone.all, 0.5)), ms(percentile(flooded.all, 0.5)))
    row('p99, all tools', ms(percentile(alone.all, 0.99)), ms(percentile(flooded.all, 0.99)))
    for (const tool of Object.keys(alone.times)) {
      const pair = (phase) => `${percentile(phase.times[tool] ?? [], 0.5).toFixed(0)} / ${percentile(phase.times[tool] ?? [], 0.99).toFixed(0)} ms`
      row(`  ${tool} p50 / p99`, pair(alone), pair(flooded))
    }
    row('errors', String(alone.errors.length), String(flooded.errors.length))
    console.log('')
    console.log('the flood (other user), answers by kind:')
    for (const [kind, codes] of Object.entries(counts)) {
      const total = Object.values(codes).reduce((a, b) => a + b, 0)
      const parts = Object.entries(codes)
        .sort((a, b) => b[1] - a[1])
        .map(([code, n]) => `${n} ${code}`)
      console.log(`  ${kind}: ${total} calls: ${parts.join(', ')}`)
    }
    for (const [what, text] of Object.entries(samples)) console.log(`  e.g. ${what}: ${text}`)
    for (const e of [...alone.errors, ...flooded.errors].slice(0, 10)) console.log(`victim error: ${e}`)
    console.log('')
    const errors = alone.errors.length + flooded.errors.length
    const p99Base = percentile(alone.all, 0.99)
    const p99Flood = percentile(flooded.all, 0.99)
    console.log('where the time went (CPU as % of one core, over the phase; the machine has 2 cores = 200%):')
    const pct = (ms, wall) => `${((100 * ms) / wall).toFixed(0)}%`
    row('', 'alone', 'under the flood')
    const c = (phase) => cpuPhases[phase] ?? { wallMs: 1 }
    const cpuRow = (label, key) => row(`  ${label}`, pct(c('alone')[key] ?? 0, c('alone').wallMs), pct(c('flood')[key] ?? 0, c('flood').wallMs))
    cpuRow('server process', 'server')
    cpuRow('compile workers + esbuild', 'workers')
    cpuRow('bench (victim + flood)', 'bench')
    if (REDIS) cpuRow('redis-server', 'others')
    cpuRow('whole machine busy', 'machineBusy')
    const rest = (p) => c(p).machineBusy - c(p).server - c(p).workers - c(p).bench - (c(p).others ?? 0)
    row('  other work on the machine', pct(rest('alone'), c('alone').wallMs), pct(rest('flood'), c('flood').wallMs))
    row('  compile workers started', String(c('alone').spawned ?? 0), String(c('flood').spawned ?? 0))
    // The probe's histogram counts its 5 ms timer in every sample: what is past it is the delay.
    const delay = (phase, key) => {
      const reads = loop[phase]
      return reads.length ? `${Math.max(0, Math.max(...reads.map((r) => r[key])) - 5).toFixed(1)} ms` : 'n/a'
    }
    row('  server event-loop delay p50', delay('alone', 'p50'), delay('flood', 'p50'))
    row('  server event-loop delay p99', delay('alone', 'p99'), delay('flood', 'p99'))
    row('  server event-loop delay max', delay('alone', 'max'), delay('flood', 'max'))
    console.log(`load average after: ${loadAverage()}`)
    console.log('')
    console.log(`victim errors, both phases: ${errors} (goal 0): ${verdict(errors === 0)}`)
    console.log(
      `victim p99 under the flood: ${ms(p99Flood)} = ${(p99Flood / p99Base).toFixed(2)}× the baseline p99 ${ms(p99Base)} (goal <= ${P99_FACTOR}×): ${verdict(p99Flood <= P99_FACTOR * p99Base)}`,
    )
  } catch (err) {
    console.error(`bench:tenants failed: ${err?.stack ?? err}`)
    exitCode = 1
  } finally {
    await cleanUp()
    clearTimeout(hardStop)
  }
  process.exit(exitCode)
}
