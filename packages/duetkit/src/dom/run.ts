import type { ActionsOf, AnyComponent, DataArg, PropsOf, StateOf, UntypedActions } from '../runtime/types.js'
import type { AnyDriver, AppHandle } from '../runtime/driver.js'
import { DuetError } from '../runtime/errors.js'
import { createRuntime } from '../runtime/core.js'
import { createDomBackend } from './dom-backend.js'

export interface RunOptions<S = unknown, P = Record<string, unknown>> {
  /** The element (or a selector for it) the app renders into; its content is replaced. Default `#root`. */
  mountPoint?: string | Element
  /** Props for the root component. */
  props?: P
  /** Overrides `App.initialState`. */
  initialState?: S
}

/** A running app; `A` is its root component's actions (name → data), so `dispatch` is checked against them. */
export interface RunningApp<A = UntypedActions> {
  /** What drivers get: the live agent instances and the flush hook. */
  app: AppHandle
  /**
   * Queues an action on the root component, as its intent would, and resolves once it is rendered: for
   * a page that hosts the app among code of its own (no driver needed just to hand it data).
   * Rejects with `DISPOSED` after `dispose`.
   */
  dispatch<K extends keyof A & string>(action: K, ...data: DataArg<A[K]>): Promise<void>
  /** Stops intents and drivers (their sinks complete) and removes the rendered view. */
  dispose(): void
}

/**
 * Runs `App` in the page: renders it into `mountPoint`, wires its intents to `drivers`, and
 * re-renders once per batch of actions.
 *
 * @example
 * run(App, { MCP: makeMcpAppDriver({ appInfo: { name: 'forecast', version: '1.0.0' } }) })
 */
export function run<C extends AnyComponent>(
  App: C,
  drivers: Record<string, AnyDriver> = {},
  options: RunOptions<StateOf<C>, PropsOf<C>> = {},
): RunningApp<ActionsOf<C>> {
  const { mountPoint = '#root' } = options
  const container = typeof mountPoint === 'string' ? document.querySelector(mountPoint) : mountPoint
  if (!container)
    throw new DuetError('NO_MOUNT_POINT', `run: no element matches mountPoint ${JSON.stringify(mountPoint)}; add <div id="root"> or pass { mountPoint }`)
  for (const [name, d] of Object.entries(drivers)) {
    if (typeof d !== 'function') throw new DuetError('INVALID_OPTION', `run: drivers.${name} must be a driver function`)
  }
  const rt = createRuntime(App, {
    drivers,
    dom: createDomBackend(container),
    props: options.props as Record<string, unknown> | undefined,
    initialState: options.initialState,
  })
  return {
    app: rt.app,
    dispatch: (action: string, ...[data]: unknown[]) => rt.dispatch(action, data),
    dispose: () => rt.dispose(),
  }
}
