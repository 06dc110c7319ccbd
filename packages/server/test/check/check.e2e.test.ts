// duet check against real views in headless Chromium: hand-written views with one injected bug each
// (only the matching check may fail), Duet's examples, and the official ext-apps example servers.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchBrowser } from '../../../../test/support/browser.js'
import { type CheckOptions, type CheckReport, runCheck } from '../../src/check/run-check.js'
import { FIXTURE_WAITS, type InjectedBug, rawView } from './fixtures/raw-view.js'

let dir: string
// The run's shared Chromium (duet check's own launch is covered by cli.e2e, which runs the command).
let browser: Browser
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'duet-check-'))
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
  rmSync(dir, { recursive: true, force: true })
})

const failed = (report: CheckReport) => report.checks.filter((c) => !c.pass).map((c) => c.id)
const reason = (report: CheckReport, id: string) => report.checks.find((c) => c.id === id)?.reason

async function checkFixture(bug?: InjectedBug, options: Partial<CheckOptions> = {}): Promise<CheckReport> {
  const file = join(dir, `${bug ?? 'good'}.html`)
  writeFileSync(file, rawView(bug))
  return runCheck({ viewFile: file, browser, ...FIXTURE_WAITS, ...options })
}

describe('duet check <view.html> with injected bugs', () => {
  it('passes every check on the fixture view without a bug', async () => {
    const report = await checkFixture()
    expect(failed(report)).toEqual([])
    expect(report.pass).toBe(true)
  })

  it('catches a view that never sends initialized, in the handshake check only', async () => {
    // The view never initializes whatever the wait: 3 s instead of the default 10 s.
    const report = await checkFixture('no-initialized', { stepTimeoutMs: 3000 })
    expect(failed(report)).toEqual(['handshake'])
    expect(reason(report, 'handshake')).toMatch(/never sent ui\/notifications\/initialized/)
  })

  it('catches a message with an extra member, in the strict JSON-RPC check only', async () => {
    const report = await checkFixture('non-strict')
    expect(failed(report)).toEqual(['jsonrpc'])
    expect(reason(report, 'jsonrpc')).toBe('extra member "timestamp"')
  })

  it('catches a request for a capability the host did not advertise, in the capabilities check only', async () => {
    const report = await checkFixture('unadvertised-request')
    expect(failed(report)).toEqual(['capabilities'])
    expect(reason(report, 'capabilities')).toMatch(/sampling\/createMessage needs hostCapabilities.sampling/)
  })

  it('catches a view that acts on a message from a sibling frame, in the sibling check only', async () => {
    const report = await checkFixture('trusts-sibling')
    expect(failed(report)).toEqual(['sibling'])
    expect(reason(report, 'sibling')).toMatch(/answered a request posted by a sibling frame/)
  })

  it('catches a fetch the CSP blocks, in the CSP check only', async () => {
    const report = await checkFixture('csp-violation')
    expect(failed(report)).toEqual(['csp'])
    expect(reason(report, 'csp')).toMatch(/example\.com/)
  })

  it('catches an uncaught exception in the view, in the console check only', async () => {
    const report = await checkFixture('throws')
    expect(failed(report)).toEqual(['console'])
    expect(reason(report, 'console')).toMatch(/fixture view broke/)
  })
})
