import type { AgentMessage, McpSourceName, McpSourceTypes } from 'duetkit/mcp'
import { DuetError, type LogLevel } from 'duetkit/protocol'
import type { SharedDriver } from './shared-driver.js'
import { agentOnlyMessage, isAgentOnly, isConfined, withViewChannel } from './view-calls.js'

/** How long a data call waits for the tool result to name the render's channel. */
const CHANNEL_WAIT_MS = 10_000

type Theme = 'light' | 'dark'
type Unsubscribe = () => void

/** A tool's result as `duet.callTool` resolves it: the text for the model and the JSON object for the page. */
export interface ShellToolResult {
  content: unknown[]
  structuredContent?: Record<string, unknown>
}

/**
 * `window.duet`: what a fragment shown with `display_ui_to_user` may call. Every call goes through the
 * host to this server (no network, no SDK in the page); promises reject with an Error whose `code`
 * says why.
 */
export interface DuetShellApi {
  /** The render's channel, once the tool result has arrived (undefined before). */
  readonly channelId: string | undefined
  /** Resolves with the channel id as soon as it is known. */
  readonly ready: Promise<string>
  /** Calls a tool of this server (e.g. get_app_data); resolves with its result, rejects when it reports an error. */
  callTool(name: string, args?: Record<string, unknown>): Promise<ShellToolResult>
  /** Sends the agent `{ event, data }` on the render's channel; it reads it with poll_agent_messages. */
  notifyAgent(event: string, data?: unknown): Promise<{ id: string }>
  /** Calls `listener({ id, event, data })` for each message the agent sends with notify_ui, in order. */
  onAgentMessage(listener: (message: AgentMessage) => void): Unsubscribe
  /** Sets what the model sees of the app on the user's next turn: text, or a JSON object. */
  updateModelContext(value: string | Record<string, unknown>): Promise<void>
  /** Puts a message in the conversation as the user (hosts may ask the user first). */
  sendMessage(text: string): Promise<void>
  openLink(url: string): Promise<void>
  /** Writes to the server log, which the agent reads with tail_server_log. */
  log(level: LogLevel, message: string, data?: unknown): Promise<void>
  /** What the host said at the handshake: `{ hostInfo, hostCapabilities, protocolVersion }` (undefined before). */
  readonly host: Record<string, unknown> | undefined
  /** The host's theme, once known. */
  readonly theme: Theme | undefined
  /** The whole host context (theme, styles, displayMode, containerDimensions, locale, …). */
  readonly hostContext: Record<string, unknown>
  /** Calls `listener(theme, hostContext)` now (if known) and whenever the host context changes. */
  onTheme(listener: (theme: Theme | undefined, context: Record<string, unknown>) => void): Unsubscribe
  /** The arguments the display tool was called with. */
  readonly toolInput: Record<string, unknown> | undefined
}

/** Builds `window.duet` over the shared driver. `channel` resolves when the tool result names one. */
export function createShellApi(
  driver: SharedDriver,
  channel: { id(): string | undefined; ready: Promise<string>; onSendFailed?: (message: string, data: Record<string, unknown>) => void },
): DuetShellApi {
  let context: Record<string, unknown> = {}
  let input: Record<string, unknown> | undefined
  let host: Record<string, unknown> | undefined
  const keep = <N extends McpSourceName>(name: N, set: (v: McpSourceTypes[N]) => void) =>
    driver.source.select(name).addListener({ next: set, error: () => {}, complete: () => {} })
  keep('host-context-changed', (c) => {
    context = c
  })
  keep('tool-input', (i) => {
    input = i
  })
  keep('host', (h) => {
    host = h
  })
  const themeOf = (c: Record<string, unknown>): Theme | undefined => (c.theme === 'light' || c.theme === 'dark' ? c.theme : undefined)

  function subscribe<N extends McpSourceName>(name: N, listener: (value: McpSourceTypes[N]) => void): Unsubscribe {
    const stream = driver.source.select(name)
    const l = {
      next: (value: McpSourceTypes[N]) => {
        try {
          listener(value)
        } catch (err) {
          // One faulty listener must not silence the others; the page's error handler shows it.
          setTimeout(() => {
            throw err
          })
        }
      },
      error: () => {},
      complete: () => {},
    }
    stream.addListener(l)
    return () => stream.removeListener(l)
  }

  const checkText = (value: unknown, what: string) => {
    if (typeof value !== 'string' || value === '') throw new DuetError('INVALID_ARGUMENT', `duet.${what} must be a non-empty string`, { field: what })
  }

  return {
    get channelId() {
      return channel.id()
    },
    ready: channel.ready,
    async callTool(name, args = {}) {
      checkText(name, 'callTool(name)')
      if (isAgentOnly(name)) throw new DuetError('FORBIDDEN', agentOnlyMessage(name), { tool: name })
      // A data call waits for the channel (a script may run before the tool result names it); with none in time it
      // goes with an empty one, which the server refuses: a view's data call is never sent as the agent's.
      const id = isConfined(name) ? await Promise.race([channel.ready, new Promise<string>((r) => setTimeout(() => r(''), CHANNEL_WAIT_MS))]) : undefined
      return driver.request({ callTool: name, args: withViewChannel(name, args, id) as Record<string, unknown> }) as Promise<ShellToolResult>
    },
    async notifyAgent(event, data) {
      checkText(event, 'notifyAgent(event)')
      const sent = driver.request({ notifyAgent: data === undefined ? { event } : { event, data } }) as Promise<{ id: string }>
      // The page may catch this, but the agent should hear of it too.
      sent.catch((err: Error & { code?: string }) => channel.onSendFailed?.(`notifyAgent('${event}') failed: ${err.message}`, { event, code: err.code }))
      return sent
    },
    onAgentMessage(listener) {
      if (typeof listener !== 'function') throw new DuetError('INVALID_ARGUMENT', 'duet.onAgentMessage(listener) needs a function', { field: 'listener' })
      return subscribe('agent-message', listener)
    },
    async updateModelContext(value) {
      await driver.request({ updateModelContext: value })
    },
    async sendMessage(text) {
      checkText(text, 'sendMessage(text)')
      await driver.request({ message: text })
    },
    async openLink(url) {
      checkText(url, 'openLink(url)')
      await driver.request({ openLink: url })
    },
    async log(level, message, data) {
      await driver.request({ callTool: 'write_server_log', args: data === undefined ? { level, message } : { level, message, data } })
    },
    get host() {
      return host
    },
    get theme() {
      return themeOf(context)
    },
    get hostContext() {
      return context
    },
    onTheme(listener) {
      if (typeof listener !== 'function') throw new DuetError('INVALID_ARGUMENT', 'duet.onTheme(listener) needs a function', { field: 'listener' })
      return subscribe('host-context-changed', (c) => listener(themeOf(c), c))
    },
    get toolInput() {
      return input
    },
  }
}
