// The lifecycle and JSON-RPC MUSTs duet check observes, each against a view that breaks it (only the
// matching check fails) — the fixture without a bug passes them all in check.e2e.test.ts.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type CheckReport, runCheck } from '../../src/check/run-check.js'
import { FIXTURE_WAITS, type InjectedBug, rawView } from './fixtures/raw-view.js'

let dir: string
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'duet-check-musts-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const failed = (report: CheckReport) => report.checks.filter((c) => !c.pass).map((c) => c.id)
const reason = (report: CheckReport, id: string) => report.checks.find((c) => c.id === id)?.reason

async function checkFixture(bug: InjectedBug): Promise<CheckReport> {
  const file = join(dir, `${bug}.html`)
  writeFileSync(file, rawView(bug))
  return runCheck({ viewFile: file, timeoutMs: 90_000, stepTimeoutMs: 30_000, ...FIXTURE_WAITS })
}

describe('duet check: the spec MUSTs a host observes', () => {
  it('catches a notification sent before ui/initialize was answered, in the order check only', async () => {
    const report = await checkFixture('early-notification')
    expect(failed(report)).toEqual(['order'])
    expect(reason(report, 'order')).toBe('ui/notifications/size-changed sent before ui/initialize was answered')
  }, 120_000)

  it('catches initialized sent before the ui/initialize answer, in the order check only', async () => {
    const report = await checkFixture('initialized-early')
    expect(failed(report)).toEqual(['order'])
    expect(reason(report, 'order')).toMatch(/^ui\/notifications\/initialized sent before ui\/initialize was answered$/)
  }, 120_000)

  it('catches a request id used twice, in the ids check only', async () => {
    const report = await checkFixture('reused-id')
    expect(failed(report)).toEqual(['ids'])
    expect(reason(report, 'ids')).toBe('request id 1 used twice (the second time by ping)')
  }, 120_000)

  it("catches a view that does not answer the host's ping, in the ping check only", async () => {
    const report = await checkFixture('ignores-ping')
    expect(failed(report)).toEqual(['ping'])
    expect(reason(report, 'ping')).toBe('ping got no answer in 3000 ms')
  }, 120_000)

  it('catches a message sent after the teardown answer, in the after-teardown check only', async () => {
    const report = await checkFixture('talks-after-teardown')
    expect(failed(report)).toEqual(['after-teardown'])
    expect(reason(report, 'after-teardown')).toBe('1 message after the teardown answer, first ui/notifications/size-changed')
  }, 120_000)
})
