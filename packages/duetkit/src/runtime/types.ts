import type { VNode } from 'snabbdom'
import type { StandardSchemaV1 } from './standard-schema.js'

/** The props of a component that declares none. */
export type NoProps = Record<never, never>

/** What a view function receives. `children` are the vnodes passed between the component's tags. */
export interface ViewArgs<S = unknown, P = NoProps> {
  state: S
  props: P
  children: VNode[]
}

/**
 * Action name → the data its reducers receive. A component declared without its actions has these:
 * any name, data `unknown` (a reducer may still annotate its data, unchecked).
 */
export type UntypedActions = Record<string, unknown>

/** The data argument of an action whose data is `T`: optional when `T` admits `undefined`. */
export type DataArg<T> = undefined extends T ? [data?: T] : [data: T]

/** Queues a follow-up action of the same component after the current one has run to completion. */
export type Next<A = UntypedActions> = <K extends keyof A & string>(action: K, ...data: DataArg<A[K]>) => void

// Reducers are method signatures so that their parameters compare both ways: a reducer may annotate
// its data more narrowly than an untyped action's `unknown`, and still fails against a typed action
// whose data is unrelated.
interface ReducerSignature<S, D, P, A> {
  reduce(state: S, data: D, next: Next<A>, props: P): S | undefined
}
interface SinkReducerSignature<S, D, P, A, V> {
  reduce(state: S, data: D, next: Next<A>, props: P): V | undefined
}

/** A STATE reducer. Returning `undefined` from a Collection item removes the item; elsewhere it keeps the state. */
export type Reducer<S = unknown, D = unknown, P = NoProps, A = UntypedActions> = ReducerSignature<S, D, P, A>['reduce']

/**
 * A sink reducer: its return value `V` goes to the driver of the same name; `undefined` sends nothing.
 * It sees the state as it was before the same action's STATE reducer ran.
 */
export type SinkReducer<S = unknown, D = unknown, P = NoProps, A = UntypedActions, V = unknown> = SinkReducerSignature<S, D, P, A, V>['reduce']

/**
 * What each driver gives components, by the name it runs under: `source` is what the intent receives,
 * `sink` what a model's sink reducer for it returns (`never`: it takes nothing). Empty here and filled
 * by declaration merging, so the runtime names no driver: the DOM backend adds `DOM`, `duetkit/mcp`
 * adds `MCP`. A driver of your own adds itself the same way:
 *
 * @example
 * declare module 'duetkit' {
 *   interface Drivers { STORE: { source: StoreSource; sink: StoreCommand } }
 * }
 */
// biome-ignore lint/suspicious/noEmptyInterface: declaration merging fills it
export interface Drivers {}

/** One entry of `Drivers`: what a driver's source is and what its sink takes. */
export interface DriverTypes<Source = unknown, Sink = unknown> {
  source: Source
  sink: Sink
}

type SourceOf<T> = T extends { source: infer S } ? S : never
type SinkOf<T> = T extends { sink: infer V } ? V : never
/** The drivers a model may send to: those whose sink is not `never`. */
type SinkName<D> = { [K in keyof D]-?: [SinkOf<D[K]>] extends [never] ? never : K }[keyof D] & string

/** The sources an intent receives: one per driver, `DOM` included. A name no driver has fails to type-check. */
export type Sources<D = Drivers> = { readonly [K in keyof D]: SourceOf<D[K]> }

/** The actions of `A` whose data accepts a `T`. */
type Accepting<A, T> = { [K in keyof A]-?: [T] extends [A[K]] ? K : never }[keyof A] & string

type ReplyName<V, A, K extends 'ok' | 'error'> = `~${K}` extends keyof V ? Accepting<A, Exclude<V[`~${K}` & keyof V], undefined>> : keyof A & string

/**
 * A driver's sink value as a model returns it: its `ok` and `error` (where it has them) name actions of
 * the component, and only actions whose data accepts the reply. A driver states what its replies carry
 * with the type-only keys `'~ok'` and `'~error'` of its sink value type; without them any action fits.
 */
export type Replying<V, A> = V extends object
  ? [('ok' | 'error') & keyof V] extends [never]
    ? V
    : Omit<V, 'ok' | 'error' | '~ok' | '~error'> & { ok?: NoInfer<ReplyName<V, A, 'ok'>>; error?: NoInfer<ReplyName<V, A, 'error'>> }
  : V

// `true` sends the action's data unchanged, so the data must itself be a value the sink takes.
type PassThrough<Data, V> = unknown extends Data ? true : [Data] extends [V] ? true : never

/** The sink reducers of one model entry: at most one per driver that has a sink. */
export type SinkEntries<S = unknown, P = NoProps, Data = unknown, D = Drivers, A = UntypedActions> = {
  [K in SinkName<D>]?: SinkReducer<S, Data, P, A, Replying<SinkOf<D[K]>, A>> | PassThrough<Data, SinkOf<D[K]>>
}

/**
 * One model entry: a bare STATE reducer, or a STATE reducer plus one sink reducer per driver. A sink
 * given as `true` instead of a function sends the action's data unchanged.
 */
export type ModelEntry<S = unknown, P = NoProps, Data = unknown, D = Drivers, A = UntypedActions> =
  | Reducer<S, Data, P, A>
  | ({ STATE?: Reducer<S, Data, P, A> } & SinkEntries<S, P, Data, D, A>)

/** Action name → what the action does. A key that is not an action of `A` fails to type-check. */
export type Model<S = unknown, P = NoProps, D = Drivers, A = UntypedActions> = {
  [K in keyof A & string]?: ModelEntry<S, P, A[K], D, A>
}

