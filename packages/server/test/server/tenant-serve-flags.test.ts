// duet serve's per-user session limits, --auth-jwt-types, and the limits on one user's calls in flight,
// whole rate and compiles, through the real bin.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { modernRequest } from './modern-request.js'
import { serveRun } from './serve-run.js'

const dataDir = mkdtempSync(join(tmpdir(), 'duet-tenant-flags-'))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

const serve = (args: string[]) => serveRun(args, dataDir)

const post = (url: string, body: object, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25', ...headers },
    body: JSON.stringify(body),
  })

async function openSession(url: string): Promise<string> {
  const res = await post(url, {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
  })
  await res.body?.cancel()
  return res.headers.get('mcp-session-id')!
}

const ping = async (url: string, session: string) => {
  const res = await post(url, { jsonrpc: '2.0', id: 2, method: 'ping' }, { 'mcp-session-id': session })
  await res.body?.cancel()
  return res.status
}

describe('duet serve session limits', () => {
  it('--max-sessions-per-subject caps the sessions of one client address, closing its oldest', async () => {
    const run = await serve(['--http', '--port', '0', '--sessions', '--max-sessions-per-subject', '2', '--session-idle-seconds', '600'])
    try {
      expect(run.url).toBeDefined()
      const sessions = [await openSession(run.url!), await openSession(run.url!), await openSession(run.url!)]
      expect(await Promise.all(sessions.map((s) => ping(run.url!, s)))).toEqual([404, 200, 200])
    } finally {
      run.stop()
    }
  })

  it('refuses session limits without --sessions, bad numbers, and --auth-jwt-types without --auth-issuer, with exit 2', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['--http', '--port', '0', '--session-idle-seconds', '60'], /--session-idle-seconds needs --sessions/],
      [['--http', '--port', '0', '--sessions', '--max-sessions', '0'], /--max-sessions must be a positive integer, got '0'/],
      [['--http', '--port', '0', '--sessions', '--max-sessions-per-subject', 'many'], /--max-sessions-per-subject must be a positive integer/],
      [['--http', '--port', '0', '--auth-jwt-types', 'JWT'], /--auth-jwt-types need --auth-issuer/],
    ]
    for (const [flags, message] of cases) {
      const run = await serve(flags)
      expect(run.code, flags.join(' ')).toBe(2)
      expect(run.stderr).toMatch(message)
    }
  })
})

/** A modern (per-request) tool call without auth: the client address is the caller. */
const callTool = (url: string, name: string, args: Record<string, unknown> = {}) => modernRequest(url, 'tools/call', { name, arguments: args })

describe("duet serve limits on one user's calls", () => {
  it('--max-in-flight-per-subject makes a call wait behind a long poll and --max-queued-requests-per-subject answers the next BUSY', async () => {
    const run = await serve(['--http', '--port', '0', '--max-in-flight-per-subject', '1', '--max-queued-requests-per-subject', '1'])
    try {
      expect(run.url, run.stderr).toBeDefined()
      const opened = (await (await callTool(run.url!, 'open_channel')).json()) as { result: { structuredContent: { channel_id: string } } }
      const channel = opened.result.structuredContent.channel_id
      // The long poll holds this address's one slot for 3 s.
      const polling = callTool(run.url!, 'poll_agent_messages', { channel_id: channel, wait_seconds: 3 })
      await new Promise((resolve) => setTimeout(resolve, 300))
      const started = Date.now()
      const waiting = callTool(run.url!, 'channel_stats')
      await new Promise((resolve) => setTimeout(resolve, 300))
      const busy = await callTool(run.url!, 'channel_stats')
      expect(busy.status).toBe(429)
      expect(((await busy.json()) as { error: { data: Record<string, unknown> } }).error.data).toMatchObject({ code: 'BUSY', queue: 'subject', limit: 1 })
      expect((await polling).status).toBe(200)
      expect((await waiting).status).toBe(200)
      // It was answered only once the poll had given up its slot.
      expect(Date.now() - started).toBeGreaterThan(2000)
    } finally {
      run.stop()
    }
  }, 60_000)

  it('refuses bad values of the in-flight, whole-rate and compile flags, naming the flag, and does not start', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['--http', '--port', '0', '--max-in-flight', '0'], /--max-in-flight must be a positive integer, got '0'/],
      [['--http', '--port', '0', '--max-queued-requests-per-subject', 'x'], /--max-queued-requests-per-subject must be a positive integer/],
      [['--http', '--port', '0', '--max-in-flight', '4', '--max-in-flight-per-subject', '8'], /http.maxInFlightPerSubject' must be at most http.maxInFlight/],
      [['--http', '--port', '0', '--rate-limit-all', '5:1'], /--rate-limit-all needs --rate-limit/],
      [['--http', '--port', '0', '--rate-limit', '5:1', '--rate-limit-all', 'lots'], /--rate-limit-all must be BURST:PER_SECOND \(e.g. 60:1\) or off/],
      [['--max-in-flight', '8'], /--max-in-flight needs --http/],
      [['--http', '--port', '0', '--compile-niceness', '20'], /--compile-niceness must be an integer from 0 to 19, got '20'/],
      [['--http', '--port', '0', '--compile-cool-down-after', '0'], /--compile-cool-down-after must be an integer from 1/],
      [['--http', '--port', '0', '--compile-cool-down-seconds', '1.5'], /--compile-cool-down-seconds must be an integer from 1/],
    ]
    for (const [flags, message] of cases) {
      const run = await serve(flags)
      run.stop()
      expect(run.code, `${flags.join(' ')}: ${run.stderr}`).not.toBe(0)
      expect(run.stderr, flags.join(' ')).toMatch(message)
    }
  }, 60_000)
})
