import type { Stream } from 'xstream'
import { reply, wantsReply, type Driver, type DriverContext } from '../runtime/driver.js'
import type { AgentToolLayer, AgentToolsFactory, ConfirmFn } from './agent-tools.js'
import { startAutoResize } from './auto-resize.js'
import { unsupported } from './capabilities.js'
import { DuetError, type ErrorCode } from '../protocol/errors.js'
import { RpcCode, RpcError, isObject, type JsonObject } from './json-rpc.js'
import { createProtocolClient, type HostWindow, type MessageWindow } from './protocol-client.js'
import { toOutgoing, toolErrorText } from './sinks.js'
import type { AgentChannelFactory, ChannelLink } from './channel.js'
import { createSourceHub, type McpSource, type McpSourceTypes } from './sources.js'
import { applyHostContext } from './theme.js'
import { keepViewState, localBackend, serverBackend, VIEW_STATE_TOOL, type ViewStateBackend } from './view-state.js'

import type { DisplayMode } from './host-types.js'

export type { DisplayMode }

export interface McpAppDriverOptions {
  /** The view's name and version in the handshake. Default `{ name: document.title, version: '0.0.0' }`. */
  appInfo?: { name: string; version: string; title?: string }
  /** The display modes the view supports, announced in `appCapabilities`. */
  availableDisplayModes?: DisplayMode[]
  /** Report the document's size to the host when it changes. Default true. */
  autoResize?: boolean
  /** Apply the host context (theme, style variables, fonts, safe-area insets) to the document. Default true. */
  theme?: boolean
  /** `agentTools`: serve the components' `agent` declarations as the view's own tools. */
  tools?: AgentToolsFactory
  /** With `tools`: consequential calls run only when this resolves true. Default: declined. */
  confirm?: ConfirmFn
  /** The MCP Apps protocol version offered. Default `'2026-01-26'`. */
  protocolVersion?: string
  /** How long a request waits for the host's answer before its `error` action. Default 60 000 ms. */
  timeoutMs?: number
  /** The view's window (tests inject a fake). Default the global `window`. */
  window?: Window & typeof globalThis
  /**
   * `agentChannel()`: the Duet channel the view talks to the agent on (`notifyAgent` sink,
   * `agent-message` source). A view without it carries no channel code; `notifyAgent` then fails with `NO_CHANNEL`.
   */
  channel?: AgentChannelFactory
  /** The host's window; `null` for "no host". Default `window.parent` when the view is framed. */
  host?: HostWindow | null
  /**
   * Where an `App.persist` state is kept: `'auto'` (default) uses `localStorage` and, where the sandbox
   * has none, the server's app-only `duet_view_state` tool; `'server'` always the tool; `false` keeps nothing.
   */
  viewState?: 'auto' | 'server' | false
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

const DEFAULT_PROTOCOL = '2026-01-26'
const DEFAULT_TIMEOUT = 60_000
// A teardown answer must not wait forever on a runtime that never flushes (e.g. nothing changed).
const TEARDOWN_GRACE_MS = 1_000

function fail(option: string, message: string): never {
  throw new DuetError('INVALID_OPTION', `makeMcpAppDriver: option ${option} ${message}`, { option })
}

function checkOptions(o: McpAppDriverOptions): void {
  if (!isObject(o)) fail('(options)', 'must be an object')
  if (o.appInfo !== undefined && (!isObject(o.appInfo) || typeof o.appInfo.name !== 'string' || typeof o.appInfo.version !== 'string'))
    fail('appInfo', 'must be { name: string, version: string }')
  if (
    o.availableDisplayModes !== undefined &&
    (!Array.isArray(o.availableDisplayModes) || !o.availableDisplayModes.every((m) => m === 'inline' || m === 'fullscreen' || m === 'pip'))
  )
    fail('availableDisplayModes', "must be an array of 'inline', 'fullscreen', 'pip'")
  if (o.tools !== undefined && typeof o.tools !== 'function') fail('tools', 'must be agentTools (import it from duetkit/mcp)')
  if (o.confirm !== undefined && typeof o.confirm !== 'function') fail('confirm', 'must be a function returning a boolean or a promise of one')
  if (o.protocolVersion !== undefined && (typeof o.protocolVersion !== 'string' || o.protocolVersion === ''))
    fail('protocolVersion', "must be a non-empty string such as '2026-01-26'")
  if (o.timeoutMs !== undefined && !(typeof o.timeoutMs === 'number' && o.timeoutMs > 0))
    fail('timeoutMs', 'must be a positive number of milliseconds (Infinity for none)')
  if (o.viewState !== undefined && o.viewState !== 'auto' && o.viewState !== 'server' && o.viewState !== false)
    fail('viewState', "must be 'auto', 'server' or false")
  if (o.channel !== undefined && typeof o.channel !== 'function')
    fail('channel', "must be agentChannel() or agentChannel('<channel id>') (import it from duetkit/mcp)")
}

function defaultHost(win: (Window & typeof globalThis) | undefined): HostWindow | null {
  if (!win) return null
  try {
    return win.parent && win.parent !== win ? win.parent : null
  } catch {
    return null
  }
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

const errorReply = (err: unknown, request: unknown): McpErrorReply => ({
  error: err instanceof Error ? err.message : String(err),
  ...(err instanceof RpcError || err instanceof DuetError ? { code: err.code } : {}),
  request,
})

/**
 * The MCP Apps driver: speaks the view side of MCP Apps (JSON-RPC 2.0 over postMessage) to the
 * host that framed the view. Its source is `MCP.select(…)`; its sink takes `{ callTool }`,
 * `{ message }`, `{ updateModelContext }`, … with `ok`/`error` reply actions.
 *
 * @example run(App, { MCP: makeMcpAppDriver({ appInfo: { name: 'forecast', version: '1.0.0' } }) })
 */
export function makeMcpAppDriver(options: McpAppDriverOptions = {}): Driver<McpSource> {
  checkOptions(options)
  return function mcpAppDriver(sink$: Stream<unknown>, context: DriverContext): McpSource {
    const win = options.window ?? (typeof window === 'undefined' ? undefined : window)
    const host = options.host === undefined ? defaultHost(win) : options.host
    const hub = createSourceHub()
    const cleanups: Array<() => void> = []
    let hostContext: JsonObject = {}
    // Settled by the handshake: what the host said it offers. Until then a sink value waits for it.
    let hostCapabilities: JsonObject | undefined
    let tools: AgentToolLayer | undefined
    let recordTools = () => {}
    let disposed = false

    const onContext = (partial: JsonObject) => {
      hostContext = { ...hostContext, ...partial }
      if (options.theme !== false && win?.document) applyHostContext(hostContext, win.document)
      hub.emit('host-context-changed', hostContext)
    }

    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT
    const channel: ChannelLink | undefined = options.channel?.({
      hasHost: host !== null,
      callTool: (name, args) => client.request('tools/call', { name, arguments: args }),
      timeoutMs,
    })

    const client = createProtocolClient({
      window: (win ?? { addEventListener() {}, removeEventListener() {} }) as MessageWindow,
      host,
      timeoutMs,
      onNotification(method, params) {
        switch (method) {
          case 'ui/notifications/tool-input':
            return void hub.emit('tool-input', isObject(params.arguments) ? params.arguments : {})
          case 'ui/notifications/tool-input-partial':
            return void hub.emit('tool-input-partial', isObject(params.arguments) ? params.arguments : {})
          case 'ui/notifications/tool-result':
            channel?.onToolResult(params)
            hub.emit('tool-result', params)
            // After the result's own action, so a restored state lands on top of it in the same flush.
            return void kept?.onToolResult(params)
          case 'ui/notifications/tool-cancelled':
            return void hub.emit('tool-cancelled', params)
          case 'ui/notifications/host-context-changed':
            return onContext(params)
        }
      },
      onRequest(method, params) {
        if (method === 'ui/resource-teardown') return teardown(params)
        if (tools && method === 'tools/list') return Promise.resolve({ tools: tools.list() })
        if (tools && method === 'tools/call') {
          if (typeof params.name !== 'string') return Promise.reject(new RpcError(RpcCode.InvalidParams, 'tools/call needs a tool name'))
          return tools.call(params.name, params.arguments)
        }
        return undefined
      },
    })

    // Answered once the actions the teardown caused have been reduced and rendered.
    function teardown(params: JsonObject): Promise<JsonObject> {
      channel?.stop()
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

    // App.persist: the runtime says what to keep; this driver knows the view instance and where to keep it.
    const persist = options.viewState === false ? undefined : context.app.persistence?.()
    let backend: ViewStateBackend | undefined | null = null
    const pickBackend = (): ViewStateBackend | undefined => {
      if (backend !== null) return backend
      backend = options.viewState === 'server' ? undefined : localBackend(win as { localStorage?: Storage } | undefined)
      if (!backend && isObject(hostCapabilities?.serverTools)) backend = serverBackend((name, args) => client.request('tools/call', { name, arguments: args }))
      if (!backend)
        console.warn(
          `[duetkit/mcp] tools/call ${VIEW_STATE_TOOL}: the view state is not kept: the sandbox has no localStorage and the host offers no serverTools`,
        )
      return backend
    }
    const kept = persist
      ? keepViewState(persist, pickBackend, (message) =>
          console.warn(`[duetkit/mcp] view state (${backend?.kind === 'server' ? `tools/call ${VIEW_STATE_TOOL}` : 'localStorage'}): ${message}`),
        )
      : undefined
    if (kept) cleanups.push(context.app.onFlush(() => kept.onFlush()))

    if (options.tools) {
      tools = options.tools(context.app, { confirm: options.confirm })
      // The host lists tools after the handshake; only later changes are worth a notification.
      let listed: string | undefined
      recordTools = () => {
        listed = JSON.stringify(tools!.list())
      }
      cleanups.push(
        context.app.onFlush(() => {
          if (!client.connected || listed === undefined) return
          const now = JSON.stringify(tools!.list())
          if (now === listed) return
          listed = now
          client.notify('notifications/tools/list_changed', {}).catch(() => {})
        }),
      )
    }

    const appInfo = options.appInfo ?? { name: win?.document?.title || 'duet-app', version: '0.0.0' }
    const appCapabilities: JsonObject = {}
    if (options.availableDisplayModes) appCapabilities.availableDisplayModes = options.availableDisplayModes
    if (tools) appCapabilities.tools = { listChanged: true }

    const handshakeParams = { protocolVersion: options.protocolVersion ?? DEFAULT_PROTOCOL, appInfo, appCapabilities }
    if (host !== null) {
      client.connect(handshakeParams).then(
        (result) => {
          if (disposed) return
          recordTools()
          hostCapabilities = isObject(result.hostCapabilities) ? result.hostCapabilities : {}
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
        if (isObject(sink) && 'notifyAgent' in sink) {
          if (!channel)
            throw new DuetError(
              'NO_CHANNEL',
              'notifyAgent: this view has no agent channel; make its driver with makeMcpAppDriver({ channel: agentChannel() }) (import agentChannel from duetkit/mcp)',
            )
          reply(sink, 'ok', await channel.notify(sink.notifyAgent))
          return
        }
        const out = toOutgoing(sink)
        method = out.method
        if (host !== null && out.method !== 'ui/notifications/request-teardown') {
          // Waits for the handshake (a failed one fails here, as the request itself would).
          await client.connect(handshakeParams)
          const refused = unsupported(out.method, out.params, hostCapabilities ?? {}, hostContext)
          if (refused) throw refused
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
        const delivered = reply(sink, 'error', errorReply(err, sink))
        // A failure nobody asked to hear about still deserves a trace, or it is lost; it names the
        // method, and an unsupported method is said once, not on every click.
        if (delivered || wantsReply(sink, 'error')) return
        const refused = err instanceof DuetError && err.code === 'UNSUPPORTED'
        if (refused && warned.has(method!)) return
        if (refused) warned.add(method!)
        const text = errorReply(err, sink).error
        console.warn(`[duetkit/mcp] ${method && !text.startsWith(method) ? `${method}: ` : ''}${text}`)
      }
    }

    sink$.addListener({
      next: (value) => void handle(value),
      error: (err) => console.error('[duetkit/mcp] sink stream failed', err),
      complete: () => {
        disposed = true
        for (const cleanup of cleanups.splice(0)) cleanup()
        channel?.stop()
        client.dispose()
        hub.dispose()
      },
    })

    // Without a channel, 'agent-message' is an ordinary hub name that nothing ever emits on.
    // `name` narrowed to 'agent-message' does not narrow the generic N, so the channel's stream is cast to it.
    return {
      select: (name) =>
        name === 'agent-message' && channel ? (channel.messages() as unknown as Stream<McpSourceTypes[typeof name]>) : hub.source.select(name),
    }
  }
}
