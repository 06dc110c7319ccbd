import type { Stream } from 'xstream'
import type { AgentSpec, AnyComponent } from './types.js'

/**
 * The driver contract.
 *
 * A driver is `(sink$, context) => source`. `sink$` carries every value the model's sink reducers
 * returned for this driver, in order; it completes when the app is disposed, and the driver must
 * release what it holds then. The source is what intents receive under the driver's name; by
 * convention it has `select(name)` returning a stream.
 *
 * Reply actions: a sink value that is an object naming `ok` and/or `error` action names carries a
 * hidden reply function. The driver answers with `reply(value, 'ok' | 'error', data)`, and the
 * runtime dispatches that action to the one component instance that sent the value.
 */
export type Driver<Source = unknown, Sink = unknown> = (sink$: Stream<Sink>, context: DriverContext) => Source

/**
 * Any driver, whatever its source and sink: what `run` and `renderComponent` take. (An xstream
 * `Stream<T>` is invariant in `T`, so no `Driver<…>` is a `Driver<unknown, unknown>`.)
 */
export type AnyDriver = (sink$: never, context: DriverContext) => unknown

export interface DriverContext {
  /** The key this driver was given in `run(App, drivers)`. */
  name: string
  app: AppHandle
}

/** What the runtime offers drivers about the running app. */
export interface AppHandle {
  /** Every live component instance that declares a static `agent`, in tree order. */
  agents(): AgentInstance[]
  /** Called after each flush (all queued actions reduced, one render and patch); returns an unsubscribe. */
  onFlush(listener: () => void): () => void
  /**
   * The root component and its state, for a driver that keeps the state across re-mounts of the view
   * (`persistenceOf(app)` reads `App.persist` through it). Absent where no app is behind the handle.
   */
  root?(): RootHandle
}

/** The root of a running app, as `AppHandle.root()` lends it. */
export interface RootHandle {
  /** The root component (its statics, such as `persist`). */
  readonly component: AnyComponent
  /** The root state now. */
  state(): unknown
  /**
   * Replaces the root state with `update(state)`, after the actions already queued; renders once and
   * resolves after that flush.
   */
  replace(update: (state: unknown) => unknown): Promise<void>
}

/** The part of the root state a component chose to keep, for a driver to save and restore (`persistenceOf(app)`). */
export interface PersistHandle {
  /** The kept keys (`true`: the whole state). */
  readonly keys: true | readonly string[]
  /** The kept part of the root state now: an object of the kept keys (for `true`, the whole state). */
  snapshot(): unknown
  /**
   * Puts a saved snapshot back: its kept keys (others are ignored) are written over the root state, or
   * for `true` the whole state is replaced. Runs after the actions already queued, renders once, and
   * resolves after that flush. A snapshot that is not an object is refused with `INVALID_ARGUMENT`.
   */
  restore(saved: unknown): Promise<void>
}

export interface AgentInstance {
  /** Unique among live instances, stable for the instance's life. */
  readonly id: string
  /** The item id when the instance is a Collection item. */
  readonly key?: string
  /** The component's name (`displayName` or function name). */
  readonly component: string
  readonly agent: AgentSpec
  state(): unknown
  /** Queues the action for this instance; resolves once it has been reduced and rendered. */
  dispatch(action: string, data?: unknown): Promise<void>
}

export type ReplyKind = 'ok' | 'error'
export type ReplyFn = (kind: ReplyKind, data: unknown) => boolean

/** Symbol.for so that two copies of the runtime in one page still understand each other. */
export const REPLY: unique symbol = Symbol.for('duet.reply') as any

/**
 * Answers a sink value with its `ok` or `error` action. Returns false when the value named no
 * such action (or carries no reply, e.g. it was not produced by a component).
 */
export function reply(request: unknown, kind: ReplyKind, data: unknown): boolean {
  const fn = request !== null && typeof request === 'object' ? (request as any)[REPLY] : undefined
  return typeof fn === 'function' ? fn(kind, data) : false
}

/** Whether the sink value names a reply action of that kind. */
export function wantsReply(request: unknown, kind: ReplyKind): boolean {
  return request !== null && typeof request === 'object' && typeof (request as any)[kind] === 'string'
}
