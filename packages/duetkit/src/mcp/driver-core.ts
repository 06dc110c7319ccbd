import type { Stream } from 'xstream'
import { reply, wantsReply, type Driver, type DriverContext } from '../runtime/driver.js'
import { startAutoResize } from './auto-resize.js'
import { DuetError, type ErrorCode } from '../protocol/errors.js'
import type { McpFeature, McpFeatureParts } from './feature.js'
import { RpcError, isObject, type JsonObject } from './json-rpc.js'
import { appsSdkHost } from './apps-sdk-host.js'
import { createProtocolClient, type HostWindow, type MessageWindow } from './protocol-client.js'
import { toOutgoing, toolErrorText, type SinkTranslator } from './sinks.js'
import { createSourceHub, type McpSource, type McpSourceTypes } from './sources.js'
import { applyHostContext } from './theme.js'
import { HAS_HOST_THEME, HAS_MCP_SINKS, omittedError } from '../runtime/omitted.js'

/** The options of the driver core, shared by `makeMcpAppDriver` and `makeLeanMcpAppDriver`. */
export interface McpCoreOptions {
  /** The view's name and version in the handshake. Default `{ name: document.title, version: '0.0.0' }`. */
  appInfo?: { name: string; version: string; title?: string }
  /** Report the document's size to the host when it changes. Default true. */
  autoResize?: boolean
  /** Apply the host context (theme, style variables, fonts, safe-area insets) to the document. Default true. */
  theme?: boolean
  /** The MCP Apps protocol version offered. Default `'2026-01-26'`. */
  protocolVersion?: string
  /** How long a request waits for the host's answer before its `error` action. Default 60 000 ms. */
  timeoutMs?: number
  /** The view's window (tests inject a fake). Default the global `window`. */
  window?: Window & typeof globalThis
  /** The host's window; `null` for "no host". Default `window.parent` when the view is framed. */
  host?: HostWindow | null
}

/** What an `error` reply action receives. */
export interface McpErrorReply {
  error: string
  /**
   * A JSON-RPC code (number) from the host, a Duet code such as `'NO_HOST'` or `'INVALID_SINK'`, or, for a
   * `callTool` result with `isError: true`, the code the server put in `structuredContent.error.code`.
   */
  code?: number | ErrorCode
  /** The server's `structuredContent.error.data` of a failed tool call (e.g. COMPILE_ERROR's `problems`). */
  data?: JsonObject
  /** The tool result, when a `callTool` result had `isError: true`. */
  result?: JsonObject
  request: unknown
}

// A code in Duet's form (the server's vocabulary; the table itself stays out of view bundles).
const CODE_FORM = /^[A-Z][A-Z0-9_]*$/

/** The error reply of a tool result with `isError`: its text, and the server's code and data when it gave them. */
function toolFailure(result: JsonObject, request: unknown): McpErrorReply {
  const told = isObject(result.structuredContent) ? result.structuredContent.error : undefined
  const code = isObject(told) && typeof told.code === 'string' && CODE_FORM.test(told.code) ? (told.code as ErrorCode) : undefined
  const data = isObject(told) && isObject(told.data) ? told.data : undefined
  return { error: toolErrorText(result), ...(code && { code }), ...(data && { data }), result, request }
}

const DEFAULT_PROTOCOL = '2026-01-26'
const DEFAULT_TIMEOUT = 60_000
// A teardown answer must not wait forever on a runtime that never flushes (e.g. nothing changed).
const TEARDOWN_GRACE_MS = 1_000

/** Throws the `INVALID_OPTION` error of driver option `option`. */
export function failOption(option: string, message: string): never {
  throw new DuetError('INVALID_OPTION', `makeMcpAppDriver: option ${option} ${message}`, { option })
}

/** Checks the core's options (each driver checks its own on top). */
export function checkCoreOptions(o: McpCoreOptions): void {
  if (!isObject(o)) failOption('(options)', 'must be an object')
  if (o.appInfo !== undefined && (!isObject(o.appInfo) || typeof o.appInfo.name !== 'string' || typeof o.appInfo.version !== 'string'))
    failOption('appInfo', 'must be { name: string, version: string }')
  if (o.protocolVersion !== undefined && (typeof o.protocolVersion !== 'string' || o.protocolVersion === ''))
    failOption('protocolVersion', "must be a non-empty string such as '2026-01-26'")
  if (o.timeoutMs !== undefined && !(typeof o.timeoutMs === 'number' && o.timeoutMs > 0))
    failOption('timeoutMs', 'must be a positive number of milliseconds (Infinity for none)')
}

