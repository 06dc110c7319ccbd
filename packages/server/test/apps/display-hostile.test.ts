import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SHELL_URI } from '../../src/apps/display-shell.js'
import { compileComponent, nestingDepth } from '../../src/apps/compile-component.js'
import { startDisplayServer, type DisplayServer } from './display-harness.js'

const textOf = (r: any): string => r.content?.[0]?.text ?? ''

const COUNTER = `import { xs } from 'duetkit'
function Counter({ state }) {
  return <button type="button" className="inc">{\`Clicked \${state.n} times\`}</button>
}
Counter.initialState = { n: 0 }
Counter.intent = ({ DOM }) => ({ INC: xs.merge(DOM.click('.inc')) })
Counter.model = { INC: (state) => ({ n: state.n + 1 }) }
export default Counter
`

// ~300,000 parentheses crashed the shared esbuild service (issue 14); the nesting limit refuses them first.
const deepParens = (n: number) => `const x = ${'('.repeat(n)}1${')'.repeat(n)}\nexport default () => <p>{x}</p>\n`
const deepJsx = (n: number) => `export default () => ${'<b>'.repeat(n)}x${'</b>'.repeat(n)}\n`

let server: DisplayServer
beforeAll(async () => {
  // A short time limit so the slow-compile case is quick; everything else uses the defaults.
  server = await startDisplayServer({ compileLimits: { timeoutMs: 4000 } })
})
afterAll(async () => {
  await server.close()
})

/** After each hostile call: a valid component renders and the shell is served, both promptly. */
async function stillServes(): Promise<void> {
  const started = Date.now()
  const shown = await server.call('display_component', { source: COUNTER })
  expect(shown.isError, textOf(shown)).toBeFalsy()
  expect(shown.structuredContent.channel_id).toBeTruthy()
  const { contents } = await server.client.readResource({ uri: SHELL_URI })
  expect((contents[0] as { text: string }).text).toContain('id="duet-root"')
  // Bounded: generous for a loaded 2-core machine, far below a hang.
  expect(Date.now() - started).toBeLessThan(15_000)
}

describe('display_component under hostile source', () => {
  it('refuses ~300,000 nested parentheses as a nesting limit, then still serves', async () => {
    const r = await server.call('display_component', { source: deepParens(300_000) })
    expect(r.isError).toBe(true)
    expect(textOf(r)).toMatch(/COMPILE_ERROR/)
    expect(textOf(r)).toMatch(/nests brackets more than 1000 deep/)
    await stillServes()
  })

  it('stops ~100,000 nested JSX elements (esbuild needs ~20 s and gigabytes for them) at a limit, then still serves', async () => {
    const r = await server.call('display_component', { source: deepJsx(100_000) })
    expect(r.isError).toBe(true)
    expect(textOf(r)).toMatch(/COMPILE_ERROR/)
    // Memory runs out first on a quick machine (the hard limit of the whole worker), time on a loaded one.
    expect(textOf(r)).toMatch(/more than its limit of 256 MB of memory|took longer than its limit of 4000 ms/)
    await stillServes()
  })

  it('refuses a 10 MB source with its size and the limit, then still serves', async () => {
    const r = await server.call('display_component', { source: `export default () => <p>${'a'.repeat(10 * 1024 * 1024)}</p>\n` })
    expect(r.isError).toBe(true)
    expect(textOf(r)).toMatch(/COMPILE_ERROR/)
    expect(textOf(r)).toMatch(/10485\d+ bytes, over the compile limit of 1048576/)
    await stillServes()
  })

  it('refuses an import loop through the internal entry name, then still serves', async () => {
    const r = await server.call('display_component', {
      source: `import Self from 'duet-display:component'\nexport default function V() { return <p>{String(Self)}</p> }\n`,
    })
    expect(r.isError).toBe(true)
    expect(textOf(r)).toMatch(/Cannot import "duet-display:component"/)
    await stillServes()
  })

  it('stops a compile past the time limit with a COMPILE_ERROR that says so, then still serves', async () => {
    // A large valid module with a tiny limit: the compile process is killed at the limit.
    await expect(compileComponent(COUNTER.repeat(1).concat('\n'.repeat(10)), { timeoutMs: 1 })).rejects.toMatchObject({
      code: 'COMPILE_ERROR',
      data: { limit: 'time', timeoutMs: 1 },
      message: expect.stringMatching(/longer than its limit of 1 ms/),
    })
    await stillServes()
  })
})

describe('compile limits', () => {
  it('stops a compile past its memory limit with a COMPILE_ERROR that says so', async () => {
    // esbuild folds the chain of string literals, keeping every partial string: gigabytes from 260 KB of source.
    const balloon = `const x = ${'"xxxxxxxxxx"+'.repeat(20_000)}"x"\nexport default () => <p>{x}</p>\n`
    await expect(compileComponent(balloon, { maxMemoryMb: 128 })).rejects.toMatchObject({
      code: 'COMPILE_ERROR',
      data: { limit: 'memory', maxMemoryMb: 128 },
      message: expect.stringMatching(/more than its limit of 128 MB of memory/),
    })
    // A component within the same limit compiles.
    await expect(compileComponent(COUNTER, { maxMemoryMb: 128 })).resolves.toMatchObject({ script: expect.stringContaining('__duetMount') })
  })

  it('refuses a memory limit under what an idle compiler holds, naming the option', async () => {
    await expect(compileComponent(COUNTER, { maxMemoryMb: 4 })).rejects.toMatchObject({
      code: 'INVALID_OPTION',
      data: { option: 'compileLimits.maxMemoryMb' },
    })
  })
})

describe('nestingDepth', () => {
  it('counts brackets outside strings and comments', () => {
    expect(nestingDepth('f(a[{b}])')).toBe(3)
    expect(nestingDepth('const s = "((((("; // ((((\n/* [[[[ */ g(1)')).toBe(1)
    expect(nestingDepth(deepParens(5000), 1000)).toBe(1001)
  })
})
