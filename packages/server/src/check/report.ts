import type { CheckReport } from './run-check.js'

/** The human report: one line per check, PASS or FAIL with its reason, then the verdict. */
export function formatReport(report: CheckReport): string {
  const width = Math.max(...report.checks.map((c) => c.title.length))
  const lines = report.checks.map((c) => `${c.pass ? 'PASS' : 'FAIL'}  ${c.title.padEnd(width)}  ${c.reason}`)
  const failed = report.checks.filter((c) => !c.pass).length
  return [
    `duet check: ${report.target} (host preset ${report.preset})`,
    ...lines,
    failed ? `${failed} of ${report.checks.length} checks failed` : `all ${report.checks.length} checks passed`,
  ].join('\n')
}
