import type { Tool } from '@modelcontextprotocol/client'
import { rpc, type ServerView } from './api.js'
import { h, pretty } from './dom.js'

/** Lets a person play the agent on a channel: read app→agent messages as they arrive, answer with `notify_ui`. */
export function agentPanel(servers: () => ServerView[], preferred: () => string | undefined): { element: HTMLElement; setChannel(id: string): void } {
  const channel = h('input', { placeholder: 'channel id', 'data-testid': 'agent-channel', size: '28' })
  const listen = h('input', { type: 'checkbox', 'data-testid': 'agent-listen' })
  const inbox = h('div', { 'data-testid': 'agent-inbox' })
  const event = h('input', { placeholder: 'event', value: 'answer', 'data-testid': 'agent-event', size: '10' })
  const data = h('textarea', { rows: '3', placeholder: 'data (JSON)', 'data-testid': 'agent-data' })
  const send = h('button', { type: 'button', 'data-testid': 'agent-send' }, 'Send notify_ui')
  const status = h('div', { class: 'status', 'data-testid': 'agent-status' })
  const pollStatus = h('div', { class: 'status error', 'data-testid': 'agent-poll-status' })

  // The server with the channel tools, preferring the one whose app is on screen.
  const target = (): { server: ServerView; arg: (t: string) => string } | null => {
    const withTools = servers().filter((s) => s.tools.some((t) => t.name === 'poll_agent_messages'))
    const server = withTools.find((s) => s.id === preferred()) ?? withTools[0]
    if (!server) return null
    const arg = (toolName: string) => channelArg(server.tools.find((t) => t.name === toolName))
    return { server, arg }
  }

  let polling = false
  const poll = async () => {
    const t = target()
    if (!t || !channel.value.trim() || polling) return
    polling = true
    try {
      const result = await rpc<{ structuredContent?: { messages?: unknown[] }; content?: { type: string; text?: string }[]; isError?: boolean }>(
        t.server.id,
        'tools/call',
        { name: 'poll_agent_messages', arguments: { [t.arg('poll_agent_messages')]: channel.value.trim() } },
        'user',
      )
      pollStatus.textContent = result.isError ? `poll failed: ${result.content?.map((c) => c.text).join(' ')}` : ''
      for (const m of messagesOf(result)) inbox.append(h('div', { class: 'entry' }, h('pre', {}, pretty(m))))
    } catch (err) {
      pollStatus.textContent = `poll failed: ${(err as Error).message}`
    } finally {
      polling = false
    }
  }
  setInterval(() => {
    if (listen.checked) void poll()
  }, 1000)

  send.addEventListener('click', async () => {
    const t = target()
    if (!t) {
      status.textContent = 'no connected server has the channel tools (notify_ui, poll_agent_messages)'
      return
    }
    let payload: unknown
    try {
      payload = data.value.trim() ? JSON.parse(data.value) : undefined
    } catch {
      status.textContent = 'data is not valid JSON'
      return
    }
    try {
      const result = await rpc<{ isError?: boolean; content?: { text?: string }[] }>(
        t.server.id,
        'tools/call',
        {
          name: 'notify_ui',
          arguments: { [t.arg('notify_ui')]: channel.value.trim(), event: event.value.trim(), ...(payload === undefined ? {} : { data: payload }) },
        },
        'user',
      )
      status.textContent = result.isError ? `notify_ui failed: ${result.content?.map((c) => c.text).join(' ')}` : `sent ${event.value}`
    } catch (err) {
      status.textContent = `notify_ui failed: ${(err as Error).message}`
    }
  })

  const element = h(
    'details',
    { open: true },
    h('summary', {}, 'Agent (channel)'),
    h('div', {}, channel, ' ', h('label', {}, listen, 'listen')),
    pollStatus,
    inbox,
    h('div', {}, event, ' ', send),
    data,
    status,
  )
  return {
    element,
    setChannel(id) {
      if (!channel.value) channel.value = id
      listen.checked = true
    },
  }
}

function channelArg(tool: Tool | undefined): string {
  const props = (tool?.inputSchema as { properties?: Record<string, unknown> } | undefined)?.properties ?? {}
  return 'channel_id' in props ? 'channel_id' : 'channel' in props ? 'channel' : 'channel_id'
}

// Accepts both shapes a channel server may answer with: structured `messages`, or a JSON array as text.
function messagesOf(result: { structuredContent?: { messages?: unknown[] }; content?: { type: string; text?: string }[] }): unknown[] {
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
