// `window.openai` (the OpenAI Apps SDK's widget bridge) presented as the MCP Apps host duetkit's driver
// already talks to. The server puts this script in the Apps SDK twin of each view (the
// `text/html+skybridge` page those hosts render), so a view carries none of it: only pages served to an
// Apps SDK host pay for the dialect. The script defines one global, `duetAppsSdkHost()`, which the
// driver calls when it starts; it answers undefined where `window.openai` is missing.
//
// The function below is sent as its own source text (`appsSdkAdapterScript`), so it must stand alone:
// nothing from outside its body but its arguments, nothing a compiler would add a helper for.
import { VIEW_STATE_TOOL } from './view-state.js'

/** The global the twin's script defines and the driver calls. */
export const APPS_SDK_HOST_GLOBAL = 'duetAppsSdkHost'

/** ChatGPT-only calls a view may make through the `{ openai: name, args }` sink, where `window.openai` has them. */
export type OpenAiExtra = 'uploadFile' | 'requestModal' | 'requestCheckout'

/** The part of `window.openai` the adapter reads and calls (OpenAI's Apps SDK reference). */
export interface OpenAiBridge {
  toolInput?: Record<string, unknown>
  toolOutput?: Record<string, unknown> | null
  toolResponseMetadata?: Record<string, unknown> | null
  widgetState?: Record<string, unknown> | null
  theme?: 'light' | 'dark'
  locale?: string
  displayMode?: 'inline' | 'pip' | 'fullscreen'
  maxHeight?: number
  callTool?(name: string, args: Record<string, unknown>): Promise<unknown>
  sendFollowUpMessage?(args: { prompt: string }): Promise<void>
  openExternal?(args: { href: string }): void
  requestDisplayMode?(args: { mode: string }): Promise<{ mode?: string } | undefined>
  setWidgetState?(state: Record<string, unknown>): Promise<void> | void
  notifyIntrinsicHeight?(height: number): void
  uploadFile?(file: unknown): Promise<unknown>
  requestModal?(args: Record<string, unknown>): Promise<unknown>
  requestCheckout?(session: Record<string, unknown>): Promise<unknown>
}

/**
 * What `duetAppsSdkHost()` returns: a host window the driver posts JSON-RPC to and hears from, plus
 * `openai(name, args)` for the ChatGPT-only extras (their arguments, a `File` for one, cannot be framed
 * as JSON).
 */
export interface AppsSdkHost {
  postMessage(message: unknown, targetOrigin: string): void
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void
  removeEventListener(type: 'message', listener: (event: MessageEvent) => void): void
  openai(name: OpenAiExtra, args: unknown): Promise<unknown>
}

type Json = Record<string, unknown>
type Listener = (event: { data: Json; source: unknown }) => void
interface AdapterWindow {
  openai?: OpenAiBridge
  addEventListener(type: string, listener: () => void): void
  removeEventListener(type: string, listener: () => void): void
}

/**
 * Defines `win[hostGlobal]()`. `viewStateTool` is the tool `App.persist` keeps its state through
 * (view-state.ts), which the adapter answers from the host's widget state instead.
 */
