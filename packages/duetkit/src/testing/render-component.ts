import type { VNode } from 'snabbdom'
import type { ActionsOf, AnyComponent, DataArg, PropsOf, StateOf, UntypedActions } from '../runtime/types.js'
import type { AnyDriver, AppHandle, Driver } from '../runtime/driver.js'
import { createRuntime } from '../runtime/core.js'
import { DuetError } from '../runtime/errors.js'
import { createFakeDom, type EventInit } from './fake-dom.js'
import { createFakeDriver, type FakeDriver } from './fake-driver.js'
import { querySelector } from './vnode-query.js'
import { toHtml } from './to-html.js'

export interface RenderOptions<S = unknown, P = Record<string, unknown>> {
  /** Real drivers; any other source or sink the component uses gets a recording fake. */
  drivers?: Record<string, AnyDriver>
  props?: P
  /** Overrides the component's `initialState`. */
  initialState?: S
  /** Default timeout of `waitForState`, in milliseconds (2000). */
  timeoutMs?: number
}

/** A component running with no host and no browser; `S` is its state, `A` its actions (name → data). */
export interface RenderedComponent<S = unknown, A = UntypedActions> {
  /** The current state (reducers apply synchronously, so it is current right after a call). */
  readonly state: S
  /** Every state the app went through, from the initial one. */
  readonly states: readonly S[]
  /** Dispatches an action on the root component: every sink of its model entry runs. Resolves once rendered. */
  simulateAction<K extends keyof A & string>(action: K, ...data: DataArg<A[K]>): Promise<void>
  /** Fires `type` at the first element matching `selector` in the rendered tree. Resolves once the actions it caused are rendered. */
  simulateEvent(selector: string, type: string, init?: EventInit): Promise<void>
  /** What the app sent to the driver `name`, in order. */
  requests(name: string): unknown[]
  /**
   * Answers the newest pending request to fake `name` whose `ok` is `target` (any, when omitted) with
   * `value`, which must be data of that action; resolves once that action is rendered.
   */
  respond<K extends keyof A & string>(name: string, value: A[K], target?: K): Promise<void>
  /** Same with the request's `error` action; a non-object error is delivered as `{ error, request }`. */
  fail(name: string, error: unknown, target?: string): Promise<void>
  /** Resolves with the first state (past or future) that satisfies `predicate`, after it is rendered. */
  waitForState(predicate: (state: S) => boolean, timeoutMs?: number): Promise<S>
  /** The rendered view as HTML. */
  html(): string
  /** The rendered vnode tree. */
  vnode(): VNode | undefined
  /** The handle drivers get (agents, flush hook). */
  readonly app: AppHandle
  dispose(): void
}

/**
 * Runs `App` on the same runtime core as `run`, rendering to vnodes instead of the DOM. Because
 * the runtime is ready as soon as this returns, nothing needs buffering; waits follow the
 * runtime's own flushes, never timers (only `waitForState` has a timeout).
 */
