import { defineConfig } from 'vitest/config'

// Every package and example is a vitest project with its own config, so `npm test` at the root runs them all.
export default defineConfig({
  test: {
    projects: ['packages/*', 'examples/*', 'docs'],
    // Vitest's default on a 2-core machine is one worker. Most of these tests wait on child processes,
    // Chromium, timers and sockets rather than compute, so more workers than cores overlap the waits.
    maxWorkers: 4,
    // One Chromium for the run; `launchBrowser()` in test/support/browser.ts connects to it.
    globalSetup: ['test/support/shared-chromium.ts'],
  },
})
