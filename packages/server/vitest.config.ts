import { defineConfig } from 'vitest/config'
import { duetkitAliases } from '../../test/support/duetkit-aliases.js'

export default defineConfig({
  resolve: { alias: duetkitAliases },
  oxc: { jsx: { runtime: 'automatic', importSource: 'duetkit' } },
  test: {
    name: 'server',
    include: ['test/**/*.test.{ts,tsx,jsx}'],
    // One worker process runs many files in turn instead of a fresh process a file, so each file's
    // imports are evaluated once per worker, not once per file. One full run on 2 cores: import time
    // summed over files 273 s → 95 s, the run 643 s → 569 s. Tests must put back what they change
    // (console spies, timers, process.env), as they all do; modules keep state per instance, not per process.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
})
