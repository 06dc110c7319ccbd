import { describe, expect, it } from 'vitest'
import { isDuetError } from 'duetkit/protocol'
import { compileComponent } from '../../src/apps/compile-component.js'

// What the agent reads when its module does not compile: the place in its own source (line, column, the
// line's text) and words that point at the mistake rather than at the parser's confusion.

async function failure(source: string) {
  try {
    await compileComponent(source)
  } catch (err) {
    if (isDuetError(err) && err.code === 'COMPILE_ERROR') return err
    throw err
  }
  throw new Error('compiled, but should not have')
}

describe('compile errors point at the agent’s mistake', () => {
  it('a JSX expression left open names the open brace and the closing tag, not "Unterminated regular expression"', async () => {
    const err = await failure('function V({ state }) {\n  return (\n    <div>\n      <p>{state.count</p>\n    </div>\n  )\n}\nexport default V\n')
    expect(err.message).not.toMatch(/regular expression$/m)
    expect(err.message).toContain('line 4, column 22: JSX left open: the "{" at column 10 is not closed before `</p>`')
    expect(err.message).toContain('      <p>{state.count</p>')
    expect(err.data!.problems).toEqual([{ text: expect.stringMatching(/^JSX left open/), line: 4, column: 22, lineText: '      <p>{state.count</p>' }])
  })

  it('a missing default export lists what the module does export', async () => {
    const err = await failure('export function Counter() { return <p>1</p> }\nexport const LIMIT = 3\n')
    expect(err.message).toContain('The module has no default export')
    expect(err.message).toContain('It exports `Counter`, `LIMIT`.')
  })

  it('a missing named import from duetkit lists what duetkit exports, at the import’s line', async () => {
    const err = await failure("import { stream } from 'duetkit'\nfunction V() { return <p>{String(stream)}</p> }\nexport default V\n")
    expect(err.message).toContain('line 1, column 10: duetkit has no export named "stream". It exports: ')
    expect(err.message).toContain('`xs`')
    expect(err.message).toContain("import { stream } from 'duetkit'")
  })

  it('a missing named import from duetkit/mcp lists duetkit/mcp’s exports', async () => {
    const err = await failure("import { makeDriver } from 'duetkit/mcp'\nfunction V() { return <p>{String(makeDriver)}</p> }\nexport default V\n")
    expect(err.message).toMatch(/duetkit\/mcp has no export named "makeDriver"\. It exports: .*`agentChannel`/)
  })
})

describe('a compiled component carries the map back to the agent’s source', () => {
  it('names its script for stack frames and embeds an inline source map holding the agent’s text', async () => {
    const source = 'function V() {\n  return <p>hello</p>\n}\nexport default V\n'
    const { script } = await compileComponent(source)
    expect(script).toMatch(/\/\/# sourceURL=duet-component\.js\n$/)
    const encoded = /\/\/# sourceMappingURL=data:application\/json;base64,(\S+)/.exec(script)![1]
    const map = JSON.parse(Buffer.from(encoded, 'base64').toString('utf8'))
    const at = map.sources.findIndex((s: string) => s === 'duet-agent:component.jsx')
    expect(at).toBeGreaterThanOrEqual(0)
    expect(map.sourcesContent[at]).toBe(source)
  })
})

describe('the source map never costs a module its compile', () => {
  it('a module whose code fits the output limit but whose map would not compiles without the map', async () => {
    const text = 'x'.repeat(30_000)
    const source = `const TEXT = '${text}'\nexport default function V() { return <p>{TEXT.length}</p> }\n`
    const { script } = await compileComponent(source, { maxOutputBytes: 45_000 })
    expect(script).toContain(text)
    expect(script).not.toContain('sourceMappingURL')
    expect(script).toMatch(/\/\/# sourceURL=duet-component\.js\n$/)
    const mapped = await compileComponent(source)
    expect(mapped.script).toContain('sourceMappingURL=data:application/json;base64,')
  })
})
