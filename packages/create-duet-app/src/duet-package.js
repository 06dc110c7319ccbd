import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { CreateError } from './errors.js'
import { runNpm } from './npm.js'

// Where `duet` sits when this scaffolder runs from a Duet checkout (packages/create-duet-app).
const CHECKOUT = fileURLToPath(new URL('../../duet/', import.meta.url))
// What the project needs from duet's build: its exports and its bin.
const BUILT = ['dist/index.js', 'dist/mcp/index.js', 'dist/server/index.js', 'dist/testing/index.js', 'dist/jsx/jsx-runtime.js', 'dist/build/index.js', 'dist/cli/bin.js']

/**
 * The Duet checkout this scaffolder belongs to, or `undefined` when it was installed from the
 * registry (then projects take `duet` from the registry too).
 * @returns {{ dir: string, version: string } | undefined}
 */
export function findDuetCheckout() {
  try {
    const pkg = JSON.parse(readFileSync(join(CHECKOUT, 'package.json'), 'utf8'))
    // A source tree, not an installed copy of the published package.
    if (pkg.name === 'duet' && existsSync(join(CHECKOUT, 'tsconfig.build.json')) && existsSync(join(CHECKOUT, 'src'))) {
      return { dir: CHECKOUT, version: pkg.version }
    }
  } catch {
    // no package.json there: not a checkout
  }
  return undefined
}

function newestMtime(dir) {
  let newest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs)
  }
  return newest
}

/** True when some export is missing from `dist/` or a source file changed after the last build. */
export function needsBuild(dir) {
  if (!BUILT.every((file) => existsSync(join(dir, file)))) return true
  return newestMtime(join(dir, 'src')) > statSync(join(dir, 'dist/index.js')).mtimeMs
}

/**
 * Packs the checkout's `duet` into `<project>/vendor/` (building it first when needed) and returns
 * the dependency spec for the project's package.json, e.g. `file:vendor/duet-0.1.0.tgz`.
 *
 * A tarball rather than a `file:` link to the folder: npm installs a tarball like a published
 * package (its own copy, its dependencies resolved in the project), so the project neither reaches
 * into the checkout's node_modules nor breaks when the checkout is rebuilt, moved or deleted.
 * @param {{ dir: string }} checkout
 * @param {string} projectDir
 * @param {(line: string) => void} log
 */
export async function vendorDuet(checkout, projectDir, log) {
  if (needsBuild(checkout.dir)) {
    log('Building duet in this checkout (npm run build)…')
    const build = await runNpm(['run', 'build'], checkout.dir)
    const errors = build.output.split('\n').filter((line) => /error TS\d+/.test(line))
    if (build.code !== 0 && (needsBuild(checkout.dir) || errors.length === 0)) {
      throw new CreateError('E_DUET', `Building duet failed (npm run build in ${checkout.dir} exited ${build.code}). Run \`npm ci\` at the repository root if you have not, then try again.\n${build.output.trim().split('\n').slice(-15).join('\n')}`, { dir: checkout.dir })
    }
    // tsc still writes every file when it finds type errors; someone mid-change in duet can go on.
    if (build.code !== 0) log(`Warning: duet's build reported type errors; its fresh output is used anyway:\n  ${errors.slice(0, 5).join('\n  ')}`)
  }
  const vendor = join(projectDir, 'vendor')
  mkdirSync(vendor, { recursive: true })
  const pack = await runNpm(['pack', '--json', '--pack-destination', vendor], checkout.dir)
  let filename
  try {
    filename = JSON.parse(pack.stdout)[0].filename
  } catch {
    // handled below with npm's own words
  }
  if (pack.code !== 0 || typeof filename !== 'string' || !existsSync(join(vendor, filename))) {
    throw new CreateError('E_DUET', `Packing duet failed (npm pack in ${checkout.dir} exited ${pack.code}).\n${pack.output.trim()}`, { dir: checkout.dir })
  }
  return `file:vendor/${filename}`
}
