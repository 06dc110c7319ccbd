import { McpAppError, McpAppErrorCode } from './errors.js'
import {
  RpcCode, RpcError, failure, notification, parseMessage, request, success, toJson,
  type JsonObject, type JsonRpcFailure, type JsonRpcSuccess,
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
  window: MessageWindow
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

  const post = (message: unknown) => host!.postMessage(message, '*')

  const noHost = () => new McpAppError(McpAppErrorCode.NoHost, 'No MCP Apps host: the view is not inside a host iframe (opened directly, no parent window, or server rendering), so nothing was sent')
  const gone = () => new McpAppError(McpAppErrorCode.Disposed, 'The MCP Apps driver was disposed before the host answered')

  function send(method: string, params: JsonObject | undefined): Promise<JsonObject> {
    if (disposed) return Promise.reject(gone())
    const id = nextId++
    return new Promise<JsonObject>((resolve, reject) => {
      const entry: Pending = { resolve, reject }
      if (Number.isFinite(timeoutMs)) {
        entry.timer = setTimeout(() => {
          pending.delete(id)
          // Tell the host to stop working on it, as the MCP SDK does on timeout.
          post(notification('notifications/cancelled', { requestId: id, reason: `timed out after ${timeoutMs} ms` }))
          reject(new RpcError(RpcCode.RequestTimeout, `The host did not answer ${method} within ${timeoutMs} ms (timeoutMs option)`))
        }, timeoutMs)
      }
      pending.set(id, entry)
      try {
        post(request(id, method, params === undefined ? undefined : toJson(params)))
      } catch (err) {
        settle(id)
        reject(err instanceof Error ? err : new Error(String(err)))
      }
    })
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
      if (answer === undefined) throw new RpcError(RpcCode.MethodNotFound, `Method not found: ${method}`)
      const result = await answer
      if (!disposed) post(success(id, toJson(result)))
    } catch (err) {
      if (disposed) return
      const code = err instanceof RpcError ? err.code : RpcCode.InternalError
      post(failure(id, code, err instanceof Error ? err.message : String(err)))
    }
  }

  const listener = (event: MessageEvent) => {
    // The source check is the only defence against sibling frames forging host messages.
    if (disposed || host === null || event.source !== (host as unknown)) return
    const parsed = parseMessage(event.data)
    if (!parsed) return
    switch (parsed.kind) {
      case 'response': return onResponse(parsed.message)
      case 'request': return void onHostRequest(parsed.message.id, parsed.message.method, parsed.message.params ?? {})
      case 'notification': return options.onNotification(parsed.message.method, parsed.message.params ?? {})
      case 'invalid':
        if (parsed.id !== null) post(failure(parsed.id, RpcCode.InvalidRequest, `Invalid request: ${parsed.reason}`))
    }
  }
  if (host !== null) options.window.addEventListener('message', listener)

  return {
    get connected() { return connected },
    connect(initializeParams) {
      if (handshake) return handshake
      if (host === null) return (handshake = Promise.reject(noHost()))
      handshake = send('ui/initialize', initializeParams).then(
        (result) => {
          if (disposed) throw gone()
          post(notification('ui/notifications/initialized'))
          connected = true
          return result
        },
        (err: Error) => {
          throw new McpAppError(McpAppErrorCode.HandshakeFailed, `The ui/initialize handshake failed: ${err.message}`, err)
        },
      )
      return handshake
    },
    async request(method, params) {
      if (host === null) throw noHost()
      if (!handshake) throw new McpAppError(McpAppErrorCode.HandshakeFailed, `${method} was requested before connect()`)
      await handshake
      return send(method, params)
    },
    async notify(method, params) {
      if (host === null) throw noHost()
      if (!handshake) throw new McpAppError(McpAppErrorCode.HandshakeFailed, `${method} was sent before connect()`)
      await handshake
      if (disposed) throw gone()
      post(notification(method, params === undefined ? undefined : toJson(params)))
    },
    dispose() {
      if (disposed) return
      disposed = true
      if (host !== null) options.window.removeEventListener('message', listener)
      for (const id of [...pending.keys()]) settle(id)?.reject(gone())
    },
  }
}
