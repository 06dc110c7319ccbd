// Type tests of components: state, props, actions and drivers, checked by `tsc -p packages/duetkit/tsconfig.json`
// (vitest does not collect this file).
import { expectTypeOf } from 'vitest'
import type { Stream } from 'xstream'
import { component, renderComponent, run, xs, type Component, type DomEventStream, type Drivers, type NoProps, type Sources } from 'duetkit'
import type { McpSinkValue, McpSource } from 'duetkit/mcp'

// A driver of the app's own joins the registry by declaration merging.
interface StoreCommand {
  put: string
  value: unknown
  ok?: string
}
declare module 'duetkit' {
  interface Drivers {
    STORE: { source: { changes(): Stream<string> }; sink: StoreCommand }
  }
}

interface State {
  city: string
  days: string[]
  selected: string | null
}

// Declared with `Component<State>`: state, props, sources and sinks are checked; actions are not declared,
// so any name goes and data is `unknown` unless a reducer annotates it.
const Loose: Component<State> = ({ state, props }) => {
  expectTypeOf(state).toEqualTypeOf<State>()
  expectTypeOf(props).toEqualTypeOf<NoProps>()
  // @ts-expect-error a misspelled state field
  return <h1>{state.cty}</h1>
}
Loose.initialState = { city: '', days: [], selected: null }
// @ts-expect-error initialState is the State
Loose.initialState = { city: '', days: [] }
Loose.intent = (sources) => {
  expectTypeOf(sources).toEqualTypeOf<Sources>()
  expectTypeOf(sources.DOM.click('.day')).toEqualTypeOf<DomEventStream<PointerEvent>>()
  expectTypeOf(sources.MCP).toEqualTypeOf<McpSource>()
  expectTypeOf(sources.STORE.changes()).toEqualTypeOf<Stream<string>>()
  // @ts-expect-error a source no driver has
  sources.MPC
  // @ts-expect-error a DOM event type that does not exist
  sources.DOM.clik('.day')
  return { PICK: sources.DOM.click('.day').data('date'), SAVED: sources.STORE.changes() }
}
Loose.model = {
  PICK: {
    STATE: (state, date: string) => {
      expectTypeOf(state).toEqualTypeOf<State>()
      return { ...state, selected: date }
    },
    MCP: (state) => ({ updateModelContext: { city: state.city } }),
    STORE: (state) => ({ put: 'city', value: state.city, ok: 'SAVED' }),
  },
  PASS: { MCP: true },
}
// One mistake per assignment: tsc reports the first failing property of an object literal only.
Loose.model = {
  // @ts-expect-error a reducer returns the State
  SAVED: (state) => ({ ...state, city: 1 }),
}
Loose.model = {
  ASK: {
    // @ts-expect-error a misspelled sink key
    MCP: (state) => ({ mesage: `About ${state.city}?` }),
  },
}
Loose.model = {
  CALL: {
    // @ts-expect-error a sink value of the wrong shape for its key
    MCP: () => ({ callTool: 42 }),
  },
}
Loose.model = {
  SEND: {
    // @ts-expect-error a driver no one registered
    MCPP: () => ({ message: 'hi' }),
  },
}
Loose.model = {
  // @ts-expect-error a STATE reducer that does not return the State
  DROP: { STATE: () => 'nothing' },
}

// The view may not read props a component does not declare.
// @ts-expect-error NoProps has no `label`
export const NoLabel: Component<State> = ({ props }) => <p>{props.label}</p>

// Declared with its actions, the intent, model, `next`, replies and agent actions agree on names and data.
interface Actions {
  PICK: string
  SAVED: string
  CLEAR: undefined
}
const Typed: Component<State, { unit: 'C' | 'F' }, Drivers, Actions> = ({ props }) => <p>{props.unit}</p>
Typed.intent = ({ DOM, STORE }) => ({ PICK: DOM.click('.day').data('date'), SAVED: STORE.changes(), CLEAR: xs.of(undefined) })
Typed.model = {
  PICK: (state, date, next, props) => {
    expectTypeOf(date).toEqualTypeOf<string>()
    expectTypeOf(props).toEqualTypeOf<{ unit: 'C' | 'F' }>()
    next('CLEAR')
    next('SAVED', 'now')
    // @ts-expect-error `next` takes actions of the component
    next('CLEAN')
    // @ts-expect-error with the action's data
    next('SAVED', 1)
    return { ...state, selected: date }
  },
  SAVED: { STORE: (state) => ({ put: 'city', value: state.city, ok: 'SAVED' }) },
  CLEAR: (state) => ({ ...state, selected: null }),
}
// One mistake per assignment: tsc reports the first failing property of an object literal only.
Typed.model = {
  CLEAR: {
    // @ts-expect-error `ok` names an action of the component
    STORE: (state) => ({ put: 'city', value: state.city, ok: 'SAVE' }),
  },
}
Typed.model = {
  // @ts-expect-error a model key that is not an action
  PIKC: (state: State) => state,
}
// @ts-expect-error an intent action of the wrong data type
Typed.intent = ({ DOM }) => ({ PICK: DOM.click('.day') })
Typed.agent = {
  name: 'forecast',
  read: (state) => state.days,
  actions: {
    PICK: { description: 'Select a day', when: (state) => state.days.length > 0 },
    // @ts-expect-error agent actions are actions of the component
    REFRESH: { description: 'Reload' },
  },
}

