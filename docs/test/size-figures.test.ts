// The size of an example's view stated in the docs is what its build prints: each figure is checked
// against a fresh `vite build` of the example (its `gzip: … kB` line), within a tenth of a kB or so.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'

const repo = fileURLToPath(new URL('../../', import.meta.url))
const page = (p: string) => readFileSync(join(repo, 'docs', p), 'utf8')
// Vite's figure moves by a few bytes with the build's hashes; the docs round to a tenth.
const TOLERANCE_KB = 0.15
const out = mkdtempSync(join(tmpdir(), 'duet-size-figures-'))
afterAll(() => rmSync(out, { recursive: true, force: true }))

/** What `vite build` prints for the example's dist/index.html, gzip, in kB (1000 bytes). */
function builtGzipKb(example: string): number {
  const r = spawnSync(process.execPath, [join(repo, 'node_modules/vite/bin/vite.js'), 'build', '--outDir', join(out, example), '--emptyOutDir'], {
    cwd: join(repo, 'examples', example),
    encoding: 'utf8',
    // As `npm run build` runs it: vitest's NODE_ENV=test would make Vite build something else.
    env: { ...process.env, NODE_ENV: 'production', NO_COLOR: '1', FORCE_COLOR: '0' },
  })
  expect(r.status, r.stderr).toBe(0)
  const figure = /index\.html\s+[\d.]+ kB │ gzip: ([\d.]+) kB/.exec(r.stdout)?.[1]
  expect(figure, r.stdout).toBeDefined()
  return Number(figure)
}

/** The one figure `pattern` finds on a page, as a number. */
function stated(file: string, pattern: RegExp): number {
  const found = [...page(file).matchAll(new RegExp(pattern, 'g'))].map((m) => Number(m[1]))
  expect(found, `${file}: ${pattern}`).toHaveLength(1)
  return found[0]!
}

describe("the docs' view sizes are the build's", { timeout: 120_000 }, () => {
  it('forecast: the MCP driver guide and the comparison state what vite build prints', () => {
    const built = builtGzipKb('forecast')
    expect(Math.abs(stated('guide/mcp-driver.md', /forecast\s+example's built view \(`dist\/index\.html`,\s+([\d.]+) kB gzip/) - built)).toBeLessThanOrEqual(
      TOLERANCE_KB,
    )
    expect(Math.abs(stated('compare.md', /the forecast card builds to ([\d.]+) kB gzip/) - built)).toBeLessThanOrEqual(TOLERANCE_KB)
  })

  it("forecast on the official App: the comparison states the bench's figure (docs/benchmarks.md)", () => {
    // bench:mcp's size table, as pasted: `forecast  <Duet raw>  <Duet gzip>  <official raw>  <official gzip>`.
    const row = /^forecast\s+[\d.]+ KB\s+[\d.]+ KB\s+[\d.]+ KB\s+([\d.]+) KB/m.exec(page('benchmarks.md'))
    expect(row).not.toBeNull()
    expect(stated('compare.md', /N: the same card is ([\d.]+) KB gzip/)).toBe(Number(row![1]))
  })

  it('reader: the MCP driver guide states what vite build prints', () => {
    const built = builtGzipKb('reader')
    expect(Math.abs(stated('guide/mcp-driver.md', /the reader's \(([\d.]+) kB\)/) - built)).toBeLessThanOrEqual(TOLERANCE_KB)
  })
})
