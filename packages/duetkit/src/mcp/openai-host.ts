// `window.openai` (the OpenAI Apps SDK's widget bridge) presented as the MCP Apps host the driver
// already talks to: the driver posts JSON-RPC to this object and hears answers and notifications
// from it, so the rest of the driver does not know which dialect the page runs in. Used only where
// the server's Apps SDK twin of a view marked the page (`<meta name="duet-dialect" content="openai">`)
// and `window.openai` is there; everywhere else the page talks MCP Apps over postMessage.
import { DuetError } from '../protocol/errors.js'
import { isObject, RpcCode, RpcError, type JsonObject } from './json-rpc.js'
import type { HostWindow, MessageWindow } from './protocol-client.js'
import { VIEW_STATE_TOOL } from './view-state.js'

type Fn = (...args: never[]) => unknown

/** The part of `window.openai` the driver reads and calls (OpenAI's Apps SDK reference). */
export interface OpenAiBridge {
  toolInput?: JsonObject
  toolOutput?: JsonObject | null
  toolResponseMetadata?: JsonObject | null
  widgetState?: JsonObject | null
  theme?: 'light' | 'dark'
  locale?: string
  displayMode?: 'inline' | 'pip' | 'fullscreen'
  maxHeight?: number
  callTool?(name: string, args: JsonObject): Promise<unknown>
  sendFollowUpMessage?(args: { prompt: string }): Promise<void>
  openExternal?(args: { href: string }): void
  requestDisplayMode?(args: { mode: string }): Promise<{ mode?: string } | undefined>
  setWidgetState?(state: JsonObject): Promise<void> | void
  notifyIntrinsicHeight?(height: number): void
  uploadFile?(file: unknown): Promise<unknown>
  requestModal?(args: JsonObject): Promise<unknown>
  requestCheckout?(session: JsonObject): Promise<unknown>
}

/** ChatGPT-only calls a view may make through the `{ openai: name, args }` sink, where `window.openai` has them. */
export type OpenAiExtra = 'uploadFile' | 'requestModal' | 'requestCheckout'
const EXTRAS: OpenAiExtra[] = ['uploadFile', 'requestModal', 'requestCheckout']

// The adapters made here; a WeakSet, because reading a property of a cross-origin parent throws.
const adapters = new WeakMap<object, OpenAiBridge>()

/** The `window.openai` behind `host`, when `host` is one of these adapters. */
export const bridgeOf = (host: unknown): OpenAiBridge | undefined => (isObject(host) ? adapters.get(host) : undefined)

type Listener = (event: MessageEvent) => void

