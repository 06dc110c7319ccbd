import { DuetError } from '../protocol/errors.js'
import type { PersistHandle } from '../runtime/driver.js'
import { persistenceOf } from '../runtime/persist.js'
import type { McpFeature } from './feature.js'
import { VIEW_STATE_TOOL, VIEW_UUID_META_KEY } from '../protocol/view-state.js'
import { isObject, type JsonObject } from './json-rpc.js'
import { toolErrorText } from './sinks.js'

export { VIEW_STATE_TOOL, VIEW_UUID_META_KEY }

const KEY_PREFIX = 'duet:view-state:'

/** Where the driver keeps a view's state. `load` may answer at once (localStorage) so nothing renders in between. */
export interface ViewStateBackend {
  readonly kind: 'localStorage' | 'server'
  load(viewUUID: string): unknown | Promise<unknown>
  save(viewUUID: string, state: unknown): void | Promise<void>
}

/** The view instance id a tool result carries, if any. */
export function viewUUIDOf(result: JsonObject): string | undefined {
  const meta = result._meta
  const id = isObject(meta) ? meta[VIEW_UUID_META_KEY] : undefined
  return typeof id === 'string' && id !== '' ? id : undefined
}

/**
 * `localStorage`, when the sandbox gives one that works: an iframe without `allow-same-origin` throws
 * on the mere read of `window.localStorage`, and some hosts' storage throws on write.
 */
export function localBackend(win: { localStorage?: Storage } | undefined): ViewStateBackend | undefined {
  let storage: Storage | undefined
  try {
    storage = win?.localStorage
    if (!storage) return undefined
    const probe = `${KEY_PREFIX}probe`
    storage.setItem(probe, '1')
    storage.removeItem(probe)
  } catch {
    return undefined
  }
  const s = storage
  return {
    kind: 'localStorage',
    load(id) {
      const text = s.getItem(KEY_PREFIX + id)
      if (text === null) return undefined
      try {
        return JSON.parse(text) as unknown
      } catch {
        return undefined
      }
    },
    save: (id, state) => s.setItem(KEY_PREFIX + id, JSON.stringify(state)),
  }
}

/** The server's `duet_view_state` tool, through the host's `tools/call`. */
export function serverBackend(callTool: (name: string, args: JsonObject) => Promise<JsonObject>): ViewStateBackend {
  const call = async (args: JsonObject) => {
    const result = await callTool(VIEW_STATE_TOOL, args)
    if (result.isError === true) {
      // A DuetError like every other failure Duet hands on; the server's own code (TOO_LARGE, …) is in the text and the result.
      throw new DuetError('TOOL_FAILED', toolErrorText(result, `${VIEW_STATE_TOOL} failed`), { result })
    }
    return result
  }
  return {
    kind: 'server',
    async load(id) {
      const result = await call({ op: 'get', viewUUID: id })
      const shown = isObject(result.structuredContent) ? result.structuredContent.state : undefined
      return shown === null ? undefined : shown
    },
    save: async (id, state) => void (await call({ op: 'put', viewUUID: id, state: state as JsonObject })),
  }
}

/**
 * Keeps the root component's `App.persist` state under the tool call's `viewUUID`: restores it when a
 * tool result names a view instance seen before (the host re-mounted the view), and saves it after each
 * flush that changed it. A new `viewUUID` (a new tool call) starts from what the result made.
 */
export function keepViewState(
  persist: PersistHandle,
  backend: () => ViewStateBackend | undefined,
  warn: (message: string) => void,
): { onToolResult(result: JsonObject): void; onFlush(): void } {
  let current: string | undefined
  let saved: string | undefined
  // Saving waits until the kept state was read back, or a first flush would overwrite it.
  let loaded = false

  const fail = (what: string) => (err: unknown) => warn(`${what} the view state: ${err instanceof Error ? err.message : String(err)}`)

  const save = () => {
    if (!current || !loaded) return
    const store = backend()
    if (!store) return
    const text = JSON.stringify(persist.snapshot())
    if (text === undefined || text === saved) return
    saved = text
    try {
      Promise.resolve(store.save(current, JSON.parse(text))).catch(fail(`could not save (${store.kind})`))
    } catch (err) {
      fail(`could not save (${store.kind})`)(err)
    }
  }

  const apply = (id: string, state: unknown) => {
    if (id !== current) return
    loaded = true
    // Nothing kept yet: what changed while the server was asked must still be saved.
    if (state === undefined) return save()
    saved = JSON.stringify(state)
    persist.restore(state).catch(fail('could not restore'))
  }

  return {
    onToolResult(result) {
      const id = viewUUIDOf(result)
      if (id === undefined || id === current) return
      const store = backend()
      if (!store) return
      current = id
      saved = undefined
      loaded = false
      let state: unknown
      try {
        state = store.load(id)
      } catch (err) {
        loaded = true
        return fail(`could not load (${store.kind})`)(err)
      }
      if (state instanceof Promise)
        state.then(
          (s) => apply(id, s),
          (err) => {
            fail(`could not load (${store.kind})`)(err)
            if (id !== current) return
            loaded = true
            save()
          },
        )
      else apply(id, state)
    },
    onFlush: save,
  }
}

/**
 * Persisted view state: keeps the root component's `App.persist` state across re-mounts of the view.
 * `'auto'` (default) uses `localStorage` and, where the sandbox has none, the server's app-only
 * `duet_view_state` tool; `'server'` always the tool. Part of `makeMcpAppDriver` (its `viewState`
 * option); pass it to `makeLeanMcpAppDriver` for a view with `App.persist`.
 */
export function withViewState(mode: 'auto' | 'server' = 'auto'): McpFeature {
  if (mode !== 'auto' && mode !== 'server') throw new DuetError('INVALID_OPTION', "withViewState: mode must be 'auto' or 'server'", { option: 'viewState' })
  return (ctx) => {
    // The runtime says what to keep; this feature knows the view instance and where to keep it.
    const persist = persistenceOf(ctx.app)
    if (!persist) return {}
    let backend: ViewStateBackend | undefined | null = null
    const pickBackend = (): ViewStateBackend | undefined => {
      if (backend !== null) return backend
      // Under window.openai the state goes to the host's widget state, through the adapter's view-state tool.
      backend = mode === 'server' || ctx.appsSdk ? undefined : localBackend(ctx.win as { localStorage?: Storage } | undefined)
      if (!backend && isObject(ctx.hostCapabilities()?.serverTools)) backend = serverBackend(ctx.callTool)
      if (!backend)
        console.warn(
          `[duetkit/mcp] tools/call ${VIEW_STATE_TOOL}: the view state is not kept: the sandbox has no localStorage and the host offers no serverTools`,
        )
      return backend
    }
    const kept = keepViewState(persist, pickBackend, (message) =>
      console.warn(`[duetkit/mcp] view state (${backend?.kind === 'server' ? `tools/call ${VIEW_STATE_TOOL}` : 'localStorage'}): ${message}`),
    )
    return { onToolResult: kept.onToolResult, dispose: ctx.app.onFlush(kept.onFlush) }
  }
}
