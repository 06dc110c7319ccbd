// Type tests, checked by `tsc --noEmit -p packages/server/tsconfig.json` (not run by vitest): a handler
// sees the arguments its input schema describes, must return what its output schema describes, and the
// server's type carries every tool to the view that imports it.
import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server'
import type { ToolSignature, ToolsOf } from 'duetkit/protocol'
import { expectTypeOf } from 'vitest'
import * as z from 'zod'
import { createAppServer, type AppServer, type NoArgs, type ToolExtra } from '../../src/server/index.js'

const text = (t: string) => ({ content: [{ type: 'text' as const, text: t }] })
const view = { html: '<!doctype html><html></html>' }

// A zod raw shape: the handler's arguments are the shape's parsed output.
createAppServer({ name: 'a', version: '1' }).tool(
  'raw',
  { description: 'd', inputSchema: { city: z.string(), days: z.number().optional() } },
  (args, extra) => {
    expectTypeOf(args).toEqualTypeOf<{ city: string; days?: number | undefined }>()
    expectTypeOf(extra).toEqualTypeOf<ToolExtra>()
    // @ts-expect-error a misspelled argument is not a property of the arguments
    void args.cty
    return text(args.city)
  },
)

// A zod object schema (a Standard Schema with JSON Schema): the same inference.
createAppServer({ name: 'a', version: '1' }).tool('object', { description: 'd', inputSchema: z.object({ city: z.string() }) }, ({ city }) => {
  expectTypeOf(city).toEqualTypeOf<string>()
  return text(city)
})

// Any other Standard Schema that can describe itself as JSON Schema: typed by its `~standard.types`.
declare const foreign: StandardSchemaWithJSON<{ n: string }, { n: number }>
createAppServer({ name: 'a', version: '1' }).tool('foreign', { description: 'd', inputSchema: foreign }, (args) => {
  expectTypeOf(args).toEqualTypeOf<{ n: number }>()
  return text(String(args.n))
})

// No input schema: the handler gets an empty object, and a view may pass no arguments.
const bare = createAppServer({ name: 'a', version: '1' }).tool('bare', { description: 'd' }, (args) => {
  expectTypeOf(args).toEqualTypeOf<NoArgs>()
  return text('ok')
})
expectTypeOf<ToolsOf<typeof bare>['bare']['args']>().toEqualTypeOf<NoArgs>()
// An empty raw shape means the same: no arguments.
const empty = createAppServer({ name: 'a', version: '1' }).tool('empty', { description: 'd', inputSchema: {} }, () => text('ok'))
expectTypeOf<ToolsOf<typeof empty>['empty']['args']>().toEqualTypeOf<NoArgs>()

// Defaults and transforms: a view sends the schema's input, the handler receives its output.
const defaults = createAppServer({ name: 'a', version: '1' }).tool(
  'unit',
  { description: 'd', inputSchema: { unit: z.enum(['C', 'F']).default('C') } },
  ({ unit }) => {
    expectTypeOf(unit).toEqualTypeOf<'C' | 'F'>()
    return text(unit)
  },
)
expectTypeOf<ToolsOf<typeof defaults>['unit']['args']>().toEqualTypeOf<{ unit?: 'C' | 'F' | undefined }>()

// An output schema types structuredContent: the matching shape passes, error results may leave it out.
const day = z.object({ date: z.string(), high: z.number() })
createAppServer({ name: 'a', version: '1' }).tool('out', { description: 'd', outputSchema: { days: z.array(day) } }, () => ({
  ...text('ok'),
  structuredContent: { days: [{ date: 'Mon', high: 20 }] },
}))
createAppServer({ name: 'a', version: '1' }).tool('out', { description: 'd', outputSchema: { days: z.array(day) } }, () => ({
  ...text('failed'),
  isError: true,
}))
createAppServer({ name: 'a', version: '1' }).tool('out', { description: 'd', outputSchema: { days: z.array(day) } }, async () => ({
  ...text('ok'),
  structuredContent: { days: [] },
}))

createAppServer({ name: 'a', version: '1' }).tool('out', { description: 'd', outputSchema: { days: z.array(day) } }, () => ({
  ...text('ok'),
  // @ts-expect-error structuredContent that does not match the output schema
  structuredContent: { days: [{ date: 'Mon', high: 'warm' }] },
}))
createAppServer({ name: 'a', version: '1' }).appTool(
  'out',
  { description: 'd', outputSchema: z.object({ city: z.string() }), view },
  // @ts-expect-error an async handler whose structuredContent lacks what the output schema requires
  async () => ({ ...text('ok'), structuredContent: { town: 'Lisbon' } }),
)

// The chain's type collects every tool, so ToolsOf<typeof server> is the server's tool map.
function createWeatherServer() {
  return createAppServer({ name: 'weather', version: '1' })
    .appTool(
      'get_forecast',
      { description: 'd', inputSchema: { city: z.string() }, outputSchema: { city: z.string(), days: z.array(day) }, view },
      ({ city }) => ({
        ...text(city),
        structuredContent: { city, days: [] },
      }),
    )
    .tool('ping', { description: 'd' }, () => text('pong'))
    .configure(() => {})
    .onClose(() => {})
}
type WeatherServer = ReturnType<typeof createWeatherServer>
type WeatherTools = ToolsOf<WeatherServer>
expectTypeOf<keyof WeatherTools>().toEqualTypeOf<'get_forecast' | 'ping'>()
expectTypeOf<WeatherTools['get_forecast']>().toEqualTypeOf<ToolSignature<{ city: string }, { city: string; days: { date: string; high: number }[] }>>()
expectTypeOf<WeatherTools['ping']>().toEqualTypeOf<ToolSignature<NoArgs, unknown>>()
// @ts-expect-error a tool the server does not have
expectTypeOf<WeatherTools['get_forcast']>()

// A typed server still goes wherever a plain AppServer is asked for (registerChannelTools and the like).
const asPlain: AppServer = createWeatherServer()
void asPlain
// A server whose type was never narrowed has no known tools.
expectTypeOf<keyof ToolsOf<AppServer>>().toEqualTypeOf<never>()
// A tool name that is not a literal leaves the map open, and ToolsOf falls back to the loose map.
declare const someName: string
const open = createAppServer({ name: 'a', version: '1' }).tool(someName, { description: 'd' }, () => text('ok'))
expectTypeOf<ToolsOf<typeof open>>().toEqualTypeOf<Record<string, ToolSignature>>()
