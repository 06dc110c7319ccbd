// The README is the front door: short, and every link in it (and in each package's README) leads somewhere.
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../..', import.meta.url))
const READMES = ['README.md', 'packages/duetkit/README.md', 'packages/server/README.md', 'packages/create-duet-app/README.md']

/** The relative link targets of a Markdown file, outside code blocks and without their #fragments. */
function relativeLinks(markdown: string): string[] {
  const prose = markdown.replace(/```[\s\S]*?```/g, '')
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1])
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith('#'))
    .map((target) => target.split('#')[0])
}

describe('README.md', () => {
  it('is at most 250 lines', () => {
    const lines = readFileSync(join(root, 'README.md'), 'utf8').trimEnd().split('\n').length
    expect(lines).toBeLessThanOrEqual(250)
  })

  for (const readme of READMES) {
    it(`${readme}: every relative link resolves to a file in the repository`, () => {
      const file = join(root, readme)
      expect(existsSync(file), `${readme} exists`).toBe(true)
      const broken = relativeLinks(readFileSync(file, 'utf8')).filter((target) => !existsSync(resolve(dirname(file), decodeURI(target))))
      expect(broken).toEqual([])
    })
  }

  it('finds links it must check (the checker is not vacuous)', () => {
    expect(relativeLinks('[a](docs/x.md) [b](https://x.org) [c](#top) [d](./y.md#part) `[e](z.md)`')).toEqual(['docs/x.md', './y.md'])
  })
})
