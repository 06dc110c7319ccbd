import { defineConfig } from 'vitest/config'
import { duetkitAliases } from '../../test/support/duetkit-aliases.js'

export default defineConfig({
  resolve: { alias: duetkitAliases },
  oxc: { jsx: { runtime: 'automatic', importSource: 'duetkit' } },
  test: {
    name: 'server',
    include: ['test/**/*.test.{ts,tsx,jsx}'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
})
