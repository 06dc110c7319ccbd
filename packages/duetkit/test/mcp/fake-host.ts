import { Stream } from 'xstream'
import { REPLY, type AgentInstance, type AppHandle, type DriverContext, type ReplyKind } from '../../src/runtime/driver.js'

type Json = Record<string, any>
type Handler = (params: Json) => Json | Promise<Json>

const CAPABILITY_OF: Record<string, string> = {
  'tools/call': 'serverTools',
  'resources/read': 'serverResources',
  'resources/list': 'serverResources',
  'resources/templates/list': 'serverResources',
  'ui/download-file': 'downloadFile',
  'ui/message': 'message',
  'ui/update-model-context': 'updateModelContext',
  'sampling/createMessage': 'sampling',
}

function advertised(handlers: Record<string, Handler>): Json {
  const caps: Json = { openLinks: {}, logging: {} }
  for (const method of Object.keys(handlers)) if (CAPABILITY_OF[method]) caps[CAPABILITY_OF[method]] = {}
  return caps
}

/** A message the view posted, as the host saw it. */
export type Posted = Json

/**
 * An in-process stand-in for the host side of the postMessage channel: a fake view window whose
 * `message` listeners we call, and a fake host window that records what the view posts and
 * answers its requests from `handlers` (unknown methods get -32601, like AppBridge).
 */
export function fakeHost(handlers: Record<string, Handler> = {}, init: Json = {}) {
  const listeners = new Set<(e: any) => void>()
  const posted: Posted[] = []
  const waiters: Array<{ test: (m: Posted) => boolean; resolve: (m: Posted) => void }> = []
  let nextId = 1000
  const answers = new Map<number, (m: Json) => void>()

  const win = {
    addEventListener: (_: string, l: (e: any) => void) => void listeners.add(l),
    removeEventListener: (_: string, l: (e: any) => void) => void listeners.delete(l),
  }
  const deliver = (data: unknown, source: unknown = host) => {
    // postMessage is asynchronous; keep that so ordering bugs show up.
    queueMicrotask(() => {
      for (const l of [...listeners]) l({ data, source })
    })
  }
  const host = {
    postMessage(message: Posted) {
      const copy = JSON.parse(JSON.stringify(message))
      posted.push(copy)
      for (const w of [...waiters])
        if (w.test(copy)) {
          waiters.splice(waiters.indexOf(w), 1)
          w.resolve(copy)
        }
      if ('method' in copy && 'id' in copy) void answer(copy)
      if (!('method' in copy) && answers.has(copy.id)) {
        answers.get(copy.id)!(copy)
        answers.delete(copy.id)
      }
    },
  }
  const result = {
    protocolVersion: '2026-01-26',
    hostInfo: { name: 'FakeHost', version: '1.0.0' },
    // A host advertises what it handles (and logging and links, which it always takes): pass
    // `init.hostCapabilities` for one that offers less.
    hostCapabilities: advertised(handlers),
    hostContext: { theme: 'dark', displayMode: 'inline', locale: 'en-US' },
    ...init,
  }
  async function answer(req: Json) {
    if (req.method === 'ui/initialize' && !handlers['ui/initialize']) return deliver({ jsonrpc: '2.0', id: req.id, result })
    const handler = handlers[req.method]
    if (!handler) return deliver({ jsonrpc: '2.0', id: req.id, error: { code: -32601, message: 'Method not found' } })
    try {
      const r = await handler(req.params ?? {})
      if (r !== undefined) deliver({ jsonrpc: '2.0', id: req.id, result: r })
    } catch (err: any) {
      deliver({ jsonrpc: '2.0', id: req.id, error: { code: err.code ?? -32603, message: err.message } })
    }
  }

  return {
    win,
    host,
    posted,
    /** Posts raw data to the view, from `source` (the host by default). */
    deliver,
    notify: (method: string, params?: Json) => deliver(params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params }),
    /** Sends a host → view request and resolves with the view's response. */
    request(method: string, params: Json = {}): Promise<Json> {
      const id = nextId++
      return new Promise((resolve) => {
        answers.set(id, resolve)
        deliver({ jsonrpc: '2.0', id, method, params })
      })
    },
    /** Resolves with the first posted message (already posted or future) that passes `test`. */
    waitFor(test: (m: Posted) => boolean): Promise<Posted> {
      const found = posted.find(test)
      if (found) return Promise.resolve(found)
      return new Promise((resolve) => waiters.push({ test, resolve }))
    },
    methods: () => posted.filter((m) => 'method' in m).map((m) => m.method as string),
  }
}

/** A sink value carrying a reply function, as the runtime makes them; replies land in `replies`. */
export function sinkValue<T extends Json>(value: T) {
  const replies: Array<{ kind: ReplyKind; data: any }> = []
  let settle: (r: { kind: ReplyKind; data: any }) => void
  const replied = new Promise<{ kind: ReplyKind; data: any }>((r) => (settle = r))
  Object.defineProperty(value, REPLY, {
    enumerable: false,
    value: (kind: ReplyKind, data: unknown) => {
      if (typeof value[kind] !== 'string') return false
      const r = { kind, data }
      replies.push(r)
      settle(r)
      return true
    },
  })
  return { value, replies, replied }
}

/** A hand-fed sink stream and a driver context with a controllable app handle. */
export function harness(agents: AgentInstance[] = []) {
  const sink$: Stream<unknown> = Stream.create()
  const flushListeners = new Set<() => void>()
  const app: AppHandle = {
    agents: () => agents,
    onFlush(l) {
      flushListeners.add(l)
      return () => void flushListeners.delete(l)
    },
  }
  const context: DriverContext = { name: 'MCP', app }
  return {
    sink$,
    context,
    agents,
    send: (value: unknown) => sink$.shamefullySendNext(value),
    flush: () => {
      for (const l of [...flushListeners]) l()
    },
    dispose: () => sink$.shamefullySendComplete(),
  }
}

/** Collects a stream's values. */
export function collect<T>(stream: Stream<T>) {
  const values: T[] = []
  stream.addListener({ next: (v) => values.push(v), error: () => {}, complete: () => {} })
  return values
}

export const tick = () => new Promise((r) => setTimeout(r, 0))

/** Polls until `check` passes (for effects that cross several microtask hops). */
export async function until(check: () => boolean, what: string, timeoutMs = 5000) {
  const end = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await tick()
  }
}
