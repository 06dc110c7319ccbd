import type { Stream } from 'xstream'
import type { VNode } from 'snabbdom'
import type { StandardSchemaV1 } from './standard-schema.js'

/** What a view function receives. `children` are the vnodes passed between the component's tags. */
export interface ViewArgs<S = any, P = any> {
  state: S
  props: P
  children: VNode[]
}

/** Queues a follow-up action after the current one has run to completion. */
export type Next = (action: string, data?: unknown) => void

/** A STATE reducer. Returning `undefined` from a Collection item removes the item. */
export type Reducer<S = any, D = any, P = any> = (state: S, data: D, next: Next, props: P) => S | undefined

/**
 * A sink reducer: its return value goes to the driver of the same name; `undefined` sends nothing.
 * It sees the state as it was before the same action's STATE reducer ran.
 */
export type SinkReducer<S = any, D = any, P = any> = (state: S, data: D, next: Next, props: P) => unknown

/**
 * One model entry: a bare STATE reducer, or a STATE reducer plus one sink reducer per driver. A sink
 * given as `true` instead of a function sends the action's data unchanged.
 */
export type ModelEntry<S = any, P = any> =
  | Reducer<S, any, P>
  | ({ STATE?: Reducer<S, any, P> } & { [driver: string]: SinkReducer<S, any, P> | true | undefined })

export type Model<S = any, P = any> = Record<string, ModelEntry<S, P>>

/** The sources an intent receives: `DOM` plus one source per driver given to `run`. */
export interface Sources {
  [driver: string]: any
}

export type Intent = (sources: Sources) => Record<string, Stream<unknown>>

/** One host-callable action of a component's `agent` declaration. */
export interface AgentActionSpec<S = any> {
  description: string
  /** Any Standard Schema (zod, valibot, arktype); the argument is validated before dispatch. */
  input?: StandardSchemaV1
  /** Runs only when the driver's `confirm` resolves true. */
  consequential?: boolean
  /** The tool is listed only while this returns true. */
  when?: (state: S) => boolean
}

/** What the model may read and do in a component while it is shown. */
export interface AgentSpec<S = any> {
  name: string
  description?: string
  read?: (state: S) => unknown
  actions?: Record<string, AgentActionSpec<S>>
}

/** A component: a view function with optional statics. */
export interface Component<S = any, P = any> {
  (args: ViewArgs<S, P>): VNode | null
  initialState?: S
  intent?: Intent
  model?: Model<S, P>
  agent?: AgentSpec<S>
  displayName?: string
}

export type { StandardSchemaV1 } from './standard-schema.js'
