import { defineConfig } from 'vitest/config'

// Every package and example is a vitest project with its own config, so `npm test` at the root runs them all.
export default defineConfig({
  test: {
    projects: ['packages/*', 'examples/*', 'docs'],
  },
})
