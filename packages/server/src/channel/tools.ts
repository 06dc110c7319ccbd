import type { CallToolResult } from '@modelcontextprotocol/server'
import * as z from 'zod'
import type { AppServer, ToolExtra } from '../server/app-server.js'
import { invalidOption } from '../server/errors.js'
import { guarded } from '../server/tool-error.js'
import type { ChannelStore, Direction, ReadOptions } from './store.js'
import { untouchedText } from './untouched-hint.js'
import { subjectOf } from '../server/subject.js'
import { addressOwner, scopeChannelStore } from './subject-scope.js'

/** Anything tools can be registered on: an `AppServer`, or a wrapper with the same `tool` method. */
export type ChannelToolHost = Pick<AppServer, 'tool'>

/** Longest wait the schema accepts from a model poll (older prompts ask for more than the cap). */
const MAX_AGENT_WAIT_SECONDS = 600
/**
 * Longest wait a model poll actually does: SDK clients time a request out after 60 s by default (progress
 * notifications reset that only where the host opts in), so a longer wait would end in a client error.
 */
const AGENT_WAIT_CAP_SECONDS = 50
/** Longest app poll: an iframe's call goes through the host, which may time it out sooner than the model's. */
const MAX_APP_WAIT_MS = 30_000
const PROGRESS_EVERY_MS = 5_000

const channelId = z
  .string()
  .describe("The channel id baked into the view: one from open_channel, or 1-64 letters, digits, '-' or '_' (e.g. 'ch-1749312345678').")
const event = z.string().describe("A short event name the receiver switches on, e.g. 'answer', 'ask', 'ready'.")
const data = z.unknown().optional().describe('Any JSON value (object, array, string, number, boolean or null), up to 1 MiB once encoded.')

const CHANNEL_HELP = 'A channel is two queues between you (the agent) and one app view, shared by every copy of this server. '

const since = z
  .string()
  .optional()
  .describe(
    'Watches without taking: returns only messages with an id above `since` ("0" for all waiting) and removes nothing, so another reader (the agent) still gets them. For onlookers such as the duet dev page; pass the last id you saw next time.',
  )

const after = z
  .string()
  .optional()
  .describe(
    'Acknowledges delivery: the id of the last message you received from this channel ("0" on the first call). Messages up to it are removed and only later ones returned, so a reply lost in transit is returned again by the next call. Leave it out and each returned batch is removed as it is returned.',
  )

/** Options of {@link registerChannelTools}. */
export interface ChannelToolsOptions {
  /**
   * Where the app last shown on a channel was shown again (load_app does that on a fresh channel), if it was:
   * notify_ui on the older channel then names the newer one (the display tools' `movedTo`).
   */
  movedTo?: (subject: string | undefined, channelId: string) => { channel_id: string; name: string } | undefined
}

/**
 * Registers the channel tools on `app`: for the model `open_channel`, `notify_ui`, `poll_agent_messages`
 * and `close_channel`; for the server's own views only (`visibility: ['app']`) `notify_agent` and
 * `poll_ui_messages`.
 */
