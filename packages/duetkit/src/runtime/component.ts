import type { VNode } from 'snabbdom'
import type { ActionStream, AgentSpec, Component, Drivers, Model, NoProps, PersistChoice, Sources, ViewArgs } from './types.js'

/** The actions an intent produces: each stream's name, with the data it carries. */
export type ActionsFrom<I> = { [K in keyof I]: I[K] extends ActionStream<infer T> ? T : never }

/** The statics `component()` checks: every intent action has a model entry, and every model entry is an action. */
export type ComponentStatics<State, Props, D, I, Extra> = {
  initialState?: State
  /** Write it before `model`: the model's action names and data are inferred from what it returns. */
  intent?: (sources: Sources<D>) => I
  agent?: AgentSpec<State, ActionsFrom<I> & Extra>
  displayName?: string
  /** Keep this (root) component's state, or the named keys, across a re-mount of the view. */
  persist?: PersistChoice<State>
  /**
   * An entry per intent action (the second part only makes those keys required), and entries for
   * `Extra` actions. The `as` keeps the second part from inferring the actions from the model's keys.
   */
  model?: Model<State, Props, D, ActionsFrom<I> & Extra> & { [K in keyof I as K]: unknown }
}

/**
 * Declares a component whose intent, model, replies and `next` calls are checked against each other:
 * the actions are what the intent returns (each with the data of its stream) plus `Extra`, the actions
 * nothing in the intent produces (reply targets, `next` follow-ups, agent actions). The model must
 * handle every intent action and may handle only actions. At run time it is `Object.assign(view, statics)`.
 *
 * @example
 * const App = component<State, NoProps, McpDrivers<ForecastServer>, { SHOWN: { mode: DisplayMode } }>()(
 *   function Forecast({ state }) { return <h1>{state.city}</h1> },
 *   { initialState, intent: ({ MCP }) => ({ RESULT: MCP.select('tool-result') }), model: { … } },
 * )
 */
export function component<State, Props = NoProps, D = Drivers, Extra = NoProps>() {
  // The default is what `I` becomes when the call has an error elsewhere: TypeScript then re-infers without
  // the (context-sensitive) intent. Untyped actions there keep one wrong model entry from collapsing the
  // component's actions, which would add errors at every use of it (a test's simulateAction) to the real one.
  return <I extends Record<string, ActionStream> = Record<string, ActionStream>>(
    view: (args: ViewArgs<State, Props>) => VNode | null,
    statics: ComponentStatics<State, Props, D, I, Extra>,
  ): Component<State, Props, D, ActionsFrom<I> & Extra> => Object.assign(view, statics) as Component<State, Props, D, ActionsFrom<I> & Extra>
}
