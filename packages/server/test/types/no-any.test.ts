// The published types of @duetkit/server, from its entry point outwards, must not fall back to `any`:
// one `any` in a public signature silently turns off checking in every project that calls it.
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const PACKAGE = fileURLToPath(new URL('../../', import.meta.url))
const pkg = JSON.parse(readFileSync(join(PACKAGE, 'package.json'), 'utf8')) as { exports: Record<string, string | { types?: string }> }

/** The `.d.ts` files each `types` entry of package.json exports. */
function entryDeclarations(): string[] {
  return Object.values(pkg.exports)
    .map((target) => (typeof target === 'object' ? target.types : undefined))
    .filter((types): types is string => typeof types === 'string')
    .map((types) => resolve(PACKAGE, types))
}

/** Source text with comments and string literals blanked (line breaks kept), so only code tokens remain. */
function codeOnly(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*|'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"|`(?:\\.|[^`\\])*`/g, (match) => match.replace(/[^\n]/g, ' '))
}

/** Every declaration file reachable from the entries through relative imports and re-exports. */
function reachable(entries: string[]): Map<string, string> {
  const seen = new Map<string, string>()
  const queue = [...entries]
  while (queue.length > 0) {
    const file = queue.pop()!
    if (seen.has(file)) continue
    const text = readFileSync(file, 'utf8')
    seen.set(file, text)
    for (const [, spec] of text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
      const target = resolve(dirname(file), spec!.replace(/\.js$/, '.d.ts'))
      queue.push(existsSync(target) ? target : join(resolve(dirname(file), spec!), 'index.d.ts'))
    }
  }
  return seen
}

describe('the public types of @duetkit/server', () => {
  const entries = entryDeclarations()

  it('are built (npm run build in packages/server writes dist/)', () => {
    expect(entries.length).toBeGreaterThan(0)
    for (const entry of entries) expect(existsSync(entry), `${relative(PACKAGE, entry)} is missing: run npm run build`).toBe(true)
  })

  it('contain no `any` in any declaration file reachable from the package exports', () => {
    const files = reachable(entries.filter((entry) => existsSync(entry)))
    // The walk follows re-exports, so the server, channel and apps rooms are all in it.
    expect([...files.keys()].map((file) => relative(PACKAGE, file))).toEqual(
      expect.arrayContaining(['dist/index.d.ts', 'dist/server/app-server.d.ts', 'dist/server/tool-types.d.ts']),
    )
    const hits = [...files].flatMap(([file, text]) =>
      codeOnly(text)
        .split('\n')
        .flatMap((line, index) => (/\bany\b/.test(line) ? [`${relative(PACKAGE, file)}:${index + 1}: ${text.split('\n')[index]!.trim()}`] : [])),
    )
    expect(hits).toEqual([])
  })
})
