// duet check against real servers over stdio: Duet's forecast and reader examples, and the official
// ext-apps example servers from npm (test/interop), each in headless Chromium with the official AppBridge.
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchBrowser } from '../../../../test/support/browser.js'
import { builtOutputs, exampleView } from '../../../../test/support/built.js'
import { SHOTS_DIR } from '../../../../test/support/shots.js'
import { runCheck } from '../../src/check/run-check.js'
import { splitCommandLine } from '../../src/dev/command-line.js'

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url))
const ROOT = here('../../../../')
const OFFICIAL = join(ROOT, 'test/interop/node_modules/@modelcontextprotocol')
const stdio = (line: string) => ({ kind: 'stdio' as const, line, ...splitCommandLine(line) })

let dataDir: string
// The run's shared Chromium (duet check's own launch is covered by cli.e2e, which runs the command).
let browser: Browser
beforeAll(async () => {
  // The example servers read their views from dist/index.html (`npm run build:examples`); throws when one is missing.
  for (const name of ['forecast', 'reader'] as const) exampleView(name)
  dataDir = mkdtempSync(join(tmpdir(), 'duet-check-reader-'))
  browser = await launchBrowser()
}, 120_000)
afterAll(async () => {
  await browser?.close()
  rmSync(dataDir, { recursive: true, force: true })
})

describe("duet check on Duet's examples", () => {
  it('passes every check on the forecast card, with light and dark screenshots', async () => {
    const shots = join(SHOTS_DIR, 'check-forecast')
    const report = await runCheck({
      server: stdio(`node ${join(ROOT, 'examples/forecast/server/server.js')} --stdio`),
      tool: 'get_forecast',
      args: { city: 'Oslo' },
      shots,
      browser,
    })
    expect(report.checks.filter((c) => !c.pass)).toEqual([])
    expect(existsSync(join(shots, 'view-light.png')) && existsSync(join(shots, 'view-dark.png'))).toBe(true)
  })

  it('passes every check on the reader, under the ChatGPT preset too', async () => {
    process.env.DUET_DATA_DIR = dataDir
    try {
      for (const preset of ['full', 'chatgpt']) {
        const report = await runCheck({ server: stdio(`node ${join(ROOT, 'examples/reader/server/server.js')} --stdio`), tool: 'open_reader', preset, browser })
        expect({ preset, failed: report.checks.filter((c) => !c.pass) }).toEqual({ preset, failed: [] })
      }
    } finally {
      delete process.env.DUET_DATA_DIR
    }
    // Two whole runs of duet check: 21 s in a full run on 2 cores, past 30 s with more test files at once.
  }, 120_000)
})

// Installed by `npm install --prefix test/interop` (as .ci/run and npm test's pretest do).
const officialInstalled = builtOutputs(
  'duet check on the official ext-apps servers',
  ['server-basic-vanillajs', 'server-basic-react'].map((p) => join(OFFICIAL, p, 'dist/index.js')),
  'run npm install --prefix test/interop (npm test does)',
)

// Both fail one check, for a real defect of theirs: their bundle carries zod 4, whose eval probe
// (\`allowsEval\`: \`const F = Function; new F("")\`, run when the App parses its first message) trips
// the spec's default CSP (no 'unsafe-eval') on every load. zod catches the error and carries on, so the
// view works, but every host sees a CSP violation (a console error, a report to any report-uri).
// Every other check passes.
describe.skipIf(!officialInstalled)('duet check on the official ext-apps example servers (npm, 2.0.x)', () => {
  for (const name of ['server-basic-vanillajs', 'server-basic-react']) {
    it(`passes every check on ${name}'s get-time view but CSP, which its bundled zod's eval probe violates`, async () => {
      const report = await runCheck({
        server: stdio(`node ${join(OFFICIAL, name, 'dist/index.js')} --stdio`),
        tool: 'get-time',
        shots: join(SHOTS_DIR, `check-${name}`),
        browser,
      })
      expect(report.checks.filter((c) => !c.pass)).toEqual([
        {
          id: 'csp',
          group: 'view',
          title: 'no CSP violations',
          pass: false,
          reason: expect.stringMatching(/^1 CSP violation, first: CSP blocked eval \(script-src\)/),
        },
      ])
      expect(report.pass).toBe(false)
    })
  }
})
