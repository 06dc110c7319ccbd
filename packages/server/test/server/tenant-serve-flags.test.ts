// duet serve's per-user session limits and --auth-jwt-types, through the real bin.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
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
