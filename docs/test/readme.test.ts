// The README is the front door: short, and every link in it (and in each package's README) leads somewhere.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../..', import.meta.url))
const READMES = ['README.md', 'packages/duetkit/README.md', 'packages/server/README.md', 'packages/cli/README.md', 'packages/create-duet-app/README.md']

/** The relative link targets of a Markdown file, outside code (blocks and spans), without their #fragments. */
function relativeLinks(markdown: string): string[] {
  const prose = markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '')
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

describe("README.md's code", () => {
  it('the first-app snippet type-checks against the to-do sample server', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8')
    const snippet = /```tsx\n([\s\S]*?)```/.exec(readme)?.[1]
    expect(snippet).toContain('component<')
    // What the snippet leaves out: its imports and the state it names.
    const prelude = `import { component, run, type NoProps } from 'duetkit'
import { makeMcpAppDriver, type McpDrivers } from 'duetkit/mcp'
import type { TodoServer } from './todo/server'
interface State { todos: { text: string; done: boolean }[] }
`
    const file = join(root, `docs/samples/readme-snippet-${process.pid}.tsx`)
    writeFileSync(file, `${prelude}${snippet}`)
    try {
      const configPath = join(root, 'docs/samples/tsconfig.json')
      const config = ts.getParsedCommandLineOfConfigFile(configPath, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} })
      const program = ts.createProgram([file], config!.options)
      const errors = ts.getPreEmitDiagnostics(program, program.getSourceFile(file)).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))
      expect(errors).toEqual([])
    } finally {
      rmSync(file, { force: true })
    }
  }, 60_000)
})
