import { createStream, type Stream } from '../runtime/stream.js'
import { DuetError } from '../protocol/errors.js'
import { isObject, type JsonObject } from './json-rpc.js'
import type { McpFeature } from './feature.js'
import { toolErrorText } from './sinks.js'
import { CHANNEL_META_KEY, isChannelId } from '../protocol/channel.js'

export { CHANNEL_META_KEY, isChannelId }

/** One message the agent sent the view with `notify_ui`, as `MCP.select('agent-message')` emits it. */
export interface AgentMessage {
  id: string
  event: string
  data: unknown
}

/** What `{ notifyAgent }` carries: an event name the agent switches on and any JSON `data`. */
export interface AgentNotification {
  event: string
  data?: unknown
}

/** How long one `poll_ui_messages` waits server-side; well under the host's and the driver's timeouts. */
export const POLL_WAIT_MS = 25_000
const BACKOFF_FIRST_MS = 250
const BACKOFF_MAX_MS = 30_000
// A closed or unknown channel will never deliver again, so polling it further is wasted traffic.
const FATAL = /^(CHANNEL_CLOSED|BAD_CHANNEL_ID)\b/

/** The channel id a display tool's result names, if any: `structuredContent.channel_id`, else `_meta`. */
export function channelOfResult(result: { structuredContent?: unknown; _meta?: unknown }): string | undefined {
  const structured = isObject(result.structuredContent) ? result.structuredContent.channel_id : undefined
  if (isChannelId(structured)) return structured
  const meta = isObject(result._meta) ? result._meta[CHANNEL_META_KEY] : undefined
  return isChannelId(meta) ? meta : undefined
}

/** What the driver hands an agent channel factory: its host link and timing. */
export interface ChannelLinkOptions {
  /** False when the view has no host: `notify` then fails at once instead of waiting for a channel. */
  hasHost?: boolean
  /** Calls a server tool through the host and resolves with its result (an `isError` result resolves too). */
  callTool(name: string, args: JsonObject): Promise<JsonObject>
  /** How long a request may take before the driver gives up on it; `notify` waits this long for a channel, and polls stay well inside it. */
  timeoutMs: number
}

/** The view's end of a Duet channel: `notify_agent` out, long-polled `poll_ui_messages` in. */
export interface ChannelLink {
  /** Sends one message to the agent once the channel is known; resolves with `notify_agent`'s structured result. */
  notify(message: unknown): Promise<JsonObject>
  /** The agent's messages, in order; polling runs while at least one listener is subscribed. */
  messages(): Stream<AgentMessage>
  /** Hands the link the view's tool result, which names the channel when none was given. */
  onToolResult(result: JsonObject): void
  /** Stops polling for good (teardown, dispose); pending `notify` calls fail. */
  stop(): void
}

/** Pass as `makeMcpAppDriver({ channel: agentChannel() })`; a view without it carries no channel code. */
export type AgentChannelFactory = (options: ChannelLinkOptions) => ChannelLink

const noChannel = (why: string) =>
  new DuetError(
    'NO_CHANNEL',
    `No Duet channel for this view: ${why}. Show it with a tool whose result carries channel_id, or pass makeMcpAppDriver({ channel: agentChannel('<channel id>') }).`,
  )
const gone = () => new DuetError('DISPOSED', 'The view was torn down or disposed; its channel is closed')

/**
 * The view's end of a Duet channel, for `makeMcpAppDriver({ channel: agentChannel() })`: it serves the
 * `notifyAgent` sink and `MCP.select('agent-message')`. Without `id` the channel is the one the view's
 * tool result names (`structuredContent.channel_id`, else `_meta['duet/channel_id']`), as Duet's
 * display tools and app tools return it; with `id` it is that channel from the start.
 *
 * @example run(App, { MCP: makeMcpAppDriver({ channel: agentChannel() }) })
 */
export function agentChannel(id?: string): AgentChannelFactory {
  if (id !== undefined && !isChannelId(id)) {
    throw new DuetError(
      'INVALID_OPTION',
      "agentChannel: id must be a channel id: 1-64 letters, digits, '-' or '_' (the channel_id a display tool returned), or omitted to take it from the tool result",
    )
  }
  return (options) => createChannelLink(id, options)
}

/**
 * Links the view to its channel. Messages are drained one long poll at a time, so they are emitted
 * in the order the agent sent them; a failed poll is retried after an exponential back-off.
 */
