import type { McpUiHostContext } from '@modelcontextprotocol/ext-apps/app-bridge'
import type { Tool } from '@modelcontextprotocol/client'
import { run } from 'duetkit'
import type { ChatEvent } from '../../model/chat-events.js'
import type { HostPreset } from '../../presets.js'
import type { ServerView } from '../api.js'
import { mountApp, type FrameHooks } from '../app-frame.js'
import { readView } from '../read-view.js'
import { makeChatDriver, type MountedView, type ViewCall } from './chat-driver.js'
import { ChatPanel } from './ChatPanel.js'
import { initialChatState } from './chat-state.js'

const INIT_TIMEOUT_MS = 15_000

/** What the chat needs from the rest of the page. */
export interface ChatPageOptions {
  container: HTMLElement
  model: string
  sandboxPort: number
  servers(): ServerView[]
  preset(): HostPreset
  hostContext(tool?: Tool): McpUiHostContext
  onEvent(listener: (event: ChatEvent) => void): void
  /** The page's panels: the trace, the logs, and the messages and model context a view sends. */
  hooks: Pick<FrameHooks, 'trace' | 'log' | 'viewDiagnostic' | 'message' | 'modelContext'>
}

async function post(path: string, body: unknown): Promise<void> {
  const res = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  if (res.ok) return
  const answer = (await res.json().catch(() => ({}))) as { error?: { message?: string } }
  throw new Error(answer.error?.message ?? `HTTP ${res.status}`)
}

// A ui/message's text parts are the user's next turn; anything else is shown to the model as JSON.
function messageText(params: unknown): string {
  const content = (params as { content?: { type: string; text?: string }[] } | undefined)?.content ?? []
  const text = content
    .filter((c) => c.type === 'text')
    .map((c) => c.text ?? '')
    .join('\n')
  return text || JSON.stringify(content)
}

/** Runs the chat (a duetkit app) in `container`; its views render inline, each with the official AppBridge. */
export function mountChat(o: ChatPageOptions): void {
  const mountView = async (call: ViewCall, container: HTMLElement): Promise<MountedView> => {
    const { html, meta } = await readView(call.server, call.uri)
    const tool = o
      .servers()
      .find((s) => s.id === call.server)
      ?.tools.find((t) => t.name === call.tool)
    const from = { callId: call.callId, tool: call.tool }
    const report = (what: string) => (err: Error) => o.hooks.log(`chat: ${what} failed`, err.message)
    container.style.borderStyle = meta.prefersBorder === false ? 'none' : ''
    const app = await mountApp({
      container,
      sandboxUrl: `http://${location.hostname}:${o.sandboxPort}/sandbox.html`,
      server: call.server,
      html,
      csp: meta.csp,
      permissions: meta.permissions,
      preset: o.preset(),
      // A view in the transcript stays inline: full screen belongs to the stage below.
      hostContext: { ...o.hostContext(tool), displayMode: 'inline' },
      hooks: {
        trace: o.hooks.trace,
        log: o.hooks.log,
        viewDiagnostic: o.hooks.viewDiagnostic,
        message: (p) => {
          o.hooks.message(p)
          post('/api/chat', { text: messageText(p), from }).catch(report('ui/message'))
        },
        modelContext: (p) => {
          o.hooks.modelContext(p)
          post('/api/chat/context', { from, params: p }).catch(report('ui/update-model-context'))
        },
        displayMode: () => 'inline',
        teardownRequested: () => void app.destroy(),
      },
    })
    const started = await Promise.race([app.initialized.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), INIT_TIMEOUT_MS))])
    if (!started) {
      await app.destroy()
      throw new Error(
        `it did not send ui/notifications/initialized within ${INIT_TIMEOUT_MS / 1000} s${app.lastError ? `; its last error: ${app.lastError}` : ''}`,
      )
    }
    await app.bridge.sendToolInput({ arguments: call.input })
    return {
      result: (r) => void app.bridge.sendToolResult(r as Parameters<typeof app.bridge.sendToolResult>[0]).catch(report('tool result')),
      cancelled: (reason) => void app.bridge.sendToolCancelled({ reason }).catch(report('tool cancelled')),
      destroy: () => void app.destroy(),
    }
  }
  const CHAT = makeChatDriver({
    post: (path, body) => post(path, body),
    onEvent: o.onEvent,
    placeOf: (callId) => o.container.querySelector<HTMLElement>(`[data-view-call="${CSS.escape(callId)}"]`),
    mountView,
  })
  run(ChatPanel, { CHAT }, { mountPoint: o.container, initialState: { ...initialChatState, model: o.model } })
}
