// The JavaScript starter, scaffolded and used as a user would (scaffold-project.js); then a project that
// installs only duetkit, from that project's packed tarball.
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs'
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { describeProject, env, INSTALL_TIMEOUT, run } from './scaffold-project.js'

const rootOf = describeProject('js')

// A view author installs duetkit alone: none of the server's weight (native builds, bundlers, Redis,
// the MCP SDK, zod) may come with it.
describe('a project that installs only duetkit', () => {
  const FORBIDDEN = /^(better-sqlite3|esbuild|redis|zod|@modelcontextprotocol\/.*|@duetkit\/server)$/

  /** Every installed package in `npm ls --all --json`'s tree: name → the chain of packages that pulled it in. */
  function installed(tree, via = [], out = new Map()) {
    for (const [name, node] of Object.entries(tree.dependencies ?? {})) {
      // An unmet optional peer (vite, for duetkit/vite) is listed without a version: not installed.
      if (!node.version) continue
      out.set(name, [...via, name])
      installed(node, [...via, name], out)
    }
    return out
  }

  it(
    'has duetkit with xstream, snabbdom and their own small dependencies, and nothing of the server',
    async () => {
      const root = rootOf()
      const dir = join(root, 'duetkit-only')
      mkdirSync(dir)
      copyFileSync(join(root, 'forecast-js/vendor/duetkit-0.1.0.tgz'), join(dir, 'duetkit-0.1.0.tgz'))
      writeFileSync(
        join(dir, 'package.json'),
        `${JSON.stringify({ name: 'duetkit-only', version: '1.0.0', private: true, dependencies: { duetkit: 'file:duetkit-0.1.0.tgz' } }, null, 2)}\n`,
      )
      // The scaffolded projects have put xstream and snabbdom in the npm cache; offline first, the registry only if not.
      let install = await run('npm', ['install', '--offline', '--no-audit', '--no-fund'], dir)
      if (install.code !== 0) install = await run('npm', ['install', '--no-audit', '--no-fund'], dir)
      expect(install.code, install.output).toBe(0)

      // stdout alone: npm may warn on stderr, and the JSON must parse.
      const ls = spawnSync('npm', ['ls', '--all', '--json'], { cwd: dir, env, encoding: 'utf8' })
      expect(ls.status, ls.stderr).toBe(0)
      const tree = JSON.parse(ls.stdout)
      expect(Object.keys(tree.dependencies)).toEqual(['duetkit'])
      const direct = Object.entries(tree.dependencies.duetkit.dependencies ?? {})
        .filter(([, node]) => node.version)
        .map(([name]) => name)
      expect(direct.sort()).toEqual(['snabbdom', 'xstream'])
      const all = installed(tree)
      expect([...all.keys()].filter((name) => FORBIDDEN.test(name))).toEqual([])
      // Everything else hangs off xstream or snabbdom (symbol-observable, globalthis and its shims).
      expect([...all.values()].filter((chain) => chain.length > 2 && !['xstream', 'snabbdom'].includes(chain[1]))).toEqual([])
      expect(all.size).toBeLessThan(20)
    },
    INSTALL_TIMEOUT,
  )
})
