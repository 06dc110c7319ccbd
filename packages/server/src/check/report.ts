import type { CheckReport } from './run-check.js'

/** The human report: notes, one line per check (view, then server) with PASS or FAIL and its reason, where the run stopped, the verdict. */
export function formatReport(report: CheckReport): string {
  const width = Math.max(0, ...report.checks.map((c) => c.title.length))
  const line = (c: CheckReport['checks'][number]) => `${c.pass ? 'PASS' : 'FAIL'}  ${c.title.padEnd(width)}  ${c.reason}`
  const view = report.checks.filter((c) => c.group === 'view')
  const server = report.checks.filter((c) => c.group === 'server')
  const failed = report.checks.filter((c) => !c.pass).length
  return [
    `duet check: ${report.target} (host preset ${report.preset})`,
    ...report.notes.map((n) => `note: ${n}`),
    ...view.map(line),
    ...(server.length ? ['server:', ...server.map(line)] : []),
    ...(report.stopped ? [`FAIL  run stopped: ${report.stopped.reason}`] : []),
    report.stopped
      ? `the run stopped at step "${report.stopped.step}"${failed ? `; ${failed} of ${report.checks.length} checks judged so far failed` : ''}`
      : failed
        ? `${failed} of ${report.checks.length} checks failed`
        : `all ${report.checks.length} checks passed`,
  ].join('\n')
}
