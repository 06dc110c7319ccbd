import type { CallToolResult } from '@modelcontextprotocol/server'
import * as z from 'zod'
import type { AppServer, ToolExtra } from '../server/app-server.js'
import { invalidOption } from '../server/errors.js'
import { guarded } from '../server/tool-error.js'
import type { ChannelMessage, ChannelStore } from './store.js'

/** Anything tools can be registered on: an `AppServer`, or a wrapper with the same `tool` method. */
export type ChannelToolHost = Pick<AppServer, 'tool'>

/** Longest wait a model poll may ask for; hosts time tool calls out, and progress keeps long ones alive. */
const MAX_AGENT_WAIT_SECONDS = 600
/** Longest app poll: an iframe's call goes through the host, which may time it out sooner than the model's. */
const MAX_APP_WAIT_MS = 30_000
const PROGRESS_EVERY_MS = 5_000

const channelId = z
  .string()
  .describe("The channel id baked into the view: one from open_channel, or 1-64 letters, digits, '-' or '_' (e.g. 'ch-1749312345678').")
const event = z.string().describe("A short event name the receiver switches on, e.g. 'answer', 'ask', 'ready'.")
const data = z.unknown().optional().describe('Any JSON value (object, array, string, number, boolean or null), up to 1 MiB once encoded.')

const CHANNEL_HELP = 'A channel is two queues between you (the agent) and one app view, shared by every copy of this server. '

/**
 * Registers the channel tools on `app`: for the model `open_channel`, `notify_ui`, `poll_agent_messages`
 * and `close_channel`; for the server's own views only (`visibility: ['app']`) `notify_agent` and
 * `poll_ui_messages`.
 */
export function registerChannelTools(app: ChannelToolHost, store: ChannelStore): void {
  if (!app || typeof app.tool !== 'function') invalidOption('registerChannelTools', 'app', 'must be an AppServer (from createAppServer)')
  if (!store || typeof store.send !== 'function') invalidOption('registerChannelTools', 'store', 'must be a ChannelStore (from openChannelStore)')

  app.tool(
    'open_channel',
    {
      description:
        CHANNEL_HELP +
        'Creates a channel with an unguessable id. Write the id into the view you render (e.g. `const CHANNEL = "<id>"`), ' +
        'then talk to the view with notify_ui and read its messages with poll_agent_messages.',
      inputSchema: {},
      annotations: { readOnlyHint: false, idempotentHint: false },
    },
    () =>
      guarded(async () => {
        const id = await store.open()
        return result({ channel_id: id })
      }),
  )

  app.tool(
    'notify_ui',
    {
      description:
        CHANNEL_HELP +
        'Sends one message to the app view on channel_id; the view receives it on its next poll (typically within a second). ' +
        'Returns the stored message id. Messages arrive in the order you send them.',
      inputSchema: { channel_id: channelId, event, data },
      annotations: { readOnlyHint: false, idempotentHint: false },
    },
    (args: { channel_id: string; event: string; data?: unknown }) =>
      guarded(async () => {
        const id = await store.send(args.channel_id, 'agent-to-app', { event: args.event, data: args.data })
        return result({ id })
      }),
  )

  app.tool(
    'poll_agent_messages',
    {
      description:
        CHANNEL_HELP +
        'Returns and removes the messages the app view sent you on channel_id, oldest first (at most 100 per call; call again while you get 100). ' +
        'Each message is handed out once, so act on all of them. ' +
        `With wait_seconds (0-${MAX_AGENT_WAIT_SECONDS}) it waits for the first message instead of returning an empty list, which lets you stay in your turn while the user works in the app. ` +
        'To wait without holding your turn, run `duet wait <channel_id>` as a background command: it exits as soon as a message is waiting (it reads nothing), then call this tool.',
      inputSchema: {
        channel_id: channelId,
        wait_seconds: z
          .number()
          .min(0)
          .max(MAX_AGENT_WAIT_SECONDS)
          .optional()
          .describe(`Seconds to wait for a message when none is waiting (default 0, at most ${MAX_AGENT_WAIT_SECONDS}).`),
      },
      annotations: { readOnlyHint: false, idempotentHint: false },
    },
    (args: { channel_id: string; wait_seconds?: number }, extra: ToolExtra) =>
      guarded(async () => {
        const waitMs = (args.wait_seconds ?? 0) * 1000
        const stopProgress = reportProgress(extra, waitMs)
        try {
          return messagesResult(await store.drain(args.channel_id, 'app-to-agent', { waitMs, signal: extra?.mcpReq?.signal }))
        } finally {
          stopProgress()
        }
      }),
  )

  app.tool(
    'close_channel',
    {
      description:
        CHANNEL_HELP +
        'Closes channel_id for good when the conversation with the view is over: unread messages are dropped and later calls on it fail. ' +
        'Idle channels also expire by themselves after a day.',
      inputSchema: { channel_id: channelId },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
    },
    (args: { channel_id: string }) =>
      guarded(async () => {
        await store.close(args.channel_id)
        return result({ closed: args.channel_id })
      }),
  )

  app.tool(
    'notify_agent',
    {
      description: 'For the app view: sends one message to the agent on channel_id. Returns the stored message id.',
      inputSchema: { channel_id: channelId, event, data },
      visibility: ['app'],
    },
    (args: { channel_id: string; event: string; data?: unknown }) =>
      guarded(async () => {
        const id = await store.send(args.channel_id, 'app-to-agent', { event: args.event, data: args.data })
        return result({ id })
      }),
  )

  app.tool(
    'poll_ui_messages',
    {
      description:
        'For the app view: returns and removes the messages the agent sent on channel_id, oldest first. ' +
        `With wait_ms (0-${MAX_APP_WAIT_MS}) it long-polls: it returns as soon as a message arrives.`,
      inputSchema: {
        channel_id: channelId,
        wait_ms: z.number().min(0).max(MAX_APP_WAIT_MS).optional().describe(`Milliseconds to wait for a message (default 0, at most ${MAX_APP_WAIT_MS}).`),
      },
      visibility: ['app'],
    },
    (args: { channel_id: string; wait_ms?: number }, extra: ToolExtra) =>
      guarded(async () => messagesResult(await store.drain(args.channel_id, 'agent-to-app', { waitMs: args.wait_ms ?? 0, signal: extra?.mcpReq?.signal }))),
  )
}

function result(value: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value }
}

function messagesResult(messages: ChannelMessage[]): CallToolResult {
  return result({ messages })
}

/**
 * While a poll waits, tells the client it is alive (when the request carries a progress token), so hosts
 * that reset their timeout on progress do not give up on a long wait.
 */
function reportProgress(extra: ToolExtra | undefined, waitMs: number): () => void {
  const token = extra?.mcpReq?._meta?.progressToken
  if (token === undefined || waitMs <= 0) return () => {}
  const started = Date.now()
  const timer = setInterval(() => {
    const elapsed = Date.now() - started
    extra!.mcpReq
      .notify({
        method: 'notifications/progress',
        params: {
          progressToken: token,
          progress: Math.round(elapsed / 1000),
          total: Math.round(waitMs / 1000),
          message: 'Waiting for the app to send a message',
        },
      })
      .catch(() => {})
  }, PROGRESS_EVERY_MS)
  return () => clearInterval(timer)
}
