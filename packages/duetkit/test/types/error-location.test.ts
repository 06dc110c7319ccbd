// One mistake in a typed component gives one error, at the mistake's line, naming what is wrong; the
// component's other uses (a test's simulateAction) are not dragged into errors of their own.
import { rmSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const configPath = fileURLToPath(new URL('../../tsconfig.json', import.meta.url))

/** Type-checks `source` as a file of this package's tests; returns its diagnostics as line + message. */
function check(source: string): { line: number; message: string }[] {
  const file = fileURLToPath(new URL(`./fixture-${process.pid}-${Math.random().toString(36).slice(2)}.tsx`, import.meta.url))
  writeFileSync(file, source)
  try {
    const config = ts.getParsedCommandLineOfConfigFile(configPath, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} })
    if (!config) throw new Error('cannot read tsconfig.json')
    const program = ts.createProgram([file], config.options)
    return ts.getPreEmitDiagnostics(program, program.getSourceFile(file)).map((d) => ({
      line: d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0,
      message: ts.flattenDiagnosticMessageText(d.messageText, '\n'),
    }))
  } finally {
    rmSync(file, { force: true })
  }
}

// A view typed by its server, as the TypeScript starter writes it, and a test that uses it. `MODEL` and
// `REFRESH_MCP` are where each case puts its mistake.
const app = (model: string) => `import { component, renderComponent, type NoProps } from 'duetkit'
import type { McpDrivers, McpErrorReply } from 'duetkit/mcp'
import type { ToolSignature, TypedTools } from 'duetkit/protocol'

interface Forecast { city: string; days: { date: string }[] }
type Server = TypedTools<{ get_forecast: ToolSignature<{ city: string }, Forecast> }>
interface State { city: string; days: { date: string }[]; status: string }

export const App = component<State, NoProps, McpDrivers<Server, 'get_forecast'>, { FAILED: McpErrorReply }>()(
  ({ state }) => <h1>{state.city}</h1>,
  {
    initialState: { city: '', days: [], status: 'waiting' },
    intent: ({ DOM, MCP }) => ({
      INPUT: MCP.select('tool-input'),
      RESULT: MCP.select('tool-result'),
      REFRESH: DOM.click('.refresh'),
    }),
    model: {
${model}
      FAILED: (state, { error }) => ({ ...state, status: error }),
    },
  },
)

// The component's test.
const t = renderComponent(App)
t.simulateAction('RESULT', { content: [], structuredContent: { city: 'Oslo', days: [] } })
t.simulateAction('INPUT', { city: 'Oslo' })
`
const INPUT = `      INPUT: (state, { city }) => ({ ...state, city }),`
const RESULT = `      RESULT: (state, result) => ({ ...state, days: result.structuredContent?.days ?? [] }),`
const refresh = (tool: string) => `      REFRESH: {
        STATE: (state) => ({ ...state, status: 'loading' }),
        MCP: (state) => ({ callTool: '${tool}', args: { city: state.city }, ok: 'RESULT', error: 'FAILED' }),
      },`
const lineOf = (source: string, text: string) => source.split('\n').findIndex((l) => l.includes(text)) + 1

describe('type errors at the mistake', () => {
  // The first check builds the TypeScript program: about 3 s of CPU alone, four times that and more
  // in the full suite, where two cores run four test files and their browsers and servers.
  it('the fixture is correct as written (so each case below has exactly its own mistake)', () => {
    expect(check(app([INPUT, RESULT, refresh('get_forecast')].join('\n')))).toEqual([])
  }, 120_000)

  it('a misspelled tool name: one error, on the line of the callTool, naming the tool', () => {
    const source = app([INPUT, RESULT, refresh('get_forcast')].join('\n'))
    const errors = check(source)
    expect(errors).toHaveLength(1)
    expect(errors[0].line).toBe(lineOf(source, "callTool: 'get_forcast'"))
    expect(errors[0].message.split('\n')[0]).toContain('get_forcast')
  })

  it('a missing model entry: one error, on the model, naming the entry; the test using the component has none', () => {
    const source = app([RESULT, refresh('get_forecast')].join('\n'))
    const errors = check(source)
    expect(errors).toHaveLength(1)
    expect(errors[0].line).toBe(lineOf(source, 'model: {'))
    expect(errors[0].message).toMatch(/Property 'INPUT' is missing/)
  })

  it('a wrong model entry (a reducer that returns the wrong state) stays at its line', () => {
    const source = app([`      INPUT: (state, { city }) => ({ ...state, city: 42 }),`, RESULT, refresh('get_forecast')].join('\n'))
    const errors = check(source)
    expect(errors).toHaveLength(1)
    expect(errors[0].line).toBe(lineOf(source, 'city: 42'))
  })
})
