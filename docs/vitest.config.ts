import { defineConfig } from 'vitest/config'
import { duetkitAliases } from '../test/support/duetkit-aliases.js'

// The docs are a vitest project: their samples run, their links resolve, and the site builds.
export default defineConfig({
  resolve: { alias: duetkitAliases },
  oxc: { jsx: { runtime: 'automatic', importSource: 'duetkit' } },
  test: {
    name: 'docs',
    include: ['samples/**/*.test.{ts,tsx}', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
})
