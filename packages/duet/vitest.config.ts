import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

const src = (p: string) => fileURLToPath(new URL(`./src/${p}`, import.meta.url))

// Tests import `duet` and its subpaths from source, so they never run against a stale build.
export default defineConfig({
  resolve: {
    alias: [
      { find: /^duet\/jsx-runtime$/, replacement: src('jsx/jsx-runtime.ts') },
      { find: /^duet\/jsx-dev-runtime$/, replacement: src('jsx/jsx-dev-runtime.ts') },
      { find: /^duet\/(mcp|server|testing)$/, replacement: src('$1/index.ts') },
      { find: /^duet\/vite$/, replacement: src('build/index.ts') },
      { find: /^duet$/, replacement: src('index.ts') },
    ],
  },
  oxc: { jsx: { runtime: 'automatic', importSource: 'duet' } },
  test: {
    name: 'duet',
    include: ['test/**/*.test.{ts,tsx,jsx}'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
})
