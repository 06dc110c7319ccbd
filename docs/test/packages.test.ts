// What npm users get: every published package lints clean with publint, and the libraries' types resolve
// for ESM consumers (@arethetypeswrong/cli, ESM-only profile). Run on the built packages (`npm test` builds first).
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../..', import.meta.url))
const bin = (name: string) => join(root, 'node_modules/.bin', name)
const PACKAGES = ['duetkit', 'server', 'cli', 'create-duet-app']

describe('published packages', () => {
  for (const dir of PACKAGES) {
    it(`packages/${dir}: publint finds nothing, and the package names its repository, homepage and bugs`, () => {
      const pkg = JSON.parse(readFileSync(join(root, 'packages', dir, 'package.json'), 'utf8'))
      expect(pkg).toMatchObject({ license: 'MIT', repository: { url: expect.any(String) }, homepage: expect.any(String), bugs: { url: expect.any(String) } })
      const run = spawnSync(bin('publint'), ['--strict'], { cwd: join(root, 'packages', dir), encoding: 'utf8', timeout: 120_000 })
      expect(run.status, `${run.stdout}${run.stderr}`).toBe(0)
      expect(run.stdout).toContain('All good!')
    }, 150_000)
  }

  for (const dir of ['duetkit', 'server']) {
    it(`packages/${dir}: are-the-types-wrong reports no problem for ESM consumers`, () => {
      const run = spawnSync(bin('attw'), ['--pack', join('packages', dir), '--profile', 'esm-only', '--format', 'ascii'], {
        cwd: root,
        encoding: 'utf8',
        timeout: 180_000,
      })
      expect(run.status, `${run.stdout}${run.stderr}`).toBe(0)
    }, 200_000)
  }
})
