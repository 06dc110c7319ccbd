import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { DuetError } from './errors.js'

const cache = new Map<string, string>()

/**
 * A file `npm run build` bundled into `dist/assets/` (the display shell, the `duet dev` page), so no
 * process runs esbuild on Duet's own code. From `dist/server/` the folder is a sibling; from `src/`
 * (the workspace's tests) it is the built one beside the sources; from a bundle of this module (the
 * tests' child processes) it is the installed package's.
 */
export function readBuiltAsset(name: string): string {
  const cached = cache.get(name)
  if (cached !== undefined) return cached
  const candidates = [new URL(`../assets/${name}`, import.meta.url), new URL(`../../dist/assets/${name}`, import.meta.url)].map((u) => fileURLToPath(u))
  try {
    candidates.push(join(dirname(createRequire(import.meta.url).resolve('@duetkit/server/package.json')), 'dist', 'assets', name))
  } catch {
    // Not installed as a package: the folders beside this module are all there is.
  }
  const file = candidates.find((f) => existsSync(f))
  if (!file) {
    throw new DuetError(
      'NOT_BUILT',
      `@duetkit/server: the built asset ${name} is missing (looked in ${candidates.join(', ')}); run \`npm run build\` in the package, or reinstall it.`,
      { name },
    )
  }
  const text = readFileSync(file, 'utf8')
  cache.set(name, text)
  return text
}