// `component()` infers the actions from the intent: every intent action needs a model entry, and
// every model entry must be an intent action or one of the declared extras (here a reply target).
export const Inferred = component<State, NoProps, Drivers, { DONE: { mode: 'inline' | 'fullscreen' | 'pip' } }>()(
  function Inferred({ state }) {
    return <p>{state.selected}</p>
  },
  {
    initialState: { city: '', days: [], selected: null },
    intent: ({ DOM, MCP }) => ({ PICK: DOM.click('.day').data('date'), INPUT: MCP.select('tool-input'), GO: DOM.click('.go') }),
    model: {
      PICK: (state, date) => {
        expectTypeOf(date).toEqualTypeOf<string>()
        return { ...state, selected: date }
      },
      INPUT: (state, args) => {
        expectTypeOf(args).toEqualTypeOf<Record<string, unknown>>()
        return state
      },
      GO: {
        MCP: (_state, event) => {
          expectTypeOf(event).toEqualTypeOf<PointerEvent>()
          return { displayMode: 'fullscreen', ok: 'DONE' }
        },
      },
      DONE: (state, { mode }) => {
        expectTypeOf(mode).toEqualTypeOf<'inline' | 'fullscreen' | 'pip'>()
        return state
      },
    },
  },
)

export const MissingEntry = component<State>()(() => null, {
  intent: ({ DOM }) => ({ PICK: DOM.click('.day'), GO: DOM.click('.go') }),
  // @ts-expect-error the intent's GO has no model entry
  model: { PICK: (state) => state },
})

export const StrayEntry = component<State>()(() => null, {
  intent: ({ DOM }) => ({ PICK: DOM.click('.day') }),
  // @ts-expect-error STRAY is neither an intent action nor a declared extra
  model: { PICK: (state) => state, STRAY: (state) => state },
})

export const WrongReply = component<State>()(() => null, {
  intent: ({ DOM }) => ({ PICK: DOM.click('.day').data('date'), GO: DOM.click('.go') }),
  model: {
    PICK: (state, date) => ({ ...state, selected: date }),
    // @ts-expect-error the display-mode reply ({ mode }) does not fit PICK's data (a string)
    GO: { MCP: () => ({ displayMode: 'fullscreen', ok: 'PICK' }) },
  },
})

// renderComponent reads the types back: state, and the actions with their data.
export async function rendered() {
  const t = renderComponent(Inferred)
  expectTypeOf(t.state).toEqualTypeOf<State>()
  await t.simulateAction('PICK', 'Mon')
  await t.respond('MCP', { mode: 'fullscreen' }, 'DONE')
  // @ts-expect-error an action the component does not have
  await t.simulateAction('PIKC', 'Mon')
  // @ts-expect-error the action's data
  await t.simulateAction('PICK', 1)
  // @ts-expect-error the reply's data for its action
  await t.respond('MCP', { mode: 'huge' }, 'DONE')
  const u = renderComponent(Typed, { props: { unit: 'C' } })
  // @ts-expect-error the component's props
  renderComponent(Typed, { props: { unit: 'K' } })
  expectTypeOf(u.state).toEqualTypeOf<State>()
}

expectTypeOf<McpSinkValue>().toHaveProperty('ok')

// run() hands back a RunningApp whose dispatch is checked against the root component's actions.
{
  const Counter = component<{ n: number }, NoProps, Drivers, { ADD: number }>()(({ state }) => <b>{state.n}</b>, {
    initialState: { n: 0 },
    intent: ({ DOM }) => ({ RESET: DOM.click('b').mapTo(undefined) }),
    model: { ADD: (s, by) => ({ n: s.n + by }), RESET: () => ({ n: 0 }) },
  })
  const app = run(Counter)
  void app.dispatch('ADD', 2)
  void app.dispatch('RESET')
  // @ts-expect-error ADD carries a number
  void app.dispatch('ADD', 'two')
  // @ts-expect-error no such action
  void app.dispatch('REMOVE', 1)
  // An app whose actions are not declared takes any name, as before.
  const loose = run(Loose)
  void loose.dispatch('ANYTHING', { at: 1 })
}
