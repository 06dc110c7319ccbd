import { createStream, type Stream } from './stream.js'
import type { VNode } from 'snabbdom'
import type { ActionStream, AnyComponent } from './types.js'
import { REPLY, type AgentInstance, type AnyDriver, type AppHandle, type ReplyKind } from './driver.js'
import { DuetError, logFailure } from './errors.js'
import { isObject } from '../protocol/json.js'
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
  /** Hears every action after it ran, with the root state (renderComponent records states with it). */
  afterAction?(state: unknown, action: string): void
}

/** The one core behind `run` and `renderComponent`. */
export interface Runtime {
  app: AppHandle
  /** Queues an action on the root component; resolves once it is rendered, rejects with `DISPOSED` after `dispose`. */
  dispatch(action: string, data?: unknown): Promise<void>
  /** Whether actions ran that are not rendered yet. */
  pending(): boolean
  /** Renders now if a flush is pending. */
  flushNow(): void
  /** Resolves after the next flush. */
  nextFlush(): Promise<void>
  dispose(): void
}

interface Job {
  inst: Instance
  action: string
  data?: unknown
  /** Set for a replaced root state (`app.root().replace`): runs in the queue's order instead of a reducer. */
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

  // Queues a job and resolves once the flush after it has rendered it.
  const flushed = (job: Job): Promise<void> => {
    const done = queue.nextFlush()
    queue.push(job)
    return done
  }

  // An action from outside the intents (the page's `dispatch`, an agent tool): resolved once rendered.
  const dispatchTo = (inst: Instance, action: string, data: unknown): Promise<void> => {
    if (!inst.alive || disposed) return Promise.reject(new DuetError('DISPOSED', `${inst.name} ${inst.id} is no longer rendered; ${action} was not dispatched`))
    return flushed({ inst, action, data })
  }

  const driver = (name: string): Wired | undefined => {
    const found = wired.get(name)
    if (found || disposed) return found
    const make = options.drivers[name]
    if (!make) return undefined
    const sink = createStream<unknown>()
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
    if (!isObject(value)) return value
    if (typeof value.ok !== 'string' && typeof value.error !== 'string') return value
    const copy = { ...value }
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

  const app: AppHandle = {
    agents() {
      const out: AgentInstance[] = []
      const walk = (inst: Instance) => {
        if (!inst.alive) return
        const agent = inst.component.agent
        if (agent)
          out.push({
            id: inst.id,
            key: inst.key,
            component: inst.name,
            agent,
            state: inst.get,
            dispatch: (action, data) => dispatchTo(inst, action, data),
          })
        inst.order.forEach(walk)
      }
      walk(root)
      return out
    },
    onFlush: queue.onFlush,
    root: () => ({
      component: App,
      state: () => store,
      replace: (update) => flushed({ inst: root, action: 'restore', apply: () => void (store = update(store)) }),
    }),
  }

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
    dispatch: (action, data) => dispatchTo(root, action, data),
    pending: queue.pending,
    flushNow: queue.flushNow,
    nextFlush: () => queue.nextFlush(),
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