// A framed view's host is its parent (reading `parent` is allowed across origins); a top-level page has none.
const defaultHost = (win: (Window & typeof globalThis) | undefined): HostWindow | null => (win?.parent && win.parent !== win ? win.parent : null)

const errorReply = (err: unknown, request: unknown): McpErrorReply => ({
  error: err instanceof Error ? err.message : String(err),
  ...(err instanceof RpcError || err instanceof DuetError ? { code: err.code } : {}),
  request,
})

/**
 * The driver core: the handshake, the host's notifications as sources, teardown, theme and size, and
 * the sinks every view may use (`callTool`, `message`, `updateModelContext`, `openLink`,
 * `requestTeardown`). Everything else comes from `features`, so a view's bundle holds only the
 * features it passed.
 */
export function createMcpDriver(options: McpCoreOptions, features: readonly McpFeature[]): Driver<McpSource> {
  return function mcpAppDriver(sink$: Stream<unknown>, context: DriverContext): McpSource {
    const win = options.window ?? (typeof window === 'undefined' ? undefined : window)
    // An Apps SDK page (the server's twin of the view) talks through window.openai instead: the twin's
    // script presents it as a host (protocol/apps-sdk-adapter.ts), so no view carries that code.
    const twin = options.host === undefined ? appsSdkHost(win) : undefined
    const host = options.host === undefined ? (twin ?? defaultHost(win)) : options.host
    const hub = createSourceHub()
    const cleanups: Array<() => void> = []
    let hostContext: JsonObject = {}
    // Settled by the handshake: what the host said it offers. Until then a sink value waits for it.
    let hostCapabilities: JsonObject | undefined
    let disposed = false

    const onContext = (partial: JsonObject) => {
      hostContext = { ...hostContext, ...partial }
      if (HAS_HOST_THEME && options.theme !== false && win?.document) applyHostContext(hostContext, win.document)
      hub.emit('host-context-changed', hostContext)
    }

    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT
    const parts: McpFeatureParts[] = []
    const each = (fn: (part: McpFeatureParts) => void) => {
      for (const part of parts) fn(part)
    }

    const client = createProtocolClient({
      window: (twin ?? win) as MessageWindow | undefined,
      host,
      timeoutMs,
      onNotification(method, params) {
        switch (method) {
          case 'ui/notifications/tool-input':
            return void hub.emit('tool-input', isObject(params.arguments) ? params.arguments : {})
          case 'ui/notifications/tool-input-partial':
            return void hub.emit('tool-input-partial', isObject(params.arguments) ? params.arguments : {})
          case 'ui/notifications/tool-result':
            hub.emit('tool-result', params)
            // After the result's own action, so a restored state lands on top of it in the same flush.
            return each((p) => p.onToolResult?.(params))
          case 'ui/notifications/tool-cancelled':
            return void hub.emit('tool-cancelled', params)
          case 'ui/notifications/host-context-changed':
            return onContext(params)
        }
      },
      onRequest(method, params) {
        if (method === 'ui/resource-teardown') return teardown(params)
        for (const part of parts) {
          const answer = part.onRequest?.(method, params)
          if (answer) return answer
        }
        return undefined
      },
    })

    // Answered once the actions the teardown caused have been reduced and rendered.
    function teardown(params: JsonObject): Promise<JsonObject> {
      each((p) => p.onTeardown?.())
      return new Promise((resolve) => {
        let done = false
        const finish = () => {
          if (done) return
          done = true
          unsubscribe()
          clearTimeout(timer)
          resolve({})
        }
        const unsubscribe = context.app.onFlush(finish)
        const timer = setTimeout(finish, TEARDOWN_GRACE_MS)
        if (hub.emit('teardown', params) === 0) finish()
      })
    }

    for (const feature of features) {
      parts.push(
        feature({
          app: context.app,
          win,
          hasHost: host !== null,
          appsSdk: twin,
          timeoutMs,
          callTool: (name, args) => client.request('tools/call', { name, arguments: args }),
          notify: (method, params) => client.notify(method, params),
          connected: () => client.connected,
          handshake: () => client.connect(handshakeParams),
          hostCapabilities: () => hostCapabilities,
          hostContext: () => hostContext,
        }),
      )
    }
    const translators: Record<string, SinkTranslator> = {}
    const handlers: Record<string, (value: unknown, sink: JsonObject) => Promise<unknown>> = {}
    const appCapabilities: JsonObject = {}
    each((p) => {
      if (HAS_MCP_SINKS) {
        Object.assign(translators, p.sinks)
        Object.assign(handlers, p.handlers)
      }
      Object.assign(appCapabilities, p.appCapabilities)
    })

    const appInfo = options.appInfo ?? { name: win?.document?.title || 'duet-app', version: '0.0.0' }
    const handshakeParams = { protocolVersion: options.protocolVersion ?? DEFAULT_PROTOCOL, appInfo, appCapabilities }
    if (host !== null) {
      client.connect(handshakeParams).then(
        (result) => {
          if (disposed) return
          hostCapabilities = isObject(result.hostCapabilities) ? result.hostCapabilities : {}
          each((p) => p.onConnected?.(result))
          hub.emit('host', { hostInfo: result.hostInfo, hostCapabilities: result.hostCapabilities ?? {}, protocolVersion: result.protocolVersion })
          onContext(isObject(result.hostContext) ? result.hostContext : {})
          if (options.autoResize !== false && win && typeof win.ResizeObserver === 'function') {
            cleanups.push(startAutoResize(win, (size) => void client.notify('ui/notifications/size-changed', { ...size }).catch(() => {})))
          }
        },
        (err: Error) => {
          if (!disposed) console.error(`[duetkit/mcp] ${err.message}`)
        },
      )
    }

    const warned = new Set<string>()
    async function handle(sink: unknown) {
      let method: string | undefined
      try {
        const own = isObject(sink) ? Object.keys(handlers).find((k) => k in sink) : undefined
        if (own !== undefined) {
          const s = sink as JsonObject
          reply(sink, 'ok', await handlers[own]!(s[own], s))
          return
        }
        const out = toOutgoing(sink, translators, Object.keys(handlers))
        method = out.method
        if (host !== null && out.method !== 'ui/notifications/request-teardown') {
          // Waits for the handshake (a failed one fails here, as the request itself would).
          await client.connect(handshakeParams)
          for (const part of parts) {
            const refused = part.check?.(out)
            if (refused) throw refused
          }
        }
        if (out.kind === 'notification') {
          await client.notify(out.method, out.params)
          reply(sink, 'ok', {})
          return
        }
        const result = await client.request(out.method, out.params)
        if (out.toolResult && result.isError === true) {
          reply(sink, 'error', toolFailure(result, sink))
          return
        }
        reply(sink, 'ok', out.answer ? out.answer(result) : result)
      } catch (err) {
        if (disposed && err instanceof DuetError && err.code === 'DISPOSED') return
        const answer = errorReply(err, sink)
        const delivered = reply(sink, 'error', answer)
        // A failure nobody asked to hear about still deserves a trace, or it is lost; it names the method.
        if (delivered || wantsReply(sink, 'error')) return
        // The same refusal (one method, one mode) is said once, not on every click.
        const text = answer.error
        if (err instanceof DuetError && err.code === 'UNSUPPORTED') {
          if (warned.has(text)) return
          warned.add(text)
        }
        console.warn(`[duetkit/mcp] ${method && !text.startsWith(method) ? `${method}: ` : ''}${text}`)
      }
    }

    // Without sinks (duet({ omit: ['mcp-sinks'] })) a value sent anyway fails, to its error action or the console.
    const refuse = (sink: unknown) => {
      const err = omittedError('mcp-sinks')
      if (!reply(sink, 'error', errorReply(err, sink))) console.error(`[duetkit/mcp] ${err.message}`)
    }
    sink$.addListener({
      next: (value) => (HAS_MCP_SINKS ? void handle(value) : refuse(value)),
      error: (err) => console.error('[duetkit/mcp] sink stream failed', err),
      complete: () => {
        disposed = true
        for (const cleanup of cleanups.splice(0)) cleanup()
        each((p) => p.dispose?.())
        client.dispose()
        hub.dispose()
      },
    })

    // A feature may serve a name itself (the channel's 'agent-message'); the hub serves the rest.
    return {
      select(name) {
        for (const part of parts) {
          const served = part.select?.(name)
          if (served) return served as Stream<McpSourceTypes[typeof name]>
        }
        return hub.source.select(name)
      },
    }
  }
}
