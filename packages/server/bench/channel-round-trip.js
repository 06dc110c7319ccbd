// The channel round trip, end to end: an app shown with display_ui_to_user asks (notify_agent), the
// agent is woken, drains the question and answers (notify_ui), and the answer is rendered in the page.
// Real parts only: a `duet serve --http` process, the SDK client as the agent, Chromium with the
// official AppBridge as host forwarding the view's calls, and `duet wait` as the agent's watcher.
// Times are read on the page's own clock: from the moment the app sends to the moment the answer is
// in its DOM. Part of `npm run bench:channel`; also runs alone: node packages/server/bench/channel-round-trip.js
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { loadTestHelpers } from '../../../test/support/load-test-helpers.js'

const here = (p) => fileURLToPath(new URL(p, import.meta.url))
const RUNS = Number(process.env.BENCH_RUNS ?? 30)
const GOAL_MS = 100
// The built CLI, as users run it (the bench runs after `npm run build`); the harness bundles the source otherwise.
const DIST_BIN = here('../dist/cli/bin.js')
if (!process.env.DUET_BIN && existsSync(DIST_BIN)) process.env.DUET_BIN = DIST_BIN

// The anchor (lustereczko): its watcher looks at the file every 0.5 s and its app polls every 1.2 s,
// so a reply waits U(0, 500) + U(0, 1200) ms before any processing. Percentiles of that sum.
function anchorPercentile(p, a = 500, b = 1200) {
  // CDF of U(0,a)+U(0,b), a <= b: rising ramp, flat middle, falling ramp.
  const cdf = (x) => (x <= a ? (x * x) / (2 * a * b) : x <= b ? (x - a / 2) / b : 1 - (a + b - x) ** 2 / (2 * a * b))
  let lo = 0
  let hi = a + b
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2
    if (cdf(mid) < p) lo = mid
    else hi = mid
  }
  return lo
}

const FRAGMENT = `<p id="answer">none</p>
<script>
  duet.onAgentMessage((m) => {
    document.getElementById('answer').textContent = String(m.data.n)
    window.__answeredAt = performance.timeOrigin + performance.now()
  })
</script>`

const percentile = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)]
}
const ms = (n) => `${n.toFixed(1)} ms`
// Epoch milliseconds with sub-ms precision, comparable with the page's performance.timeOrigin + now().
const now = () => performance.timeOrigin + performance.now()

/**
 * Records every tool call a client makes (name, start, end), so a round trip can be cut into its hops:
 * the view's calls go through the host's client, the agent's through its own.
 */
function traceCalls(client, who, calls) {
  const call = client.callTool.bind(client)
  client.callTool = async (params, ...rest) => {
    const start = now()
    try {
      return await call(params, ...rest)
    } finally {
      calls.push({ who, name: params.name, start, end: now() })
    }
  }
}

/**
 * Cuts one round trip (page send at `sent`, answer rendered at `done`) into hops from the traced calls:
 * view → host (the view's driver, postMessage, AppBridge, the host page's hand-off to its client), the
 * notify_agent HTTP call, the agent's wake (its poll answered), notify_ui, the view's long poll answered,
 * and host → view (the hand-back, postMessage, the channel link, the render).
 */
function hops(calls, sent, done) {
  const within = calls.filter((c) => c.end >= sent && c.start <= done)
  const first = (who, name, after = sent) => within.find((c) => c.who === who && c.name === name && c.end >= after)
  const notify = within.find((c) => c.who === 'host' && c.name === 'notify_agent' && c.start >= sent)
  const polled = first('agent', 'poll_agent_messages', notify?.start)
  const answer = within.find((c) => c.who === 'agent' && c.name === 'notify_ui' && c.start >= (polled?.end ?? sent))
  const uiPoll = first('host', 'poll_ui_messages', answer?.start)
  if (!notify || !polled || !answer || !uiPoll) return undefined
  return {
    'view → host client': notify.start - sent,
    'notify_agent call': notify.end - notify.start,
    'agent woken (its poll answered)': polled.end - notify.start,
    'agent → notify_ui sent': answer.start - polled.end,
    'notify_ui call': answer.end - answer.start,
    "view's poll answered after notify_ui sent": uiPoll.end - answer.start,
    'host client → rendered in view': done - uiPoll.end,
  }
}

/** Shows the fragment and returns what one round trip needs. */
async function open(h, browser, agent, hostClient) {
  const args = { html: FRAGMENT, title: 'round trip' }
  const result = await agent.callTool({ name: 'display_ui_to_user', arguments: args })
  const host = await h.openServerView(browser, hostClient, 'ui://duet/display.html')
  await h.deliverToolCall(host, args, result)
  const frame = host.viewFrame()
  await frame.waitForSelector('#answer')
  await frame.evaluate(() => window.duet.ready)
  return { host, frame, channel: result.structuredContent.channel_id }
}

/** The app sends question `n`; resolves with the send time on the page's clock. */
const ask = (frame, n) =>
  frame.evaluate((i) => {
    const at = performance.timeOrigin + performance.now()
    window.duet.notifyAgent('ask', { n: i })
    return at
  }, n)

async function answered(frame, n) {
  await frame.waitForFunction((i) => document.getElementById('answer').textContent === String(i), n, { timeout: 30_000 })
  return frame.evaluate(() => window.__answeredAt)
}

/** The agent drains the channel (waiting up to `waitSeconds`) and answers every question at once. */
async function answer(agent, channel, waitSeconds = 0) {
  const polled = await agent.callTool({ name: 'poll_agent_messages', arguments: { channel_id: channel, wait_seconds: waitSeconds } })
  for (const m of polled.structuredContent.messages) {
    await agent.callTool({ name: 'notify_ui', arguments: { channel_id: channel, event: 'answer', data: { n: m.data.n } } })
  }
}

