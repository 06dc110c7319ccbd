/** @module @duetkit/server/check */
// @duetkit/server/check: `duet check` as a library: one view checked in headless Chromium behind the
// dev host's sandbox. Needs the playwright-core peer, loaded when a check starts.
export { runCheck, type CheckOptions, type CheckReport } from './check/run-check.js'
export { formatReport } from './check/report.js'
export { CHECK_IDS, type CheckId, type CheckResult } from './check/checks.js'
