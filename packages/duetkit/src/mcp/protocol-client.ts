import { DuetError } from '../protocol/errors.js'
import {
  INTERNAL_ERROR,
  INVALID_REQUEST,
  METHOD_NOT_FOUND,
  REQUEST_TIMEOUT,
  RpcError,
  isId,
  parseMessage,
  toJson,
  type JsonObject,
  type JsonRpcFailure,
  type JsonRpcId,
  type JsonRpcSuccess,
} from './json-rpc.js'

/** The window the driver listens on; a fake one in unit tests. */
export interface MessageWindow {
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void
  removeEventListener(type: 'message', listener: (event: MessageEvent) => void): void
}

/** The host's window as seen from the view: only `postMessage` is used. */
export interface HostWindow {
  postMessage(message: unknown, targetOrigin: string): void
}

export interface ProtocolClientOptions {
  /** Where the host's messages arrive; undefined outside a browser, where there is nothing to hear. */
  window: MessageWindow | undefined
  /** `null` when there is no host: requests then fail with `NO_HOST` and nothing is posted. */
  host: HostWindow | null
  timeoutMs: number
  /** Answers a host request; throw an `RpcError` to answer with its code. */
  onRequest(method: string, params: JsonObject): Promise<JsonObject> | undefined
  onNotification(method: string, params: JsonObject): void
}

export interface ProtocolClient {
  /** Runs the handshake once; requests sent before it resolves wait for it. */
  connect(initializeParams: JsonObject): Promise<JsonObject>
  request(method: string, params?: JsonObject): Promise<JsonObject>
  notify(method: string, params?: JsonObject): Promise<void>
  readonly connected: boolean
  dispose(): void
}

interface Pending {
  resolve(result: JsonObject): void
  reject(error: Error): void
  timer?: ReturnType<typeof setTimeout>
}

/**
 * The view side of the JSON-RPC channel: integer ids, pending requests with timeouts (a timed-out
 * request is cancelled at the host with `notifications/cancelled`), the `ui/initialize` gate, and
 * host requests answered through `onRequest` (`ping` built in, unknown methods → -32601).
 */
export function createProtocolClient(options: ProtocolClientOptions): ProtocolClient {
  const { host, timeoutMs } = options
  const pending = new Map<number, Pending>()
  let nextId = 0
  let disposed = false
  let connected = false
  let handshake: Promise<JsonObject> | undefined

  // One JSON round trip frames every message: `undefined` fields (no params, no error data) vanish,
  // functions are dropped and a cycle throws here rather than in the host.
  const post = (message: { id?: JsonRpcId; method?: string; params?: JsonObject; result?: JsonObject; error?: JsonRpcFailure['error'] }) =>
    host!.postMessage(toJson({ jsonrpc: '2.0', ...message }), '*')

  const noHost = () => new DuetError('NO_HOST', 'No MCP Apps host: the view is not framed by a host, so nothing was sent')
  const gone = () => new DuetError('DISPOSED', 'The MCP driver was disposed before the host answered')

  function send(method: string, params: JsonObject | undefined): Promise<JsonObject> {
    if (disposed) return Promise.reject(gone())
    const id = nextId++
    return new Promise<JsonObject>((resolve, reject) => {
      // A host's bare "Method not found" would leave the log line unable to say which method.
      const entry: Pending = {
        resolve,
        reject: (err) => reject(err instanceof RpcError && err.code === METHOD_NOT_FOUND ? new RpcError(err.code, `${err.message}: ${method}`, err.data) : err),
      }
      if (Number.isFinite(timeoutMs)) {
        entry.timer = setTimeout(() => {
          pending.delete(id)
          // Tell the host to stop working on it, as the MCP SDK does on timeout.
          post({ method: 'notifications/cancelled', params: { requestId: id, reason: `timed out after ${timeoutMs} ms` } })
          reject(new RpcError(REQUEST_TIMEOUT, `The host did not answer ${method} within ${timeoutMs} ms (option timeoutMs)`))
        }, timeoutMs)
      }
      pending.set(id, entry)
      try {
        post({ id, method, params })
      } catch (err) {
        settle(id)
        reject(err instanceof Error ? err : new Error(String(err)))
      }
    })
  }

  // Everything but the handshake waits for it.
  async function ready(method: string) {
    if (host === null) throw noHost()
    if (!handshake) throw new DuetError('HANDSHAKE_FAILED', `${method} before connect()`)
    await handshake
  }

  function settle(id: number): Pending | undefined {
    const entry = pending.get(id)
    if (!entry) return undefined
    pending.delete(id)
    if (entry.timer !== undefined) clearTimeout(entry.timer)
    return entry
  }

  function onResponse(message: JsonRpcSuccess | JsonRpcFailure) {
    if (typeof message.id !== 'number') return
    const entry = settle(message.id)
    if (!entry) return
    if ('error' in message) entry.reject(new RpcError(message.error.code, message.error.message, message.error.data))
    else entry.resolve(message.result)
  }

  async function onHostRequest(id: string | number, method: string, params: JsonObject) {
    try {
      const answer = method === 'ping' ? {} : options.onRequest(method, params)
      if (answer === undefined) throw new RpcError(METHOD_NOT_FOUND, `Method not found: ${method}`)
      const result = await answer
      if (!disposed) post({ id, result })
    } catch (err) {
      if (!disposed)
        post({ id, error: { code: err instanceof RpcError ? err.code : INTERNAL_ERROR, message: err instanceof Error ? err.message : String(err) } })
    }
  }

  const listener = (event: MessageEvent) => {
    // The source check is the only defence against sibling frames forging host messages.
    if (disposed || host === null || event.source !== (host as unknown)) return
    const m = parseMessage(event.data)
    if (m === undefined) return
    if (typeof m === 'string') {
      const id = (event.data as JsonObject).id
      if (isId(id)) post({ id, error: { code: INVALID_REQUEST, message: `Invalid request: ${m}` } })
    } else if (!('method' in m)) onResponse(m)
    else if ('id' in m) void onHostRequest(m.id, m.method, m.params ?? {})
    else options.onNotification(m.method, m.params ?? {})
  }
  if (host !== null) options.window?.addEventListener('message', listener)

  return {
    get connected() {
      return connected
    },
    connect(initializeParams) {
      if (handshake) return handshake
      if (host === null) return (handshake = Promise.reject(noHost()))
      handshake = send('ui/initialize', initializeParams).then(
        (result) => {
          if (disposed) throw gone()
          post({ method: 'ui/notifications/initialized' })
          connected = true
          return result
        },
        (err: Error) => {
          throw new DuetError('HANDSHAKE_FAILED', `The ui/initialize handshake failed: ${err.message}`, undefined, { cause: err })
        },
      )
      return handshake
    },
    async request(method, params) {
      await ready(method)
      return send(method, params)
    },
    async notify(method, params) {
      await ready(method)
      if (disposed) throw gone()
      post({ method, params })
    },
    dispose() {
      if (disposed) return
      disposed = true
      if (host !== null) options.window?.removeEventListener('message', listener)
      for (const id of [...pending.keys()]) settle(id)?.reject(gone())
    },
  }
}
