import { describe, expect, it } from 'vitest'
import { compileComponent, type CompileProblem } from '../../src/apps/compile-component.js'
import { DuetError } from 'duetkit/protocol'

const COUNTER = `import { xs } from 'duetkit'

function Counter({ state }) {
  return <button type="button" className="inc">{\`Clicked \${state.n} times\`}</button>
}
Counter.initialState = { n: 0 }
Counter.intent = ({ DOM }) => ({ INC: xs.merge(DOM.click('.inc')) })
Counter.model = { INC: (state) => ({ n: state.n + 1 }) }
export default Counter
`

async function problemsOf(source: string): Promise<{ err: DuetError; problems: CompileProblem[] }> {
  try {
    await compileComponent(source)
  } catch (err) {
    expect(err).toBeInstanceOf(DuetError)
    return { err: err as DuetError, problems: (err as DuetError).data!.problems as CompileProblem[] }
  }
  throw new Error('expected a compile error')
}

describe('compileComponent', () => {
  it('compiles JSX into one script that takes duetkit from the shell and mounts the default export', async () => {
    const { script } = await compileComponent(COUNTER)
    expect(script).toContain('globalThis.__duetModules["duetkit"]')
    expect(script).toContain('globalThis.__duetModules["duetkit/jsx-runtime"]')
    expect(script).toContain('globalThis.__duetMount(')
    expect(script).not.toMatch(/^\s*import\s/m)
    // The runtime itself is not in it: the shell already has it. (The script is the component, one
    // line per duetkit export taken from the shell, and its source map: about 4 KB, the runtime 30.)
    expect(script).not.toContain('renders in one flush')
    expect(script.length).toBeLessThan(6000)
  })

  it('reports a syntax error with its line and column', async () => {
    const { err, problems } = await problemsOf('function View() {\n  return <p>hi</p>\n}\nView.model = { A: (s) => s +* 1 }\nexport default View\n')
    expect(err.code).toBe('COMPILE_ERROR')
    expect(problems[0]).toMatchObject({ line: 4, column: 29 })
    expect(err.message).toMatch(/line 4, column 29: /)
    expect(err.message).toContain('View.model = { A: (s) => s +* 1 }')
  })

  it('reports an unclosed JSX tag where it is', async () => {
    const { problems } = await problemsOf('export default function View() {\n  return <div><p>hi</div>\n}\n')
    expect(problems[0].line).toBe(2)
    expect(problems[0].text).toMatch(/closing "div" tag/)
  })

  it('refuses imports other than duetkit and duetkit/mcp, naming the import and its line', async () => {
    for (const spec of ['react', './helpers.js', 'https://cdn.jsdelivr.net/npm/lodash', 'node:fs', '../../../etc/passwd']) {
      const { problems } = await problemsOf(`import x from '${spec}'\nexport default function V() { return <p>{String(x)}</p> }\n`)
      expect(problems[0]).toMatchObject({ line: 1 })
      expect(problems[0].text).toContain(`Cannot import "${spec}"`)
    }
    const dynamic = await problemsOf(`export default function V() { import('node:child_process'); return <p /> }\n`)
    expect(dynamic.problems[0].text).toContain('Cannot import "node:child_process"')
    const required = await problemsOf(`const fs = require('fs')\nexport default function V() { return <p /> }\n`)
    expect(required.problems[0].text).toContain('Cannot import "fs"')
  })

  it('refuses a name duetkit does not export, and a module without a default export', async () => {
    const missing = await problemsOf(`import { useState } from 'duetkit'\nexport default function V() { return <p>{useState}</p> }\n`)
    expect(missing.problems[0]).toMatchObject({ line: 1 })
    expect(missing.problems[0].text).toMatch(/useState/)
    const noDefault = await problemsOf(`export function V() { return <p /> }\n`)
    expect(noDefault.problems[0].text).toMatch(/no default export/)
  })

  it('accepts TypeScript annotations and type-only imports', async () => {
    const { script } = await compileComponent(
      `import type { Component } from 'duetkit'\nconst V: Component<{ n: number }> = ({ state }) => <p>{state.n}</p>\nV.initialState = { n: 1 }\nexport default V\n`,
    )
    expect(script).toContain('__duetMount')
  })

  it('rejects an empty source', async () => {
    await expect(compileComponent('  ')).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' })
  })
})