function createChannelLink(fixed: string | undefined, options: ChannelLinkOptions): ChannelLink {
  const pollWaitMs = Math.floor(Math.min(POLL_WAIT_MS, options.timeoutMs / 2))
  let channel = fixed
  let stopped = false
  // Settles once: with the id the tool result names, or with the reason there is none.
  let settle!: (id: string | Error) => void
  const known = new Promise<string>((resolve, reject) => {
    settle = (id) => (typeof id === 'string' ? resolve(id) : reject(id))
  })
  known.catch(() => {})
  if (channel) settle(channel)
  else if (options.hasHost === false)
    settle(new DuetError('NO_HOST', 'No MCP Apps host: the view is not inside a host iframe, so it has no channel to the agent'))
  const listeners = new Set<(message: AgentMessage) => void>()
  // Messages drained while every listener had just left; the next listener gets them first.
  const unheard: AgentMessage[] = []
  let polling = false
  let wake = () => {}
  // Acknowledged delivery: each poll passes the id of the last message it received, which removes it and
  // everything before it from the queue; a poll whose reply was lost is answered again with the same batch,
  // and ids at or below the cursor are dropped so no listener hears a message twice.
  let after = '0'

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms)
      wake = () => {
        clearTimeout(timer)
        resolve()
      }
    })

  function channelId(): Promise<string> {
    if (stopped) return Promise.reject(gone())
    if (channel || !Number.isFinite(options.timeoutMs)) return known
    let timer: ReturnType<typeof setTimeout> | undefined
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(noChannel(`no tool result arrived within ${options.timeoutMs} ms`)), options.timeoutMs)
    })
    return Promise.race([known, late]).finally(() => clearTimeout(timer))
  }

  async function poll() {
    if (polling || !channel) return
    polling = true
    let delay = 0
    const backOff = () => sleep((delay = Math.min(Math.max(BACKOFF_FIRST_MS, delay * 2), BACKOFF_MAX_MS)))
    try {
      while (!stopped && listeners.size > 0) {
        let result: JsonObject
        try {
          result = await options.callTool('poll_ui_messages', { channel_id: channel, wait_ms: pollWaitMs, after })
        } catch (err) {
          // No host, or the driver is gone: nothing to retry against.
          if (stopped || (err instanceof DuetError && (err.code === 'NO_HOST' || err.code === 'DISPOSED'))) return
          await backOff()
          continue
        }
        if (stopped) return
        if (result.isError === true) {
          const text = toolErrorText(result)
          if (FATAL.test(text)) return console.warn(`[duetkit/mcp] stopped listening on channel ${channel}: ${text}`)
          await backOff()
          continue
        }
        delay = 0
        const list = isObject(result.structuredContent) && Array.isArray(result.structuredContent.messages) ? result.structuredContent.messages : []
        for (const m of list) {
          if (!isObject(m) || typeof m.event !== 'string') continue
          const id = String(m.id ?? '')
          if (/^\d+$/.test(id)) {
            if (Number(id) <= Number(after)) continue
            after = id
          }
          const message: AgentMessage = { id, event: m.event, data: m.data ?? null }
          if (listeners.size === 0) unheard.push(message)
          else for (const listener of [...listeners]) listener(message)
        }
      }
    } finally {
      polling = false
    }
  }

  return {
    async notify(message) {
      if (!isObject(message) || typeof message.event !== 'string' || message.event === '') {
        throw new DuetError('INVALID_SINK', 'MCP sink: notifyAgent must be { event: non-empty string, data?: JSON }')
      }
      const args: JsonObject = { channel_id: await channelId(), event: message.event }
      if (message.data !== undefined) args.data = message.data
      const result = await options.callTool('notify_agent', args)
      if (result.isError === true) throw new DuetError('TOOL_FAILED', `notify_agent failed: ${toolErrorText(result)}`, { result })
      return isObject(result.structuredContent) ? result.structuredContent : {}
    },
    messages() {
      let listener: ((message: AgentMessage) => void) | undefined
      return createStream<AgentMessage>({
        start(out) {
          if (stopped) return out.complete()
          listener = (message) => out.next(message)
          listeners.add(listener)
          for (const message of unheard.splice(0)) out.next(message)
          void poll()
        },
        stop() {
          if (listener) listeners.delete(listener)
        },
      })
    },
    onToolResult(result) {
      if (channel) return
      channel = channelOfResult(result)
      settle(channel ?? noChannel("the view's tool result named no channel_id"))
      if (channel && listeners.size > 0) void poll()
    },
    stop() {
      stopped = true
      listeners.clear()
      wake()
      settle(gone())
    },
  }
}

/**
 * The agent channel as a driver feature: the `notifyAgent` sink and the `agent-message` source over
 * `factory` (`agentChannel()`), stopped at teardown. `makeMcpAppDriver({ channel })` uses it; pass it to
 * `makeLeanMcpAppDriver` as `withAgentChannel(agentChannel())`.
 */
export function withAgentChannel(factory: AgentChannelFactory): McpFeature {
  return (ctx) => {
    const link = factory({ hasHost: ctx.hasHost, callTool: ctx.callTool, timeoutMs: ctx.timeoutMs })
    return {
      handlers: { notifyAgent: (value) => link.notify(value) },
      onToolResult: (result) => link.onToolResult(result),
      select: (name) => (name === 'agent-message' ? link.messages() : undefined),
      onTeardown: () => link.stop(),
      dispose: () => link.stop(),
    }
  }
}
