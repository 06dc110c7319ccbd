// Every code sample on the site is a file under docs/samples that the docs project type-checks
// (`npm run typecheck`) and runs where it has a test: pages include them with `<<<`, never inline.
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const docs = fileURLToPath(new URL('..', import.meta.url))
const pages = readdirSync(docs, { recursive: true })
  .map(String)
  .filter((f) => f.endsWith('.md') && !f.startsWith('reference/api') && !f.includes('node_modules') && !f.startsWith('.vitepress'))

describe('docs code samples', () => {
  it('finds the pages', () => {
    expect(pages).toContain('guide/first-app.md')
  })

  for (const page of pages) {
    it(`${page}: no inline TypeScript or JavaScript, and every included sample exists`, () => {
      const text = readFileSync(join(docs, page), 'utf8')
      const inline = [...text.matchAll(/^```(ts|tsx|js|jsx|typescript|javascript)\b/gm)].map((m) => m[0])
      expect(inline, 'code samples go in docs/samples and are included with <<<').toEqual([])
      for (const [, path] of text.matchAll(/^<<< @\/(\S+?)(?:\{.*\})?$/gm)) expect(existsSync(join(docs, path)), path).toBe(true)
    })
  }
})
