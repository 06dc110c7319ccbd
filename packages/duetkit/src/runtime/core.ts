import { Stream } from './stream.js'
import type { VNode } from 'snabbdom'
import type { ActionStream, AnyComponent } from './types.js'
import { REPLY, type AgentInstance, type AnyDriver, type AppHandle, type Driver, type PersistHandle, type ReplyKind } from './driver.js'
import { DuetError, logFailure } from './errors.js'
import { createActionQueue } from './queue.js'
import { componentName, disposeInstance, runAction, type Instance } from './instance.js'
import { renderInstance, type SpawnSpec } from './render.js'

/**
 * Where the runtime renders to and what it needs from there: the real DOM for `run`, the vnode
 * tree for `renderComponent`. The runtime knows no DOM and no JSX; the backend brings both, as
 * snabbdom's core takes its modules, so the runtime never imports dom/ or jsx/.
 */
export interface DomBackend {
  /** The `DOM` source an intent of component instance `scope` receives (its root elements carry `scope`). */
  source(scope: string): unknown
  /**
   * Completes a vnode a component rendered inside an element with a namespace (`<svg>`), which
   * the view's own element factory could not know it would land in. Absent: left as rendered.
   */
  adopt?(vnode: VNode): VNode
  /** Called once per flush with the whole tree. */
  commit(vnode: VNode): void
  dispose(): void
}

export interface RuntimeOptions {
  drivers: Record<string, AnyDriver>
  dom: DomBackend
  props?: Record<string, unknown>
  initialState?: unknown
  /** Supplies a driver for a name no driver was given for; `run` has none, renderComponent fakes one. */
  fallbackDriver?(name: string): Driver | undefined
  /** Hears every action after it ran, with the root state (renderComponent records states with it). */
  afterAction?(state: unknown, action: string): void
}

/** The one core behind `run` and `renderComponent`. */
export interface Runtime {
  app: AppHandle
  state(): unknown
  /** Queues an action on the root component. */
  dispatch(action: string, data?: unknown): void
  /** Whether actions ran that are not rendered yet. */
  pending(): boolean
  /** Renders now if a flush is pending. */
  flushNow(): void
  nextFlush(): Promise<void>
  /** The last rendered tree. */
  vnode(): VNode | undefined
  readonly disposed: boolean
  dispose(): void
}

interface Job {
  inst: Instance
  action: string
  data: unknown
  /** Set for a restore of kept state: runs in the queue's order instead of a reducer. */
  apply?: () => void
}

interface Wired {
  sink: Stream<unknown>
  source: unknown
}

