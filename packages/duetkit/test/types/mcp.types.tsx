// Type tests of the MCP driver's sources and sinks, and of a view typed by its server's tools, checked
// by `tsc -p packages/duetkit/tsconfig.json` (vitest does not collect this file).
import { expectTypeOf } from 'vitest'
import type { Stream } from 'xstream'
import { component, renderComponent, type Component, type NoProps } from 'duetkit'
import type { AgentMessage, CallToolResult, DisplayMode, HostContext, HostInfo, McpDrivers, McpErrorReply, McpSinkValue, McpSource } from 'duetkit/mcp'
import type { JsonObject, ToolSignature, TypedTools } from 'duetkit/protocol'

// What `MCP.select(name)` carries, untyped by any server.
declare const MCP: McpSource
expectTypeOf(MCP.select('tool-input')).toEqualTypeOf<Stream<Record<string, unknown>>>()
expectTypeOf(MCP.select('tool-result')).toEqualTypeOf<Stream<CallToolResult<JsonObject>>>()
expectTypeOf(MCP.select('host')).toEqualTypeOf<Stream<HostInfo>>()
expectTypeOf(MCP.select('host-context-changed')).toEqualTypeOf<Stream<HostContext>>()
expectTypeOf(MCP.select('agent-message')).toEqualTypeOf<Stream<AgentMessage>>()
expectTypeOf<CallToolResult>().toHaveProperty('content')
expectTypeOf<CallToolResult['isError']>().toEqualTypeOf<boolean | undefined>()
expectTypeOf<HostContext['displayMode']>().toEqualTypeOf<DisplayMode | undefined>()
// @ts-expect-error a misspelled source name
MCP.select('tool-results')

// Sink values, outside any component: every key, and nothing else.
export const sinks: McpSinkValue[] = [
  { callTool: 'anything', args: { city: 'Oslo' }, ok: 'RESULT', error: 'FAILED' },
  { callTool: 'no_args' },
  { message: 'hi' },
  { message: [{ type: 'text', text: 'hi' }] },
  { updateModelContext: { city: 'Oslo' } },
  { openLink: 'https://example.com' },
  { displayMode: 'fullscreen', ok: 'MODE' },
  { downloadFile: { uri: 'file:///a.txt', mimeType: 'text/plain', text: 'a' } },
  { readResource: 'ui://x' },
  { listResources: true },
  { listPrompts: { cursor: 'c' } },
  { createMessage: 'Summarize' },
  { log: { any: 'thing' }, level: 'warning' },
  { requestTeardown: true },
  { notifyAgent: { event: 'picked', data: { day: 'Mon' } } },
]
// @ts-expect-error a misspelled sink key
export const typo: McpSinkValue = { calTool: 'get_forecast' }
// @ts-expect-error a display mode the protocol does not have
export const huge: McpSinkValue = { displayMode: 'huge' }
// @ts-expect-error a log level of another vocabulary
export const warn: McpSinkValue = { log: 'x', level: 'warn' }
// @ts-expect-error content blocks have a type
export const block: McpSinkValue = { message: [{ text: 'hi' }] }

// A server's type, as `@duetkit/server` gives it (`ReturnType<typeof createForecastServer>`): only its
// phantom tool map matters to the view, which imports it with `import type`.
interface Day {
  date: string
  sky: string
  high: number
  low: number
}
interface Forecast {
  city: string
  days: Day[]
}
type ForecastServer = TypedTools<{
  get_forecast: ToolSignature<{ city: string }, Forecast>
  list_cities: ToolSignature<{ prefix?: string }, { cities: string[] }>
}>

interface State {
  city: string
  days: Day[]
  status: 'waiting' | 'loading' | 'ready'
  mode: DisplayMode
}
const initialState: State = { city: '', days: [], status: 'waiting', mode: 'inline' }

// The view names its server (and its own tool) once, in its drivers.
type Drivers = McpDrivers<ForecastServer, 'get_forecast'>

