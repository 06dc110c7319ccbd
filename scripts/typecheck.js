#!/usr/bin/env node
// `npm run typecheck`: every TypeScript check of the repository, side by side. tsc checks on one core, and
// these checks are independent once the packages' own sources are built, so they run as many at a time as
// the machine has cores, longest first; each one's output is printed whole when it ends, so none
// interleave. The packages' sources are checked once, by their build (tsconfig.build.json, composite):
// the first step builds them only if they are out of date, so the checks after it never write to dist/.
import { createRequire } from 'node:module'
import { availableParallelism } from 'node:os'
import { run } from './run.js'

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc')

// Longest first (seconds alone on a 2-core machine in the comment), so the last to start is short.
const CHECKS = [
  ['-b', 'packages/server/tsconfig.json'], // the server's tests and benches, ~12 s
  ['--noEmit', '-p', 'docs/samples/tsconfig.json'], // the docs' samples, ~7 s
  ['-b', 'packages/duetkit/tsconfig.json'], // duetkit's tests and benches, ~7 s
  // The browser rooms against the DOM library alone, so no Node type leaks into them.
  ['--noEmit', '-p', 'packages/server/tsconfig.dom.json'], // ~6 s
  ['--noEmit', '-p', 'packages/duetkit/tsconfig.dom.json'], // ~3 s
]

/** Runs tsc with `args`; resolves with its exit code once its output has been printed. */
async function check(args) {
  const { code, output } = await run(process.execPath, [tsc, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
  process.stdout.write(`${code === 0 ? 'ok  ' : 'FAIL'} tsc ${args.join(' ')}\n${output}`)
  return code
}

let failed = (await check(['-b', 'packages/duetkit/tsconfig.build.json', 'packages/server/tsconfig.build.json'])) !== 0
if (!failed) {
  const queue = [...CHECKS]
  const lane = async () => {
    for (let args = queue.shift(); args; args = queue.shift()) if ((await check(args)) !== 0) failed = true
  }
  await Promise.all(Array.from({ length: Math.min(availableParallelism(), CHECKS.length) }, lane))
}
process.exit(failed ? 1 : 0)