/** One round trip with the agent waiting in its turn; returns its time on the page's clock. */
async function foregroundOnce(agent, frame, channel, n) {
  const polled = answer(agent, channel, 30)
  const sent = await ask(frame, n)
  await polled
  return { sent, done: await answered(frame, n) }
}

/** Runs both ways of waking the agent and returns their round-trip times in ms. */
export async function measureRoundTrip(runs = RUNS) {
  const h = await loadTestHelpers(
    "export * from './packages/server/test/apps/display-e2e-harness.ts'; export { launchBrowser } from './test/support/browser.ts'",
  )
  const dataDir = mkdtempSync(join(tmpdir(), 'duet-bench-rt-'))
  const serve = await h.startServe(dataDir)
  const browser = await h.launchBrowser()
  const agent = await h.connectHttp(serve.url, 'agent')
  const hostClient = await h.connectHttp(serve.url, 'host')
  const calls = []
  traceCalls(agent, 'agent', calls)
  traceCalls(hostClient, 'host', calls)
  const traces = []
  const watcherTraces = []
  try {
    // The watcher must be waiting before the user acts, as the recipes tell the agent; that start-up is
    // not part of the round trip. Give it three times a measured start and exit, plus a margin.
    const startedAt = Date.now()
    await h.spawnWait('bench-arm', dataDir, 0)
    const armMs = 3 * (Date.now() - startedAt) + 200
    const { host, frame, channel } = await open(h, browser, agent, hostClient)
    const watcher = []
    const foreground = []
    // Warm-up: the first call through each path pays for JIT and connection set-up.
    for (let n = -3; n < 0; n++) await foregroundOnce(agent, frame, channel, n)
    calls.length = 0
    for (let n = 0; n < runs; n++) {
      // 1. The agent waits in its turn: poll_agent_messages with wait_seconds.
      calls.length = 0
      const { sent, done } = await foregroundOnce(agent, frame, channel, 2 * n)
      foreground.push(done - sent)
      traces.push(hops(calls, sent, done))

      // 2. The agent is woken by `duet wait` exiting, then drains and answers.
      calls.length = 0
      const woken = h.spawnWait(channel, dataDir, 30)
      await new Promise((r) => setTimeout(r, armMs))
      const sentW = await ask(frame, 2 * n + 1)
      const exit = await woken
      if (exit.code !== 0) throw new Error(`duet wait exited ${exit.code}: ${exit.stderr}`)
      const wokenAt = now()
      await answer(agent, channel)
      const doneW = await answered(frame, 2 * n + 1)
      watcher.push(doneW - sentW)
      const notify = calls.find((c) => c.who === 'host' && c.name === 'notify_agent' && c.start >= sentW)
      if (notify)
        watcherTraces.push({
          'view → host client': notify.start - sentW,
          'notify_agent call': notify.end - notify.start,
          '`duet wait` exit seen after notify_agent sent': wokenAt - notify.start,
          'agent drains, answers, view renders': doneW - wokenAt,
        })
    }
    await host.close()
    return { watcher, foreground, traces: traces.filter(Boolean), watcherTraces }
  } finally {
    await agent.close()
    await hostClient.close()
    await browser.close()
    await serve.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

function printHops(title, traces) {
  if (traces.length === 0) return
  console.log(`  ${title}`)
  for (const hop of Object.keys(traces[0])) {
    const xs = traces.map((t) => t[hop])
    console.log(`    ${hop.padEnd(46)} ${ms(percentile(xs, 0.5)).padStart(9)} ${ms(percentile(xs, 0.9)).padStart(9)} ${ms(Math.max(...xs)).padStart(9)}`)
  }
}

/** Prints the round-trip section of bench:channel, in the same columns as the rest of it. */
export async function main() {
  const { watcher, foreground, traces, watcherTraces } = await measureRoundTrip()
  const anchor = { 50: anchorPercentile(0.5), 90: anchorPercentile(0.9), 99: anchorPercentile(0.99) }
  const row = (label, ours, theirs) =>
    console.log(`  ${label.padEnd(44)} ${ms(ours).padStart(14)} ${ms(theirs).padStart(14)} ${`${(theirs / ours).toFixed(1)}×`.padStart(9)}`)
  console.log(`Round trip in a browser: app asks → agent woken → answer rendered (${RUNS} runs each; Chromium, AppBridge, duet serve over HTTP)`)
  for (const p of [50, 90, 99]) row(`\`duet wait\` wakes the agent: p${p}`, percentile(watcher, p / 100), anchor[p])
  for (const p of [50, 90, 99]) row(`agent waits in poll_agent_messages: p${p}`, percentile(foreground, p / 100), anchor[p])
  // Where the time goes: each hop of the round trips, read from the traced tool calls.
  printHops(`hops of the \`duet wait\` round trips (${watcherTraces.length} traced): p50 / p90 / max`, watcherTraces)
  printHops(`hops of the poll_agent_messages round trips (${traces.length} traced): p50 / p90 / max`, traces)
  console.log('  anchor: its polling alone, U(0,500) + U(0,1200) ms (0.5 s watcher, 1.2 s app poll), before any work.')
  // With a few dozen runs p99 is close to the maximum, so the goal is judged on both p99s.
  const worst = Math.max(percentile(watcher, 0.99), percentile(foreground, 0.99))
  console.log(`  Goal: under ${GOAL_MS} ms with the agent answering at once (worst p99 ${ms(worst)}): ${worst < GOAL_MS ? 'met' : 'NOT met'}`)
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err) => {
    console.error(err)
    process.exitCode = 1
  })
}
