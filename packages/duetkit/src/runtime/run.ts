import type { Component } from './types.js'
import type { AppHandle, Driver } from './driver.js'
import { DuetError } from './errors.js'
import { createRuntime } from './core.js'
import { createDomBackend } from '../dom/dom-backend.js'

export interface RunOptions {
  /** The element (or a selector for it) the app renders into; its content is replaced. Default `#root`. */
  mountPoint?: string | Element
  /** Props for the root component. */
  props?: Record<string, any>
  /** Overrides `App.initialState`. */
  initialState?: unknown
}

export interface RunningApp {
  /** What drivers get: the live agent instances and the flush hook. */
  app: AppHandle
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
export function run(App: Component, drivers: Record<string, Driver> = {}, options: RunOptions = {}): RunningApp {
  const { mountPoint = '#root' } = options
  const container = typeof mountPoint === 'string' ? document.querySelector(mountPoint) : mountPoint
  if (!container) throw new DuetError('DUET_NO_MOUNT_POINT', `run: no element matches mountPoint ${JSON.stringify(mountPoint)}; add <div id="root"> or pass { mountPoint }`)
  for (const [name, d] of Object.entries(drivers)) {
    if (typeof d !== 'function') throw new DuetError('DUET_BAD_OPTION', `run: drivers.${name} must be a driver function`)
  }
  const rt = createRuntime(App, { drivers, dom: createDomBackend(container), props: options.props, initialState: options.initialState })
  return { app: rt.app, dispose: () => rt.dispose() }
}
