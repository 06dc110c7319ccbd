import type { Tool } from '@modelcontextprotocol/client'
import { rpc, type ServerView } from './api.js'

type PollResult = { structuredContent?: { messages?: unknown[] }; content?: { type: string; text?: string }[]; isError?: boolean }

/** What the agent panel asks the page to do on a channel. */
export type AgentRequest =
  | { poll: { channel: string; taking: boolean; cursor: string }; ok: 'POLLED'; error: 'POLL_FAILED' }
  | { notify: { channel: string; event: string; data?: unknown }; ok: 'SENT'; error: 'SEND_FAILED' }

/** A poll's outcome: the messages read, or why nothing could be read (a tool error, no `since` to watch with). */
export interface Polled {
  channel: string
  taking: boolean
  messages: unknown[]
  problem?: string
}

/**
 * Carries out the agent panel's requests on the server with the channel tools, preferring the one whose
 * app is on screen. Watching reads with `poll_agent_messages({ since })`, which removes nothing, so a
 * real agent on the same server still gets every message; taking (playing the agent) uses `after`.
 */
export function agentRequests(servers: () => ServerView[], preferred: () => string | undefined) {
  const target = () => {
    const withTools = servers().filter((s) => s.tools.some((t) => t.name === 'poll_agent_messages'))
    const server = withTools.find((s) => s.id === preferred()) ?? withTools[0]
    if (!server) throw new Error('no connected server has the channel tools (notify_ui, poll_agent_messages)')
    return { server, tool: (name: string) => server.tools.find((t) => t.name === name) }
  }
  return async (request: AgentRequest): Promise<Polled | string> => {
    const t = target()
    if ('poll' in request) {
      const { channel, taking, cursor } = request.poll
      const tool = t.tool('poll_agent_messages')
      const props = argNames(tool)
      const args: Record<string, unknown> = { [channelArg(tool)]: channel }
      if (!taking) {
        // Without `since` the only way to read is to take, which would starve a real agent: wait for consent.
        if (!props.has('since'))
          return {
            channel,
            taking,
            messages: [],
            problem: `${t.server.label}'s poll_agent_messages cannot watch without taking messages (no \`since\`); tick "play the agent" to read them`,
          }
        args.since = cursor
      } else if (props.has('after')) args.after = cursor
      const result = await rpc<PollResult>(t.server.id, 'tools/call', { name: 'poll_agent_messages', arguments: args }, 'user')
      if (result.isError) return { channel, taking, messages: [], problem: `poll failed: ${result.content?.map((c) => c.text).join(' ')}` }
      return { channel, taking, messages: messagesOf(result) }
    }
    const { channel, event, data } = request.notify
    const result = await rpc<PollResult>(
      t.server.id,
      'tools/call',
      { name: 'notify_ui', arguments: { [channelArg(t.tool('notify_ui'))]: channel, event, ...(data === undefined ? {} : { data }) } },
      'user',
    )
    if (result.isError) throw new Error(`notify_ui failed: ${result.content?.map((c) => c.text).join(' ')}`)
    return `sent ${event}`
  }
}

function argNames(tool: Tool | undefined): Set<string> {
  return new Set(Object.keys((tool?.inputSchema as { properties?: Record<string, unknown> } | undefined)?.properties ?? {}))
}

function channelArg(tool: Tool | undefined): string {
  const props = argNames(tool)
  return props.has('channel_id') ? 'channel_id' : props.has('channel') ? 'channel' : 'channel_id'
}

// Accepts both shapes a channel server may answer with: structured `messages`, or a JSON array as text.
function messagesOf(result: PollResult): unknown[] {
  if (Array.isArray(result.structuredContent?.messages)) return result.structuredContent.messages
  for (const c of result.content ?? []) {
    if (c.type !== 'text' || !c.text) continue
    try {
      const parsed = JSON.parse(c.text)
      if (Array.isArray(parsed)) return parsed
      if (Array.isArray(parsed?.messages)) return parsed.messages
    } catch {
      /* plain text: not a message list */
    }
  }
  return []
}