export const Forecast = component<State, NoProps, Drivers, { SHOWN: { mode: DisplayMode }; FAILED: McpErrorReply }>()(
  function Forecast({ state }) {
    return <h1>{state.city}</h1>
  },
  {
    initialState,
    intent: ({ DOM, MCP }) => {
      expectTypeOf(MCP.select('tool-input')).toEqualTypeOf<Stream<{ city: string }>>()
      expectTypeOf(MCP.select('tool-input-partial')).toEqualTypeOf<Stream<Partial<{ city: string }>>>()
      expectTypeOf(MCP.select('tool-result')).toEqualTypeOf<Stream<CallToolResult<Forecast>>>()
      return {
        INPUT: MCP.select('tool-input'),
        RESULT: MCP.select('tool-result'),
        REFRESH: DOM.click('.refresh'),
        CITIES: DOM.click('.cities'),
        FULL: DOM.click('.full'),
      }
    },
    model: {
      INPUT: (state, { city }) => ({ ...state, city, status: 'loading' }),
      RESULT: (state, result) => {
        expectTypeOf(result.structuredContent).toEqualTypeOf<Forecast | undefined>()
        return { ...state, status: 'ready', days: result.structuredContent?.days ?? [] }
      },
      REFRESH: { MCP: (state) => ({ callTool: 'get_forecast', args: { city: state.city }, ok: 'RESULT', error: 'FAILED' }) },
      // A tool of the same server may be called too; its reply goes to an action that takes its result.
      CITIES: { MCP: () => ({ callTool: 'list_cities' }) },
      FULL: { MCP: () => ({ displayMode: 'fullscreen', ok: 'SHOWN' }) },
      SHOWN: (state, { mode }) => ({ ...state, mode }),
      FAILED: (state, failure) => {
        expectTypeOf(failure.error).toEqualTypeOf<string>()
        return { ...state, status: 'ready' }
      },
    },
  },
)

// Each mistake below is one the server's type catches in the view, at no cost to its bundle.
const base = { initialState, intent: ({ DOM }: { DOM: import('duetkit').DomSource }) => ({ GO: DOM.click('.go') }) }
export const wrongTool = component<State, NoProps, Drivers>()(() => null, {
  ...base,
  // @ts-expect-error a tool the server does not have
  model: { GO: { MCP: () => ({ callTool: 'get_forcast', args: { city: 'Oslo' } }) } },
})
export const wrongArgs = component<State, NoProps, Drivers>()(() => null, {
  ...base,
  // @ts-expect-error the tool's arguments
  model: { GO: { MCP: () => ({ callTool: 'get_forecast', args: { town: 'Oslo' } }) } },
})
export const missingArgs = component<State, NoProps, Drivers>()(() => null, {
  ...base,
  // @ts-expect-error a tool with a required argument needs args
  model: { GO: { MCP: () => ({ callTool: 'get_forecast' }) } },
})
export const rightOk = component<State, NoProps, Drivers, { GOT: CallToolResult<Forecast> }>()(() => null, {
  ...base,
  model: {
    GO: { MCP: () => ({ callTool: 'get_forecast', args: { city: 'Oslo' }, ok: 'GOT' }) },
    GOT: (state, result) => ({ ...state, days: result.structuredContent?.days ?? [] }),
  },
})
export const wrongOk = component<State, NoProps, Drivers, { CITIES: { cities: string[] } }>()(() => null, {
  ...base,
  model: {
    // @ts-expect-error the ok action must take the tool's result: CITIES takes another shape
    GO: { MCP: () => ({ callTool: 'get_forecast', args: { city: 'Oslo' }, ok: 'CITIES' }) },
    CITIES: (state) => state,
  },
})
export const wrongStructured = component<State, NoProps, Drivers, { GOT: CallToolResult<{ cities: string[] }> }>()(() => null, {
  ...base,
  model: {
    // @ts-expect-error the ok action's result carries the tool's structuredContent type
    GO: { MCP: () => ({ callTool: 'get_forecast', args: { city: 'Oslo' }, ok: 'GOT' }) },
    GOT: (state) => state,
  },
})

// The same checks hold for a component declared with `Component<…>` and its actions.
interface Actions {
  RESULT: CallToolResult<Forecast>
  REFRESH: MouseEvent
}
const Declared: Component<State, NoProps, Drivers, Actions> = () => null
Declared.intent = ({ DOM, MCP }) => ({ RESULT: MCP.select('tool-result'), REFRESH: DOM.click('.refresh') })
Declared.model = { REFRESH: { MCP: (state) => ({ callTool: 'get_forecast', args: { city: state.city }, ok: 'RESULT' }) } }
Declared.model = {
  // @ts-expect-error a tool the server does not have
  REFRESH: { MCP: () => ({ callTool: 'get_weather', args: { city: 'Oslo' } }) },
}

// The test harness takes the tool's result for the action that receives it.
export async function harness() {
  const t = renderComponent(Forecast)
  await t.simulateAction('RESULT', { content: [], structuredContent: { city: 'Oslo', days: [] } })
  // @ts-expect-error structuredContent of the tool's output type
  await t.simulateAction('RESULT', { content: [], structuredContent: { town: 'Oslo' } })
}
