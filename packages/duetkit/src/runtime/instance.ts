import type { VNode } from 'snabbdom'
import type { AnyComponent, Next } from './types.js'
import { logFailure } from './errors.js'

/** One live component: where its state lives, what it last rendered, and its child instances. */
export interface Instance {
  readonly id: string
  /** The Collection item id, for items. */
  readonly key?: string
  readonly component: AnyComponent
  readonly name: string
  /** Reads this instance's state out of the store. */
  get(): unknown
  /** Writes this instance's state into the store; `undefined` removes a Collection item. */
  set(state: unknown): void
  props: Record<string, unknown>
  children: VNode[]
  /** Child instances by their place in this instance's view. */
  kids: Map<string, Instance>
  /** Child instances in tree order, as of the last render. */
  order: Instance[]
  unsubscribe: (() => void)[]
  alive: boolean
  // Render cache: the view is a pure function of these, so an unchanged instance reuses `vnode`.
  vnode?: VNode
  lastState?: unknown
  lastProps?: Record<string, unknown>
  /** Render generation stamp used to find children that disappeared. */
  seen: number
  gen: number
}

type RunnableReducer = (state: unknown, data: unknown, next: Next, props: Record<string, unknown>) => unknown
type RunnableEntry = RunnableReducer | { readonly [sink: string]: RunnableReducer | true | undefined }

/** What running an action needs from the runtime. */
export interface ActionContext {
  enqueue(inst: Instance, action: string, data: unknown): void
  send(driver: string, value: unknown, inst: Instance): void
}

/** The name shown in logs and agent listings. */
export function componentName(c: AnyComponent): string {
  return c.displayName || c.name || 'Anonymous'
}

/**
 * Runs one action on one instance. Sink values are computed from the state before the STATE
 * reducer runs (so a sink reducer and the STATE reducer of one action see the same input), then
 * the state is written, then the sink values go to their drivers. A throwing STATE reducer keeps the
 * old state and cancels the action's sink values too, so an action either happens or does not.
 */
export function runAction(ctx: ActionContext, inst: Instance, action: string, data: unknown): void {
  // The component's types are erased here: its reducers take whatever state and data they declared.
  const entry = inst.component.model?.[action] as RunnableEntry | undefined
  if (!entry || !inst.alive) return
  const state = inst.get()
  const props = inst.props
  const next: Next = (a, d) => ctx.enqueue(inst, a, d)
  let reducer: RunnableReducer | undefined
  const out: [string, unknown][] = []
  if (typeof entry === 'function') {
    reducer = entry
  } else {
    for (const sink in entry) {
      const fn = entry[sink]
      if (sink === 'STATE') {
        reducer = fn as RunnableReducer
        continue
      }
      try {
        // `true` passes the action's data through unchanged.
        const value = typeof fn === 'function' ? fn(state, data, next, props) : fn === true ? data : undefined
        if (value !== undefined) out.push([sink, value])
      } catch (error) {
        logFailure(`${inst.name}: ${action}.${sink} threw; nothing sent`, error)
      }
    }
  }
  if (reducer) {
    let nextState: unknown
    try {
      nextState = reducer(state, data, next, props)
    } catch (error) {
      logFailure(`${inst.name}: ${action} reducer threw; state kept`, error)
      return
    }
    // Only a Collection item can be removed; elsewhere `undefined` means "no change".
    if (nextState !== state && (nextState !== undefined || inst.key !== undefined)) inst.set(nextState)
  }
  for (const [sink, value] of out) ctx.send(sink, value, inst)
}

/** Stops an instance and everything under it. */
export function disposeInstance(inst: Instance, onDispose: (inst: Instance) => void): void {
  if (!inst.alive) return
  inst.alive = false
  for (const off of inst.unsubscribe) off()
  inst.unsubscribe.length = 0
  for (const kid of inst.kids.values()) disposeInstance(kid, onDispose)
  inst.kids.clear()
  onDispose(inst)
}