function installAppsSdkHost(win: AdapterWindow & Record<string, unknown>, hostGlobal: string, viewStateTool: string): void {
  // The extras the adapter passes on.
  const EXTRAS = ['uploadFile', 'requestModal', 'requestCheckout'] as const
  const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)

  win[hostGlobal] = (): AppsSdkHost | undefined => {
    if (!isObject(win.openai)) return undefined
    const bridge: OpenAiBridge = win.openai
    const listeners = new Set<Listener>()
    const emit = (data: Json) =>
      queueMicrotask(() => {
        for (const l of listeners) l({ data: { jsonrpc: '2.0', ...data }, source: host })
      })
    const has = (name: keyof OpenAiBridge) => typeof bridge[name] === 'function'
    const context = (): Json => ({
      theme: bridge.theme,
      locale: bridge.locale,
      displayMode: bridge.displayMode,
      ...(has('requestDisplayMode') && { availableDisplayModes: ['inline', 'fullscreen', 'pip'] }),
      ...(typeof bridge.maxHeight === 'number' && { containerDimensions: { maxHeight: bridge.maxHeight } }),
    })
    let seen: Json = {}
    let calls: Promise<unknown> = Promise.resolve()
    // Tool input, result and context, each told again only when `openai:set_globals` changed it.
    const tell = () => {
      const now: Json = { input: bridge.toolInput, output: [bridge.toolOutput, bridge.toolResponseMetadata], context: context() }
      const changed = (k: string) => JSON.stringify(now[k]) !== JSON.stringify(seen[k])
      if (bridge.toolInput && changed('input')) emit({ method: 'ui/notifications/tool-input', params: { arguments: bridge.toolInput } })
      if ((bridge.toolOutput || bridge.toolResponseMetadata) && changed('output'))
        emit({
          method: 'ui/notifications/tool-result',
          params: { content: [], structuredContent: bridge.toolOutput ?? undefined, _meta: bridge.toolResponseMetadata ?? undefined },
        })
      if (seen.context && changed('context')) emit({ method: 'ui/notifications/host-context-changed', params: now.context })
      seen = now
    }

    // `callTool` answers with the tool's result (MCPJam, current ChatGPT) or, in OpenAI's older typings, `{ result: string }`.
    const asToolResult = (answer: unknown): Json => {
      if (isObject(answer) && ('content' in answer || 'structuredContent' in answer || 'isError' in answer)) return { content: [], ...answer }
      return { content: [{ type: 'text', text: String((answer as { result?: unknown } | undefined)?.result ?? '') }] }
    }

    // `App.persist` state, kept in the host's widget state under the view instance's id.
    const widgetState = (args: Json): Json => {
      const kept = isObject(bridge.widgetState?.duet) ? bridge.widgetState.duet : {}
      if (args.op === 'put') void bridge.setWidgetState?.({ ...bridge.widgetState, duet: { id: args.viewUUID, state: args.state } })
      return { content: [], structuredContent: { state: args.op === 'get' && kept.id === args.viewUUID ? kept.state : null } }
    }

    const answer = async (method: string, p: Json): Promise<unknown> => {
      switch (method) {
        case 'ui/initialize': {
          const caps: Json = { openai: Object.fromEntries(EXTRAS.filter(has).map((n) => [n, {}])) }
          if (has('callTool')) caps.serverTools = {}
          if (has('sendFollowUpMessage')) caps.message = {}
          if (has('openExternal')) caps.openLinks = {}
          return { protocolVersion: p.protocolVersion, hostInfo: { name: 'openai' }, hostCapabilities: caps, hostContext: context() }
        }
        case 'tools/call': {
          if (p.name === viewStateTool) return widgetState(p.arguments as Json)
          let args = p.arguments as Json
          // Some Apps SDK hosts run one widget tool call at a time (MCPJam answers a second one 409), so a
          // channel's long poll would hold every other call: here it is a short poll, once a second.
          if (p.name === 'poll_ui_messages') {
            await new Promise((r) => setTimeout(r, 1000))
            args = { ...args, wait_ms: 0 }
          }
          // One call at a time from this view, for the same reason. MCPJam Inspector 1.0 runs one tool call
          // at a time for its whole page, so a call may still meet another view's or the Inspector's own:
          // it refuses it ("Another execution is already in progress", HTTP 409) without running it, so the
          // call is tried again shortly, for up to ten seconds. Any other failure is the call's answer.
          const run = async () => {
            for (let tries = 1; ; tries++) {
              try {
                return await bridge.callTool!(p.name as string, args)
              } catch (err) {
                if (tries >= 40 || !/already in progress/i.test(String((err as Error | undefined)?.message))) throw err
                await new Promise((r) => setTimeout(r, 250))
              }
            }
          }
          const call = calls.then(run)
          calls = call.catch(() => {})
          return asToolResult(await call)
        }
        case 'ui/message': {
          // Only duetkit's driver posts here, and its message sink always sends content blocks.
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
      // -32601, Method not found; the driver names the method in what it reports.
      throw Object.assign(new Error('Method not found'), { code: -32601 })
    }

    const host: AppsSdkHost = {
      postMessage(message) {
        const m = message as { id?: number; method?: string; params?: Json }
        if (m.id === undefined) {
          if (m.method === 'ui/notifications/initialized') {
            win.addEventListener('openai:set_globals', tell)
            // A task later, as a host's first notifications come: the driver has read the handshake's answer by then.
            setTimeout(tell)
          } else if (m.method === 'ui/notifications/size-changed' && typeof m.params?.height === 'number') bridge.notifyIntrinsicHeight?.(m.params.height)
          return
        }
        answer(m.method!, m.params ?? {}).then(
          (r) => emit({ id: m.id, result: r }),
          (err: Error & { code?: number }) => emit({ id: m.id, error: { code: err.code ?? -32603, message: err.message } }),
        )
      },
      addEventListener: (_type, l) => void listeners.add(l as Listener),
      removeEventListener(_type, l) {
        listeners.delete(l as Listener)
        win.removeEventListener('openai:set_globals', tell)
      },
      // The driver checks the capability the handshake listed before it calls.
      openai: async (name, args) => (bridge[name] as (a: unknown) => Promise<unknown>).call(bridge, args),
    }
    return host
  }
}

/**
 * The twin's script: defines `duetAppsSdkHost()` on the page. The server puts it in the head of every
 * Apps SDK twin; a plain `<script>`, so it has run before the view's module script starts the driver.
 */
export function appsSdkAdapterScript(): string {
  return `(${installAppsSdkHost.toString()})(window, ${JSON.stringify(APPS_SDK_HOST_GLOBAL)}, ${JSON.stringify(VIEW_STATE_TOOL)});`
}