export function renderComponent<C extends AnyComponent>(
  App: C,
  options: RenderOptions<StateOf<C>, PropsOf<C>> = {},
): RenderedComponent<StateOf<C>, ActionsOf<C>> {
  type S = StateOf<C>
  for (const [name, d] of Object.entries(options.drivers ?? {})) {
    if (typeof d !== 'function') throw new DuetError('INVALID_OPTION', `renderComponent: drivers.${name} must be a driver function (sink$, context) => source`)
  }
  if (options.timeoutMs !== undefined && !(options.timeoutMs > 0))
    throw new DuetError('INVALID_OPTION', 'renderComponent: timeoutMs must be a positive number of milliseconds')
  const dom = createFakeDom()
  const fakes = new Map<string, FakeDriver>()
  const recorded = new Map<string, unknown[]>()
  const states: S[] = [(options.initialState !== undefined ? options.initialState : App.initialState) as S]
  const waiters = new Set<(error: Error) => void>()
  const timeoutMs = options.timeoutMs ?? 2000

  const real: Record<string, Driver> = {}
  for (const [name, d] of Object.entries(options.drivers ?? {})) {
    const log: unknown[] = []
    recorded.set(name, log)
    real[name] = (sink$, ctx) => {
      sink$.subscribe({ next: (v) => log.push(v) })
      return d(sink$ as never, ctx)
    }
  }
  // Any other name the component reads or sends to gets a recording fake (the runtime asks once a name).
  const drivers = new Proxy(real, {
    get(target, name) {
      if (typeof name !== 'string') return undefined
      if (Object.hasOwn(target, name)) return target[name]
      const fake = createFakeDriver(name)
      fakes.set(name, fake)
      recorded.set(name, fake.requests)
      return fake.driver
    },
  })

  const rt = createRuntime(App, {
    drivers,
    dom,
    props: options.props as Record<string, unknown> | undefined,
    // The state `states` starts from, so the recorded history and the runtime begin at one value.
    initialState: states[0],
    afterAction(state) {
      if (state !== states[states.length - 1]) states.push(state as S)
    },
  })

  let disposed = false
  const live = () => {
    if (disposed) throw new DuetError('DISPOSED', 'renderComponent: this component was disposed')
  }
  // Resolves after the flush that renders what the call queued, or at once when it queued nothing.
  const settle = (): Promise<void> => (rt.pending() ? rt.nextFlush() : Promise.resolve())

  const answer = (kind: 'ok' | 'error', name: string, data: unknown, target?: string): Promise<void> => {
    live()
    const fake = fakes.get(name)
    if (!fake)
      throw new DuetError(
        'NOTHING_PENDING',
        `renderComponent: ${name} is ${recorded.has(name) ? 'a real driver; it answers by itself' : 'not a driver this component used'}`,
      )
    fake.answer(kind, data, target)
    return settle()
  }

  return {
    get state() {
      return states[states.length - 1]!
    },
    states,
    app: rt.app,
    simulateAction(action: string, data?: unknown) {
      live()
      if (!App.model || !(action in App.model))
        throw new DuetError(
          'INVALID_ARGUMENT',
          `simulateAction: ${App.displayName || App.name || 'the component'}'s model has no action ${JSON.stringify(action)}`,
        )
      void rt.dispatch(action, data)
      return settle()
    },
    simulateEvent(selector, type, init = {}) {
      live()
      rt.flushNow()
      const el = querySelector(dom.tree(), selector)
      if (!el)
        throw new DuetError(
          'NO_ELEMENT',
          `simulateEvent: nothing matches ${JSON.stringify(selector)} in the rendered view: ${toHtml(dom.tree()).slice(0, 500)}`,
        )
      dom.dispatch(el, type, init)
      return settle()
    },
    requests: (name) => recorded.get(name) ?? [],
    respond: (name: string, value: unknown, target?: string) => answer('ok', name, value, target),
    fail(name, error, target) {
      const fake = fakes.get(name)
      const request = fake?.requests.findLast(
        (r) => (r as { error?: unknown } | undefined)?.error !== undefined && (target === undefined || (r as { error?: unknown }).error === target),
      )
      const data =
        error !== null && typeof error === 'object' && !(error instanceof Error) ? error : { error: error instanceof Error ? error.message : error, request }
      return answer('error', name, data, target)
    },
    waitForState(predicate, ms = timeoutMs) {
      live()
      rt.flushNow()
      const hit = states.find((s) => predicate(s))
      if (hit !== undefined) return Promise.resolve(hit)
      return new Promise<S>((resolve, reject) => {
        let checked = states.length
        const stop = (error?: Error, value?: S) => {
          clearTimeout(timer)
          off()
          waiters.delete(fail)
          error ? reject(error) : resolve(value as S)
        }
        const fail = (error: Error) => stop(error)
        const off = rt.app.onFlush(() => {
          for (; checked < states.length; checked++) if (predicate(states[checked])) return stop(undefined, states[checked])
        })
        const timer = setTimeout(
          () => stop(new DuetError('WAIT_TIMEOUT', `waitForState: no state matched within ${ms} ms; last state: ${describe(states[states.length - 1])}`)),
          ms,
        )
        waiters.add(fail)
      })
    },
    html() {
      rt.flushNow()
      return toHtml(dom.tree())
    },
    vnode() {
      rt.flushNow()
      return dom.tree()
    },
    dispose() {
      if (disposed) return
      disposed = true
      rt.dispose()
      for (const fail of [...waiters]) fail(new DuetError('DISPOSED', 'waitForState: the component was disposed while waiting'))
    },
  }
}

function describe(value: unknown): string {
  try {
    return JSON.stringify(value)?.slice(0, 1000) ?? String(value)
  } catch {
    return String(value)
  }
}
