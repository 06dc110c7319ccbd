import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

// A path joined to this file's folder, not `new URL(path, import.meta.url)`: in a DOM test environment
// (happy-dom) Vite transforms that pattern as an asset URL of the page, which is no file path.
const here = dirname(fileURLToPath(import.meta.url))
const src = (p: string) => join(here, '../../packages/duetkit/src', p)

/** `duetkit` and each subpath, mapped to its source file, so tests never run against a stale build. */
export const duetkitSources: Record<string, string> = {
  duetkit: src('index.ts'),
  'duetkit/jsx-runtime': src('jsx/jsx-runtime.ts'),
  'duetkit/jsx-dev-runtime': src('jsx/jsx-dev-runtime.ts'),
  'duetkit/mcp': src('mcp/index.ts'),
  'duetkit/testing': src('testing/index.ts'),
  'duetkit/protocol': src('protocol/index.ts'),
  'duetkit/vite': src('build/index.ts'),
}

const exact = (name: string) => new RegExp(`^${name.replace(/[/]/g, '\\/')}$`)

/** The same map as Vite aliases (exact matches, so `duetkit` does not catch `duetkit/mcp`). */
export const duetkitAliases = Object.entries(duetkitSources).map(([name, file]) => ({ find: exact(name), replacement: file }))