/**
 * A stream of `T`s as the runtime subscribes to it; every xstream `Stream<T>` is one. (A `Stream<T>` is
 * invariant in `T`, so an intent typed with `Stream<MouseEvent>` would refuse `DOM.click`'s
 * `Stream<PointerEvent>`; this accepts a stream of any subtype, and still refuses unrelated data.)
 */
export interface ActionStream<T = unknown> {
  subscribe(listener: { next(value: T): void; error(error: unknown): void }): { unsubscribe(): void }
}

/** What an intent returns: one stream per action, carrying the action's data. */
export type IntentResult<A = UntypedActions> = { [K in keyof A]?: ActionStream<A[K]> }

export type Intent<D = Drivers, A = UntypedActions> = (sources: Sources<D>) => IntentResult<A>

/** One host-callable action of a component's `agent` declaration; `D` is the action's data. */
export interface AgentActionSpec<S = unknown, D = unknown> {
  description: string
  /** Any Standard Schema (zod, valibot, arktype) whose output is the action's data; the argument is validated before dispatch. */
  input?: StandardSchemaV1<unknown, D>
  /** Runs only when the driver's `confirm` resolves true. */
  consequential?: boolean
  /** The tool is listed only while this returns true. */
  when?(state: S): boolean
}

/** What the model may read and do in a component while it is shown; `actions` are actions of the component. */
export interface AgentSpec<S = unknown, A = UntypedActions> {
  name: string
  description?: string
  read?(state: S): unknown
  actions?: { [K in keyof A & string]?: AgentActionSpec<S, A[K]> }
}

/** The type arguments a component was declared with; `Component['~duet']` carries them for tools that read them. */
export interface ComponentTypes<State = unknown, Props = NoProps, D = Drivers, A = UntypedActions> {
  state: State
  props: Props
  drivers: D
  actions: A
}

/**
 * A component: a view function with optional statics, checked against its state, props, drivers and
 * actions. `D` is what its intent and model see (`Drivers` by default; `McpDrivers<typeof server>` of
 * `duetkit/mcp` types the MCP tools by the server's). `A` maps action names to their data; declared, it
 * makes the intent, the model, `next`, `ok`/`error` replies and `agent.actions` agree on the names and
 * data. `component<State, …>()(view, statics)` infers `A` from the intent instead.
 */
export interface Component<State = unknown, Props = NoProps, D = Drivers, A = UntypedActions> {
  (args: ViewArgs<State, Props>): VNode | null
  initialState?: State
  intent?(sources: Sources<D>): IntentResult<A>
  model?: Model<State, Props, D, A>
  agent?: AgentSpec<State, A>
  displayName?: string
  /**
   * On the root component: keep its state across a re-mount of the view by the host. `true` keeps all
   * of it, an array the named top-level keys. A driver that knows where to keep it (the MCP driver,
   * under the tool call's `viewUUID`) saves it after each change and restores it; see `PersistHandle`.
   */
  persist?: PersistChoice<State>
  /** Type-only, never set at run time: the component's type arguments. */
  readonly '~duet'?: ComponentTypes<State, Props, D, A>
}

// What the runtime calls a reducer with, its types erased.
type ErasedReducer = (state: never, data: never, next: never, props: never) => unknown

/**
 * Any component, its types erased: what `run`, `renderComponent` and `<Collection of>` take. Every
 * `Component<…>` is one, and so is a plain view function with statics.
 */
export interface AnyComponent {
  (args: ViewArgs<never, never>): VNode | null
  initialState?: unknown
  intent?(sources: never): object
  model?: { readonly [action: string]: ErasedReducer | { readonly [sink: string]: ErasedReducer | true | undefined } | undefined }
  agent?: AgentSpec
  displayName?: string
  persist?: true | readonly string[]
}

/** What `Component.persist` takes: `true`, or the state's top-level keys to keep. */
export type PersistChoice<State> = true | readonly (State extends object ? keyof State & string : never)[]

type Declared<C> = '~duet' extends keyof C ? NonNullable<C['~duet' & keyof C]> : undefined
type ModelOf<C> = C extends { model?: infer M } ? NonNullable<M> : never
type EntryData<E> = E extends (state: never, data: infer X, ...rest: never[]) => unknown
  ? X
  : E extends { STATE?: (state: never, data: infer X, ...rest: never[]) => unknown }
    ? X
    : unknown

/** A component's state: as declared, else its `initialState`'s type. */
export type StateOf<C> = Declared<C> extends ComponentTypes<infer S, infer _P, infer _D, infer _A> ? S : C extends { initialState?: infer S } ? S : unknown

/** A component's props: as declared, else its view's `props`. */
export type PropsOf<C> =
  Declared<C> extends ComponentTypes<infer _S, infer P, infer _D, infer _A>
    ? P
    : C extends (args: infer Args) => unknown
      ? Args extends { props: infer P }
        ? P
        : NoProps
      : NoProps

/** A component's actions: as declared, else its model's keys with the data their STATE reducers take. */
export type ActionsOf<C> =
  Declared<C> extends ComponentTypes<infer _S, infer _P, infer _D, infer A>
    ? A
    : [ModelOf<C>] extends [never]
      ? UntypedActions
      : { [K in keyof ModelOf<C> & string]: EntryData<ModelOf<C>[K]> }

/** A component's drivers: as declared, else `Drivers`. */
export type DriversOf<C> = Declared<C> extends ComponentTypes<infer _S, infer _P, infer D, infer _A> ? D : Drivers

export type { StandardSchemaV1 } from './standard-schema.js'