/** Starts a component tree: store, queue, drivers, the root instance and its first render. */
export function createRuntime(App: AnyComponent, options: RuntimeOptions): Runtime {
  if (typeof App !== 'function') throw new DuetError('INVALID_OPTION', `run/renderComponent: the app must be a component function, got ${typeof App}`)
  let store: unknown = options.initialState !== undefined ? options.initialState : App.initialState
  let seq = 0
  let tree: VNode | undefined
  let disposed = false
  const wired = new Map<string, Wired>()
  const unwired = new Set<string>()
  const handles = new WeakMap<Instance, AgentInstance>()

  const queue = createActionQueue<Job>({
    run: ({ inst, action, data, apply }) => {
      if (apply) apply()
      else runAction(actions, inst, action, data)
      options.afterAction?.(store, action)
    },
    render: () => {
      tree = renderInstance(renderCtx, root, store)
    },
    commit: () => {
      if (tree) options.dom.commit(tree)
    },
  })

  const enqueue = (inst: Instance, action: string, data: unknown) => {
    if (inst.alive) queue.push({ inst, action, data })
  }

  const driver = (name: string): Wired | undefined => {
    const found = wired.get(name)
    if (found || disposed) return found
    const make = options.drivers[name] ?? options.fallbackDriver?.(name)
    if (!make) return undefined
    const sink = Stream.create<unknown>()
    const w: Wired = { sink, source: undefined }
    wired.set(name, w)
    // Each driver's sink type is its own; the runtime only forwards values to it.
    w.source = make(sink as never, { name, app })
    return w
  }

  const actions = {
    enqueue,
    send(name: string, value: unknown, inst: Instance) {
      const w = driver(name)
      if (!w) {
        if (!unwired.has(name)) logFailure(`NO_DRIVER: ${inst.name}: the model sends to "${name}", which no driver has; dropped`)
        unwired.add(name)
        return
      }
      w.sink.shamefullySendNext(withReply(value, inst))
    },
  }

  // The hidden reply goes on a copy, so the user's object is never mutated and `toEqual` on a
  // recorded request compares only the user's keys.
  const withReply = (value: unknown, inst: Instance): unknown => {
    if (!value || typeof value !== 'object' || Array.isArray(value)) return value
    const v = value as Record<string, unknown>
    if (typeof v.ok !== 'string' && typeof v.error !== 'string') return value
    const copy = { ...v }
    Object.defineProperty(copy, REPLY, {
      enumerable: false,
      value: (kind: ReplyKind, data: unknown) => {
        const action = copy[kind]
        if (typeof action !== 'string' || !inst.alive || disposed) return false
        enqueue(inst, action, data)
        return true
      },
    })
    return copy
  }

  const sourcesFor = (inst: Instance) => {
    let dom: unknown
    return new Proxy({} as Record<string, unknown>, {
      get(_t, name) {
        if (typeof name !== 'string' || name === 'then') return undefined
        if (name === 'DOM') return (dom ??= options.dom.source(inst.id))
        const w = driver(name)
        if (!w) throw new DuetError('NO_DRIVER', `${inst.name}'s intent reads ${name}; pass a driver: run(App, { ${name}: … })`)
        return w.source
      },
    })
  }

  const spawn = (spec: SpawnSpec): Instance => {
    const c = spec.component
    const inst: Instance = {
      id: `d${++seq}`,
      key: spec.key,
      component: c,
      name: componentName(c),
      get: spec.get,
      set: spec.set,
      props: spec.props,
      children: spec.children,
      kids: new Map(),
      order: [],
      unsubscribe: [],
      alive: true,
      seen: -1,
      gen: 0,
    }
    if (c.intent) subscribeIntent(inst)
    return inst
  }

  const subscribeIntent = (inst: Instance) => {
    let streams: Record<string, ActionStream | undefined>
    try {
      // The component's types are erased here: its intent takes whatever sources it declared.
      streams = (inst.component.intent!(sourcesFor(inst) as never) ?? {}) as Record<string, ActionStream | undefined>
    } catch (error) {
      logFailure(`${inst.name}: intent threw; no actions`, error)
      return
    }
    for (const action of Object.keys(streams)) {
      const stream = streams[action]
      if (!stream || typeof stream.subscribe !== 'function') {
        logFailure(`${inst.name}: intent ${action} is not a stream; ignored`, stream)
        continue
      }
      const sub = stream.subscribe({
        next: (data) => enqueue(inst, action, data),
        error: (error) => logFailure(`${inst.name}: intent ${action} errored; stopped`, error),
      })
      inst.unsubscribe.push(() => sub.unsubscribe())
    }
  }

  const retire = (inst: Instance) => disposeInstance(inst, () => {})
  const renderCtx = { spawn, retire, adopt: options.dom.adopt }

  const agentHandle = (inst: Instance): AgentInstance => {
    let h = handles.get(inst)
    if (!h) {
      h = {
        id: inst.id,
        key: inst.key,
        component: inst.name,
        agent: inst.component.agent!,
        state: () => inst.get(),
        dispatch: (action, data) => {
          if (!inst.alive || disposed)
            return Promise.reject(new DuetError('DISPOSED', `${inst.name} ${inst.id} is no longer rendered; ${action} was not dispatched`))
          const done = queue.nextFlush()
          enqueue(inst, action, data)
          return done
        },
      }
      handles.set(inst, h)
    }
    return h
  }

  const app: AppHandle = {
    agents() {
      const out: AgentInstance[] = []
      const walk = (inst: Instance) => {
        if (!inst.alive) return
        if (inst.component.agent) out.push(agentHandle(inst))
        for (const kid of inst.order) walk(kid)
      }
      walk(root)
      return out
    },
    onFlush: (listener) => queue.onFlush(listener),
    persistence: () => persistence,
  }

  const persistence = persistHandle(App.persist, {
    get: () => store,
    push(apply) {
      const done = queue.nextFlush()
      queue.push({ inst: root, action: 'restore', data: undefined, apply })
      return done
    },
    set(s) {
      store = s
    },
  })

  // Drivers start before the first intent runs, as in Cycle: a driver may have work of its own (a handshake).
  for (const name of Object.keys(options.drivers)) driver(name)

  const root = spawn({
    component: App,
    get: () => store,
    set: (s) => {
      store = s
    },
    props: options.props ?? {},
    children: [],
  })
  queue.schedule()
  queue.flushNow()

  return {
    app,
    state: () => store,
    dispatch: (action, data) => enqueue(root, action, data),
    pending: () => queue.pending(),
    flushNow: () => queue.flushNow(),
    nextFlush: () => queue.nextFlush(),
    vnode: () => tree,
    get disposed() {
      return disposed
    },
    dispose() {
      if (disposed) return
      disposed = true
      retire(root)
      queue.dispose()
      for (const w of wired.values()) {
        w.sink.shamefullySendComplete()
        ;(w.source as { dispose?(): void } | undefined)?.dispose?.()
      }
      options.dom.dispose()
    },
  }
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v)

/** Checks `App.persist` once and makes the handle drivers save and restore the kept state through. */
function persistHandle(choice: unknown, store: { get(): unknown; set(s: unknown): void; push(apply: () => void): Promise<void> }): PersistHandle | undefined {
  if (choice === undefined || choice === false) return undefined
  if (choice !== true && !(Array.isArray(choice) && choice.every((k) => typeof k === 'string' && k !== '')))
    throw new DuetError('INVALID_OPTION', `App.persist must be true or an array of state keys, got ${JSON.stringify(choice)}`, { option: 'persist' })
  const keys: true | readonly string[] = choice === true ? true : [...(choice as string[])]
  const pick = (state: unknown) => {
    if (keys === true || !isPlainObject(state)) return state
    const out: Record<string, unknown> = {}
    for (const k of keys) if (k in state) out[k] = state[k]
    return out
  }
  return {
    keys,
    snapshot: () => pick(store.get()),
    restore(saved) {
      if (keys !== true && !isPlainObject(saved))
        return Promise.reject(new DuetError('INVALID_ARGUMENT', `restore: a kept state must be an object of ${keys.join(', ')}, got ${typeof saved}`))
      return store.push(() => {
        if (keys === true) return store.set(saved)
        const now = store.get()
        // Only the kept keys come back: a stale or foreign snapshot cannot add fields the app never kept.
        store.set({ ...(isPlainObject(now) ? now : {}), ...(pick(saved) as Record<string, unknown>) })
      })
    },
  }
}
