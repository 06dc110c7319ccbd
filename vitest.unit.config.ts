import { existsSync, readdirSync } from 'node:fs'
import { basename, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { configDefaults, defineConfig } from 'vitest/config'

/**
 * `npm run test:unit` (after the builds, as `npm test`): every project of `npm test` without the tests
 * that need Chromium, a Redis server or npm installs, so it runs anywhere in about a minute. Such
 * tests are known by their file names; a new one must be named so too (`*.e2e.test.*` is the usual choice).
 */
const NEEDS_MORE = [
  '**/*.e2e.test.*', // Chromium (the scaffold e2e also runs npm install)
  '**/e2e-*.test.*', // Chromium: the agent-apps display and reader end to end
  '**/chromium.test.*', // Chromium: the real DOM backend
  '**/*.browser.test.*', // Chromium: an example in a page
  '**/*-redis.test.*', // a redis-server (the stores, the agent-apps store, replicas, the CLI's --redis-url)
]

// The same projects as vitest.config.ts ('packages/*', 'examples/*'), each with its own config and
// the exclusions added: a root `exclude` does not reach projects.
const CONFIG_NAMES = ['vitest.config.ts', 'vitest.config.js', 'vite.config.ts', 'vite.config.js']
const root = fileURLToPath(new URL('.', import.meta.url))
const projectDirs = ['packages', 'examples'].flatMap((parent) =>
  readdirSync(join(root, parent), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => join(root, parent, e.name)),
)

export default defineConfig({
  test: {
    // Vitest's default on this 2-core machine is one worker. Most of these tests wait on child
    // processes, timers and sockets rather than compute, so more workers than cores overlap the waits.
    maxWorkers: 4,
    projects: projectDirs.map((dir) => {
      const config = CONFIG_NAMES.map((name) => join(dir, name)).find((file) => existsSync(file))
      return {
        ...(config ? { extends: config } : {}),
        root: dir,
        test: { name: basename(dir), exclude: [...configDefaults.exclude, ...NEEDS_MORE] },
      }
    }),
  },
})
