#!/usr/bin/env node
// `npm test`: lint, build, type check, build the examples, then every vitest project on Node 24 (see
// scripts/with-node.js), timing each phase. Node 24 (and better-sqlite3 built for it, the first time)
// is made ready alongside the first phases, which leave a core idle. Arguments go to vitest
// (`npm test -- --project server`). With DUET_PHASE_LOG set, each phase's time is appended to that file
// as `name<TAB>seconds` (.ci/run prints them with its own at the end).
import { appendFileSync } from 'node:fs'
import { run } from './run.js'

const TEST_NODE = '24'
const times = []

async function phase(name, work) {
  const started = Date.now()
  const code = await work()
  const seconds = (Date.now() - started) / 1000
  times.push([name, seconds])
  if (process.env.DUET_PHASE_LOG) appendFileSync(process.env.DUET_PHASE_LOG, `npm test: ${name}\t${seconds.toFixed(1)}\n`)
  if (code !== 0) finish(code, name)
}

function finish(code, failed) {
  process.stdout.write('\nnpm test phases (wall time):\n')
  for (const [name, seconds] of times) process.stdout.write(`  ${name.padEnd(32)} ${seconds.toFixed(1).padStart(7)} s\n`)
  if (failed) process.stdout.write(`npm test stopped: ${failed} failed (exit ${code})\n`)
  process.exit(code)
}

const started = Date.now()
const npm = (script) => () => run('npm', ['run', script]).then((r) => r.code)
// Output held back so it does not interleave with the build's; shown when it fails.
const preparing = run('node', ['scripts/with-node.js', TEST_NODE, 'node', '--version'], { stdio: ['ignore', 'pipe', 'pipe'] })

await phase('lint', npm('lint'))
await phase('build', npm('build'))
await phase('typecheck', npm('typecheck'))
await phase('build:examples', npm('build:examples'))
await phase(`Node ${TEST_NODE} ready (overlapped)`, async () => {
  const { code, output } = await preparing
  if (code !== 0) process.stderr.write(output)
  return code
})
await phase(`tests (vitest on Node ${TEST_NODE})`, () =>
  run('node', ['scripts/with-node.js', TEST_NODE, 'vitest', 'run', ...process.argv.slice(2)]).then((r) => r.code),
)
times.push(['total', (Date.now() - started) / 1000])
finish(0)
