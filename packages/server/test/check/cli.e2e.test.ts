// The `duet check` command as a user runs it (the built bin): its exit codes, the human and the JSON
// report, and the one-line reason when the run cannot start.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rawView } from './fixtures/raw-view.js'

const BIN = fileURLToPath(new URL('../../../cli/bin/duet.js', import.meta.url))
let dir: string
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'duet-check-cli-'))
  writeFileSync(join(dir, 'good.html'), rawView())
  writeFileSync(join(dir, 'bad.html'), rawView('non-strict'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const duet = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, [BIN, 'check', ...args], { encoding: 'utf8', env: { ...process.env, ...env }, timeout: 90_000 })

describe('duet check (the CLI)', () => {
  it('prints one PASS line per check and exits 0 when all pass', () => {
    const r = duet([join(dir, 'good.html')])
    expect(r.status).toBe(0)
    const lines = r.stdout.trim().split('\n')
    expect(lines.filter((l) => l.startsWith('PASS  '))).toHaveLength(13)
    expect(lines.at(-1)).toBe('all 13 checks passed')
  })

  it('exits 1 with --json naming the failed check and its reason', () => {
    const r = duet([join(dir, 'bad.html'), '--json'])
    expect(r.status).toBe(1)
    const report = JSON.parse(r.stdout)
    expect(report.pass).toBe(false)
    expect(report.checks.filter((c: { pass: boolean }) => !c.pass)).toEqual([
      { id: 'jsonrpc', group: 'view', title: 'strict JSON-RPC', pass: false, reason: 'extra member "timestamp"' },
    ])
  })

  it('exits 2 with one line naming what to install when Chromium is missing', () => {
    const r = duet([join(dir, 'good.html')], { CHROMIUM_PATH: join(dir, 'no-chromium') })
    expect(r.status).toBe(2)
    expect(r.stderr).toBe(
      `duet check: BROWSER_UNAVAILABLE: duet check needs Chromium and found none at ${join(dir, 'no-chromium')} (from CHROMIUM_PATH): install it (Debian/Ubuntu: apt-get install chromium) or set CHROMIUM_PATH to its executable.\n`,
    )
  })

  it('refuses a bad command line before starting anything, with exit 2 (could not run)', () => {
    const r = duet(['--stdio', 'node server.js'])
    expect(r.status).toBe(2)
    expect(r.stderr).toBe('duet check: --tool NAME: which app tool to call\n')
    const bad = duet(['v.html', '--timeout', 'soon'])
    expect(bad.status).toBe(2)
    expect(bad.stderr).toBe('duet check: --timeout soon: give seconds, a number above 0 and at most 86400\n')
  })
})
