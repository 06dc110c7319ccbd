import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { CreateError } from './errors.js'
import { runNpm } from './npm.js'

// Where Duet's packages sit when this scaffolder runs from a checkout (packages/create-duet-app).
const PACKAGES = fileURLToPath(new URL('../../', import.meta.url))

/**
 * What a project depends on, in build order: @duetkit/server's build bundles duetkit's code into its
 * display shell and dev page, so it is rebuilt whenever duetkit is. `extra` are built files no export
 * names: the `duet` command and those bundles. @duetkit/cli is not built: its bin loads @duetkit/server's.
 */
const DUET_PACKAGES = [
  { name: 'duetkit', folder: 'duetkit', extra: [] },
  { name: '@duetkit/server', folder: 'server', extra: ['dist/cli/bin.js', 'dist/assets/display-shell.html', 'dist/assets/dev-page.js'] },
  { name: '@duetkit/cli', folder: 'cli', extra: ['bin/duet.js'], source: false },
]

/**
 * @typedef {object} CheckoutPackage
 * @property {string} name the npm name, e.g. `@duetkit/server`
 * @property {string} dir its folder in the checkout
 * @property {string} version
 * @property {string[]} built files its build writes, relative to `dir`
 * @property {boolean} source false for a package with nothing to build (@duetkit/cli)
 */

/**
 * Duet's packages in the checkout this scaffolder belongs to, or `undefined` when it was installed
 * from the registry (then projects take them from the registry too).
 * @returns {{ packages: CheckoutPackage[] } | undefined}
 */
export function findDuetCheckout() {
  const packages = []
  for (const { name, folder, extra, source = true } of DUET_PACKAGES) {
    const dir = join(PACKAGES, folder)
    let pkg
    try {
      pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
    } catch {
      return undefined
    }
    // A source tree, not an installed copy of the published package.
    if (pkg.name !== name || (source && (!existsSync(join(dir, 'tsconfig.build.json')) || !existsSync(join(dir, 'src'))))) return undefined
    packages.push({ name, dir, version: pkg.version, built: [...exportedFiles(pkg), ...extra], source })
  }
  return { packages }
}

/**
 * The root of the Duet checkout this scaffolder runs from, or `undefined` when it was installed.
 * @returns {string | undefined}
 */
export function duetCheckoutRoot() {
  return findDuetCheckout() ? join(PACKAGES, '..') : undefined
}

/** The files package.json's `exports` point at (the JavaScript of each entry point). */
function exportedFiles(pkg) {
  return Object.values(pkg.exports ?? {})
    .map((target) => (typeof target === 'string' ? target : target.default))
    .filter((file) => typeof file === 'string' && file.startsWith('./dist/'))
    .map((file) => file.slice(2))
}

function newestMtime(dir) {
  let newest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs)
  }
  return newest
}

/** When `pkg` was last built (its dist/index.js), or 0 when it never was. */
function builtAt(pkg) {
  const index = join(pkg.dir, 'dist/index.js')
  return existsSync(index) ? statSync(index).mtimeMs : 0
}

/**
 * True when a file `pkg` builds is missing, a source file changed after its last build, or the
 * package it bundles was built after it (`dependencyBuiltAt`).
 * @param {CheckoutPackage} pkg
 * @param {number} [dependencyBuiltAt]
 */
export function needsBuild(pkg, dependencyBuiltAt = 0) {
  if (!pkg.built.every((file) => existsSync(join(pkg.dir, file)))) return true
  const built = builtAt(pkg)
  return newestMtime(join(pkg.dir, 'src')) > built || dependencyBuiltAt > built
}

async function build(pkg, log) {
  log(`Building ${pkg.name} in this checkout (npm run build)…`)
  const result = await runNpm(['run', 'build'], pkg.dir)
  const errors = result.output.split('\n').filter((line) => /error TS\d+/.test(line))
  if (result.code !== 0 && (needsBuild(pkg) || errors.length === 0)) {
    throw new CreateError(
      'BUILD_FAILED',
      `Building ${pkg.name} failed (npm run build in ${pkg.dir} exited ${result.code}). Run \`npm ci\` at the repository root if you have not, then try again.\n${result.output.trim().split('\n').slice(-15).join('\n')}`,
      { dir: pkg.dir },
    )
  }
  // tsc still writes every file when it finds type errors; someone mid-change in Duet can go on.
  if (result.code !== 0) log(`Warning: ${pkg.name}'s build reported type errors; its fresh output is used anyway:\n  ${errors.slice(0, 5).join('\n  ')}`)
}

async function pack(pkg, vendor) {
  const result = await runNpm(['pack', '--json', '--pack-destination', vendor], pkg.dir)
  let filename
  try {
    filename = JSON.parse(result.stdout)[0].filename
  } catch {
    // handled below with npm's own words
  }
  if (result.code !== 0 || typeof filename !== 'string' || !existsSync(join(vendor, filename))) {
    throw new CreateError('BUILD_FAILED', `Packing ${pkg.name} failed (npm pack in ${pkg.dir} exited ${result.code}).\n${result.output.trim()}`, {
      dir: pkg.dir,
    })
  }
  return filename
}

/**
 * Packs the checkout's duetkit and @duetkit/server into `<project>/vendor/` (building them first when
 * needed) and returns the dependency spec of each for the project's package.json, e.g.
 * `{ duetkit: 'file:vendor/duetkit-0.1.0.tgz', '@duetkit/server': 'file:vendor/duetkit-server-0.1.0.tgz' }`.
 *
 * Tarballs rather than `file:` links to the folders: npm installs a tarball like a published package
 * (its own copy, its dependencies resolved in the project), so the project neither reaches into the
 * checkout's node_modules nor breaks when the checkout is rebuilt, moved or deleted.
 * @param {{ packages: CheckoutPackage[] }} checkout
 * @param {string} projectDir
 * @param {(line: string) => void} log
 * @returns {Promise<Record<string, string>>}
 */
export async function vendorDuet(checkout, projectDir, log) {
  let dependencyBuiltAt = 0
  for (const pkg of checkout.packages.filter((p) => p.source)) {
    if (needsBuild(pkg, dependencyBuiltAt)) await build(pkg, log)
    dependencyBuiltAt = builtAt(pkg)
  }
  const vendor = join(projectDir, 'vendor')
  mkdirSync(vendor, { recursive: true })
  const specs = {}
  for (const pkg of checkout.packages) specs[pkg.name] = `file:vendor/${await pack(pkg, vendor)}`
  return specs
}