export function registerChannelTools(app: ChannelToolHost, store: ChannelStore, options: ChannelToolsOptions = {}): void {
  if (!app || typeof app.tool !== 'function') invalidOption('registerChannelTools', 'app', 'must be an AppServer (from createAppServer)')
  if (!store || typeof store.send !== 'function') invalidOption('registerChannelTools', 'store', 'must be a ChannelStore (from openChannelStore)')
  if (options?.movedTo !== undefined && typeof options.movedTo !== 'function')
    invalidOption('registerChannelTools', 'movedTo', 'must be a function (subject, channelId) => { channel_id, name } | undefined')
  // Each call sees the store as its caller's subject does (the shared space without auth): see subject-scope.ts.
  // Quotas are charged to the subject, or without auth to the client address (see addressOwner).
  const own = (extra: ToolExtra | undefined) => scopeChannelStore(store, subjectOf(extra), addressOwner())

  app.tool(
    'open_channel',
    {
      description:
        CHANNEL_HELP +
        'Creates a channel with an unguessable id. The view must know the id: build it into the code of a view you write ' +
        '(e.g. `const CHANNEL = "<id>"`); display tools that support channels open one themselves and return its channel_id. ' +
        'Then talk to the view with notify_ui and read its messages with poll_agent_messages.',
      inputSchema: {},
      annotations: { readOnlyHint: false, idempotentHint: false },
    },
    (_args: Record<string, never>, extra: ToolExtra) =>
      guarded(async () => {
        const id = await own(extra).open()
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
    (args: { channel_id: string; event: string; data?: unknown }, extra: ToolExtra) =>
      guarded(async () => {
        const channels = own(extra)
        const id = await channels.send(args.channel_id, 'agent-to-app', { event: args.event, data: args.data })
        const moved = options?.movedTo?.(subjectOf(extra), args.channel_id)
        if (moved) return result({ id, moved_to: moved.channel_id, hint: movedText(args.channel_id, moved) })
        return result({ id, ...(await untouchedHint(channels, args.channel_id)) })
      }),
  )

  app.tool(
    'poll_agent_messages',
    {
      description:
        CHANNEL_HELP +
        'Returns the messages the app view sent you on channel_id, oldest first (at most 100 per call; call again while you get 100). ' +
        'Without `after`, each batch is removed as it is returned (act on all of them). With `after` = the id of the last message you received ' +
        '("0" the first time), messages up to it are acknowledged and a batch whose reply was lost comes again: de-duplicate by message id. ' +
        'With `since` (and no `after`) it only watches: it returns the messages with id > since and removes nothing. ' +
        `With wait_seconds it waits for the first message instead of returning an empty list (use at most ${AGENT_WAIT_CAP_SECONDS}; longer waits are cut to ${AGENT_WAIT_CAP_SECONDS} s because clients time requests out after 60 s), which lets you stay in your turn while the user works in the app. ` +
        'To wait without holding your turn, run `duet wait <channel_id>` as a background command: it exits as soon as a message is waiting (it reads nothing), then call this tool.',
      inputSchema: {
        channel_id: channelId,
        wait_seconds: z
          .number()
          .min(0)
          .max(MAX_AGENT_WAIT_SECONDS)
          .optional()
          .describe(
            `Seconds to wait for a message when none is waiting (default 0; waits longer than ${AGENT_WAIT_CAP_SECONDS} are cut to ${AGENT_WAIT_CAP_SECONDS}).`,
          ),
        after,
        since,
      },
      annotations: { readOnlyHint: false, idempotentHint: false },
    },
    (args: { channel_id: string; wait_seconds?: number; after?: string; since?: string }, extra: ToolExtra) =>
      guarded(async () => {
        const waitMs = Math.min(args.wait_seconds ?? 0, AGENT_WAIT_CAP_SECONDS) * 1000
        const stopProgress = reportProgress(extra, waitMs)
        try {
          const channels = own(extra)
          const polled = await deliver(channels, args.channel_id, 'app-to-agent', {
            waitMs,
            signal: extra?.mcpReq?.signal,
            after: args.after,
            since: args.since,
          })
          return withHint(polled, await untouchedHint(channels, args.channel_id, polled))
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
    (args: { channel_id: string }, extra: ToolExtra) =>
      guarded(async () => {
        await own(extra).close(args.channel_id)
        return result({ closed: args.channel_id })
      }),
  )

  app.tool(
    'notify_agent',
    {
      description:
        'App-only (the app view calls it through the host; the model does not): sends one message to the agent on channel_id. Returns the stored message id.',
      inputSchema: { channel_id: channelId, event, data },
      visibility: ['app'],
    },
    (args: { channel_id: string; event: string; data?: unknown }, extra: ToolExtra) =>
      guarded(async () => {
        const id = await own(extra).send(args.channel_id, 'app-to-agent', { event: args.event, data: args.data })
        return result({ id })
      }),
  )

  app.tool(
    'poll_ui_messages',
    {
      description:
        'App-only (the app view calls it through the host; the model does not): returns the messages the agent sent on channel_id, oldest first; `after` acknowledges up to that id (see poll_agent_messages). ' +
        `With wait_ms (0-${MAX_APP_WAIT_MS}) it long-polls: it returns as soon as a message arrives.`,
      inputSchema: {
        channel_id: channelId,
        after,
        wait_ms: z.number().min(0).max(MAX_APP_WAIT_MS).optional().describe(`Milliseconds to wait for a message (default 0, at most ${MAX_APP_WAIT_MS}).`),
      },
      visibility: ['app'],
    },
    (args: { channel_id: string; wait_ms?: number; after?: string }, extra: ToolExtra) =>
      guarded(() => deliver(own(extra), args.channel_id, 'agent-to-app', { waitMs: args.wait_ms ?? 0, signal: extra?.mcpReq?.signal, after: args.after })),
  )

  app.tool(
    'channel_stats',
    {
      description:
        "Reports your use of the channel store: its backend, your open channels and unread bytes against your quotas (limits), and how many of your stored messages could not be read (corrupt rows set aside so their neighbours were still delivered). Other users' use is not shown.",
      inputSchema: {},
      annotations: { readOnlyHint: true },
    },
    (_args: Record<string, never>, extra: ToolExtra) => guarded(async () => result({ ...(await own(extra).stats()) })),
  )
}

/**
 * One poll. Without `after` the batch is taken atomically (two pollers never share a message), and only once
 * its reply has been built: a batch that cannot be serialised stays queued and the call fails instead. With
 * `after`, nothing returned is removed until the next call acknowledges it.
 */
async function deliver(store: ChannelStore, id: string, direction: Direction, options: ReadOptions): Promise<CallToolResult> {
  // A watcher (`since` alone) reads and takes nothing: whoever really waits on the queue still gets every message.
  if (options.after === undefined && options.since !== undefined) {
    const messages = await store.read(id, direction, options)
    return result({ messages, next_since: messages.at(-1)?.id ?? options.since })
  }
  if (options.after !== undefined) {
    const messages = await store.read(id, direction, options)
    return result({ messages, next_after: messages.at(-1)?.id ?? options.after })
  }
  let built: CallToolResult | undefined
  const messages = await store.drain(id, direction, {
    ...options,
    accept: (batch) => {
      const last = batch[batch.length - 1].id
      built = result({
        messages: batch,
        note: `These messages are now removed from the queue. To have a batch sent again when a reply is lost, pass after: "${last}" (the last id you received) on your next call.`,
      })
    },
  })
  return built ?? result({ messages })
}

/**
 * For an agent-side call on a channel no app has used and no display or open_channel minted (often a typo in
 * an id the agent picked), a `hint` saying so; nothing otherwise. A poll that returned messages needs no check.
 */
export async function untouchedHint(store: ChannelStore, id: string, polled?: CallToolResult): Promise<{ hint?: string }> {
  const messages = (polled?.structuredContent as { messages?: unknown[] } | undefined)?.messages
  if (messages && messages.length > 0) return {}
  if (await store.appSeen(id)) return {}
  return { hint: untouchedText(id) }
}

/** notify_ui's answer on a channel whose app load_app showed again elsewhere: the user most likely uses the new copy. */
function movedText(id: string, moved: { channel_id: string; name: string }): string {
  return (
    `Delivered on '${id}', but only the older copy of this app listens there: load_app('${moved.name}') showed it again on channel ${moved.channel_id}, ` +
    `which is the copy the user most likely has in front of them. Send there instead: notify_ui({ "channel_id": "${moved.channel_id}", ... }), and poll that channel.`
  )
}

function withHint(polled: CallToolResult, hint: { hint?: string }): CallToolResult {
  if (hint.hint === undefined) return polled
  return result({ ...(polled.structuredContent as Record<string, unknown>), ...hint })
}

function result(value: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value }
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