/** An MCP Apps host made of `window.openai`, or undefined when the page is not an Apps SDK twin. */
export function openAiHost(win: (Window & typeof globalThis) | undefined): (HostWindow & MessageWindow) | undefined {
  const openai = (win as { openai?: OpenAiBridge } | undefined)?.openai
  if (!isObject(openai) || !win?.document?.querySelector('meta[name="duet-dialect"][content="openai"]')) return undefined
  const bridge = openai as OpenAiBridge
  const listeners = new Set<Listener>()
  const emit = (data: JsonObject) =>
    queueMicrotask(() => {
      for (const l of listeners) l({ data: { jsonrpc: '2.0', ...data }, source: host } as never)
    })
  const has = (name: keyof OpenAiBridge) => typeof bridge[name] === 'function'
  const context = (): JsonObject => ({
    theme: bridge.theme,
    locale: bridge.locale,
    displayMode: bridge.displayMode,
    ...(has('requestDisplayMode') && { availableDisplayModes: ['inline', 'fullscreen', 'pip'] }),
    ...(typeof bridge.maxHeight === 'number' && { containerDimensions: { maxHeight: bridge.maxHeight } }),
  })
  let seen: JsonObject = {}
  let calls: Promise<unknown> = Promise.resolve()
  // Tool input, result and context, each told again only when `openai:set_globals` changed it.
  const tell = () => {
    const now = { input: bridge.toolInput, output: [bridge.toolOutput, bridge.toolResponseMetadata], context: context() }
    const changed = (k: keyof typeof now) => JSON.stringify(now[k]) !== JSON.stringify(seen[k])
    if (bridge.toolInput && changed('input')) emit({ method: 'ui/notifications/tool-input', params: { arguments: bridge.toolInput } })
    if ((bridge.toolOutput || bridge.toolResponseMetadata) && changed('output'))
      emit({
        method: 'ui/notifications/tool-result',
        params: { content: [], structuredContent: bridge.toolOutput ?? undefined, _meta: bridge.toolResponseMetadata ?? undefined },
      })
    if (seen.context && changed('context')) emit({ method: 'ui/notifications/host-context-changed', params: now.context })
    seen = now as JsonObject
  }

  async function answer(method: string, p: JsonObject): Promise<unknown> {
    switch (method) {
      case 'ui/initialize': {
        const caps: JsonObject = { openai: Object.fromEntries(EXTRAS.filter(has).map((n) => [n, {}])) }
        if (has('callTool')) caps.serverTools = {}
        if (has('sendFollowUpMessage')) caps.message = {}
        if (has('openExternal')) caps.openLinks = {}
        return { protocolVersion: p.protocolVersion, hostInfo: { name: 'openai' }, hostCapabilities: caps, hostContext: context() }
      }
      case 'tools/call': {
        if (p.name === VIEW_STATE_TOOL) return widgetState(p.arguments as JsonObject)
        let args = p.arguments as JsonObject
        // Some Apps SDK hosts run one widget tool call at a time (MCPJam answers a second one 409), so a
        // channel's long poll would hold every other call: here it is a short poll, once a second.
        if (p.name === 'poll_ui_messages') {
          await new Promise((r) => setTimeout(r, 1000))
          args = { ...args, wait_ms: 0 }
        }
        // One call at a time from this view, for the same reason.
        const call = calls.then(() => bridge.callTool!(p.name as string, args))
        calls = call.catch(() => {})
        return asToolResult(await call)
      }
      case 'ui/message': {
        // Only this view's driver posts here, and its message sink always sends content blocks (sinks.ts).
        const blocks = p.content as unknown[]
        await bridge.sendFollowUpMessage!({ prompt: blocks.map((b) => (isObject(b) && typeof b.text === 'string' ? b.text : '')).join('\n') })
        return {}
      }
      case 'ui/open-link':
        bridge.openExternal!({ href: p.url as string })
        return {}
      case 'ui/request-display-mode':
        return { mode: (await bridge.requestDisplayMode?.({ mode: p.mode as string }))?.mode ?? p.mode }
    }
    // The driver names the method in what it reports.
    throw new RpcError(RpcCode.MethodNotFound, 'Method not found')
  }

  // `App.persist` state, kept in the host's widget state under the view instance's id.
  function widgetState(args: JsonObject): JsonObject {
    const kept = isObject(bridge.widgetState?.duet) ? bridge.widgetState.duet : {}
    if (args.op === 'put') void bridge.setWidgetState?.({ ...bridge.widgetState, duet: { id: args.viewUUID, state: args.state } })
    return { content: [], structuredContent: { state: args.op === 'get' && kept.id === args.viewUUID ? kept.state : null } }
  }

  const host: HostWindow & MessageWindow = {
    postMessage(message) {
      const m = message as { id?: number; method?: string; params?: JsonObject }
      if (m.id === undefined) {
        if (m.method === 'ui/notifications/initialized') {
          win.addEventListener('openai:set_globals', tell)
          // A task later, as a host's first notifications come: the driver has read the handshake's answer by then.
          setTimeout(tell)
        } else if (m.method === 'ui/notifications/size-changed' && typeof m.params?.height === 'number') bridge.notifyIntrinsicHeight?.(m.params.height)
        return
      }
      answer(m.method!, m.params ?? {}).then(
        (r) => emit({ id: m.id, result: r as JsonObject }),
        (err: Error & { code?: number }) => emit({ id: m.id, error: { code: err.code ?? RpcCode.InternalError, message: err.message } }),
      )
    },
    addEventListener: (_type, l) => void listeners.add(l),
    removeEventListener(_type, l) {
      listeners.delete(l)
      win.removeEventListener('openai:set_globals', tell)
    },
  }
  adapters.set(host, bridge)
  return host
}

// `callTool` answers with the tool's result (MCPJam, current ChatGPT) or, in OpenAI's older typings, `{ result: string }`.
function asToolResult(answer: unknown): JsonObject {
  if (isObject(answer) && ('content' in answer || 'structuredContent' in answer || 'isError' in answer)) return { content: [], ...answer }
  return { content: [{ type: 'text', text: String((answer as { result?: unknown })?.result ?? '') }] }
}

/** Runs a ChatGPT-only call (`{ openai: 'uploadFile', args: file }`); `UNSUPPORTED` where `window.openai` lacks it. */
export async function callOpenAiExtra(host: unknown, name: unknown, args: unknown): Promise<unknown> {
  const bridge = bridgeOf(host)
  const fn = bridge && EXTRAS.includes(name as OpenAiExtra) ? (bridge[name as OpenAiExtra] as Fn | undefined) : undefined
  if (typeof fn !== 'function')
    throw new DuetError('UNSUPPORTED', `window.openai.${String(name)} is not available in this host`, { method: `openai/${String(name)}` })
  return (fn as (a: unknown) => unknown).call(bridge, args)
}
