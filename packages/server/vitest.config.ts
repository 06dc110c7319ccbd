import { defineConfig } from 'vitest/config'
import { duetkitAliases } from '../../test/support/duetkit-aliases.js'

export default defineConfig({
  resolve: { alias: duetkitAliases },
  oxc: { jsx: { runtime: 'automatic', importSource: 'duetkit' } },
  test: {
    name: 'server',
    include: ['test/**/*.test.{ts,tsx,jsx}'],
    // One worker process runs many files in turn instead of a fresh process a file, so each file's
    // imports are evaluated once per worker, not once per file. Two full runs on 2 cores, one after the
    // other: import time summed over files 257 s → 110 s, CPU 930 s → 810 s, the run 655 s → 598 s.
    // Tests must put back what they change (console spies, timers, process.env), as they all do;
    // modules keep state per instance, not per process.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
})
