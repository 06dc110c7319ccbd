import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { serveRun } from './serve-run.js'

// `duet serve`'s HTTP flags, through the real bin: --allow-origin (repeatable) and --sessions.

const dataDir = mkdtempSync(join(tmpdir(), 'duet-serve-flags-'))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

const serve = (args: string[]) => serveRun(args, dataDir)

/** A 2025-era initialize, as a client opens a session with. */
const initialize = (url: string, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
    }),
  })

const preflight = (url: string, origin: string) => fetch(url, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST' } })

describe('duet serve --allow-origin and --sessions', () => {
  it('allows each --allow-origin besides loopback, refuses others, and keeps sessions with --sessions', async () => {
    const run = await serve(['--http', '--port', '0', '--allow-origin', 'https://app.example.com', '--allow-origin', 'studio.example.org', '--sessions'])
    try {
      expect(run.url).toBeDefined()
      const url = run.url!
      expect((await preflight(url, 'https://app.example.com')).headers.get('access-control-allow-origin')).toBe('https://app.example.com')
      expect((await preflight(url, 'http://studio.example.org:3000')).status).toBe(204)
      expect((await preflight(url, 'http://localhost:8080')).status).toBe(204)
      expect((await preflight(url, 'https://other.example.com')).status).toBe(403)
      const init = await initialize(url, { origin: 'https://app.example.com' })
      expect(init.status).toBe(200)
      expect(init.headers.get('mcp-session-id')).toMatch(/^[0-9a-f-]{36}$/)
      await init.body?.cancel()
    } finally {
      run.stop()
    }
  })

  it('gives no session id without --sessions', async () => {
    const run = await serve(['--http', '--port', '0'])
    try {
      const init = await initialize(run.url!)
      expect(init.status).toBe(200)
      expect(init.headers.get('mcp-session-id')).toBeNull()
      await init.body?.cancel()
    } finally {
      run.stop()
    }
  })

  it('refuses --sessions and --allow-origin without --http, with exit 2', async () => {
    for (const flags of [['--sessions'], ['--allow-origin', 'https://app.example.com']]) {
      const run = await serve(flags)
      expect(run.code).toBe(2)
      expect(run.stderr).toMatch(/--allow-origin and --sessions need --http/)
    }
  })

  it('refuses an --allow-origin that is not an origin, naming the option, before listening', async () => {
    const run = await serve(['--http', '--port', '0', '--allow-origin', 'https://app.example.com/path'])
    expect(run.url).toBeUndefined()
    expect(run.code).not.toBe(0)
    expect(run.stderr).toMatch(/allowedOrigins/)
    expect(run.stderr).toMatch(/not an origin/)
  })
})
