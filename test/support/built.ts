import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const repo = (p: string) => fileURLToPath(new URL(`../../${p}`, import.meta.url))

/**
 * What `npm run build` and `npm run build:examples` produce (`npm test` runs both first), which tests
 * run instead of building their own copy from source.
 */
export const BUILT = {
  /** The `duet` command's entry, run as `node <it> serve …` (what the `duet` bin loads). */
  duetCli: repo('packages/server/dist/cli/bin.js'),
  forecastView: repo('examples/forecast/dist/index.html'),
  readerView: repo('examples/reader/dist/index.html'),
} as const

const HOW = 'run `npm run build && npm run build:examples` at the repository root first (`npm test` does)'

/** The built `duet` CLI; throws, failing the test, when it is not built. */
export function builtDuetCli(): string {
  if (!existsSync(BUILT.duetCli)) throw new Error(`${BUILT.duetCli} is missing: ${HOW}`)
  return BUILT.duetCli
}

/**
 * Whether the build outputs (or test installs) a suite needs are all there, for
 * `describe.skipIf(!builtOutputs(...))`.
 * Under CI a missing one throws, so the suite fails instead of skipping unseen; elsewhere the skip is
 * announced on stderr.
 */
export function builtOutputs(suite: string, paths: string[], how = HOW): boolean {
  const missing = paths.filter((p) => !existsSync(p))
  if (missing.length === 0) return true
  const message = `${suite}: missing ${missing.join(', ')}; ${how}`
  if (process.env.CI && process.env.CI !== 'false') throw new Error(message)
  process.stderr.write(`SKIPPED ${message}\n`)
  return false
}

/** An example's built view: the one self-contained HTML file `npm run build:examples` wrote. Throws when it is missing. */
export function exampleView(name: 'forecast' | 'reader'): string {
  const file = name === 'forecast' ? BUILT.forecastView : BUILT.readerView
  if (!existsSync(file)) throw new Error(`${file} is missing: ${HOW}`)
  return readFileSync(file, 'utf8')
}
