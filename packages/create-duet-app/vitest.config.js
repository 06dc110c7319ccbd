import { defineConfig } from 'vitest/config'

// Only this package's tests: the templates' own tests run inside the projects they scaffold.
export default defineConfig({
  test: {
    name: 'create-duet-app',
    include: ['test/**/*.test.js'],
    testTimeout: 60_000,
    hookTimeout: 600_000,
  },
})
