// duet check against hostile views and servers, through the built bin with short deadlines: each run
// ends within its deadline, exits 1 or 2, and names the step it stopped at.
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { HOSTILE, startHostileHttp } from './fixtures/hostile-http.js'
import { rawView } from './fixtures/raw-view.js'

const BIN = fileURLToPath(new URL('../../../cli/bin/duet.js', import.meta.url))
// The run's deadline given to each check, and what the test allows on top (process start, cleanup).
const TIMEOUT_S = 45
const SLACK_MS = 20_000
let dir: string
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'duet-check-hostile-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function duet(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string; ms: number }> {
  const started = Date.now()
  const child = spawn(process.execPath, [BIN, 'check', '--timeout', String(TIMEOUT_S), '--step-timeout', '8', ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (c) => {
    stdout += c
  })
  child.stderr.on('data', (c) => {
    stderr += c
  })
  return new Promise((resolve) => child.on('close', (status) => resolve({ status, stdout, stderr, ms: Date.now() - started })))
}

const view = (bug: Parameters<typeof rawView>[0]) => {
  const file = join(dir, `${bug}.html`)
  writeFileSync(file, rawView(bug))
  return file
}

describe('duet check on hostile views and servers', () => {
  it('reports a view that spins after initialized, naming the step, and exits 1', async () => {
    const r = await duet([view('spin-after-initialized')])
    expect(r.status).toBe(1)
    expect(r.stdout).toMatch(/FAIL {2}run stopped: step "[^"]+": .*the view's event loop is blocked/)
    expect(r.ms).toBeLessThan(TIMEOUT_S * 1000 + SLACK_MS)
  }, 120_000)

  it('reports a view whose top-level script never ends, naming the step, and exits 1', async () => {
    const r = await duet([view('spin-top-level')])
    expect(r.status).toBe(1)
    expect(r.stdout).toMatch(/run stopped: step "[^"]+": .*(event loop is blocked|in vain)/)
    expect(r.ms).toBeLessThan(TIMEOUT_S * 1000 + SLACK_MS)
  }, 120_000)

  it('refuses a 200 MB view over stdio before the browser, naming resources/read, and exits 1', async () => {
    const r = await duet(['--stdio', `node ${HOSTILE} --mode huge --view-bytes 200000000`, '--tool', 'show'])
    expect(r.status).toBe(1)
    expect(r.stdout).toMatch(/run stopped: step "resources\/read": .*over --max-view-bytes \(5242880\); refused before the browser/)
    expect(r.ms).toBeLessThan(TIMEOUT_S * 1000 + SLACK_MS)
  }, 120_000)

  it('refuses a 200 MB view over HTTP before the browser, naming resources/read, and exits 1', async () => {
    const server = await startHostileHttp(['--mode', 'huge', '--view-bytes', '200000000'])
    try {
      const r = await duet(['--server', server.url, '--tool', 'show'])
      expect(r.status).toBe(1)
      expect(r.stdout).toMatch(
        /run stopped: step "resources\/read": the server's HTTP response went past \d+ bytes: the view is over --max-view-bytes \(5242880\); refused before the browser/,
      )
      expect(r.ms).toBeLessThan(TIMEOUT_S * 1000 + SLACK_MS)
    } finally {
      server.child.kill()
    }
  }, 120_000)

  it('ends a tool that never answers at the tools/call step deadline, not the SDK timeout, and exits 1', async () => {
    const started = Date.now()
    const r = await duet(['--stdio', `node ${HOSTILE} --mode never-answers`, '--tool', 'show', '--step-timeout', '3'])
    expect(r.status).toBe(1)
    expect(r.stdout).toMatch(/run stopped: step "tools\/call": waited 3000 ms for the server's answer to tools\/call show, in vain/)
    expect(r.stdout).not.toMatch(/Request timed out/)
    expect(Date.now() - started).toBeLessThan(3000 + SLACK_MS)
  }, 120_000)

  it('ends at the whole-run deadline, naming the step under way', async () => {
    const r = await duet(['--stdio', `node ${HOSTILE} --mode never-answers`, '--tool', 'show', '--timeout', '2', '--step-timeout', '30'])
    expect(r.status).toBe(1)
    expect(r.stdout).toMatch(/the whole run's deadline \(2000 ms\) passed during step "tools\/call", waiting for the server's answer to tools\/call show/)
  }, 120_000)

  it('refuses a view file over --max-view-bytes without reading it, and exits 1', async () => {
    const r = await duet([view('spin-top-level'), '--max-view-bytes', '100'])
    expect(r.status).toBe(1)
    expect(r.stdout).toMatch(/run stopped: step "read view": .* is \d+ bytes, over --max-view-bytes \(100\)/)
  }, 60_000)
})
