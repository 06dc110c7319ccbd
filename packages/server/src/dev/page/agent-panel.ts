import type { Tool } from '@modelcontextprotocol/client'
import { rpc, type ServerView } from './api.js'
import { h, pretty } from './dom.js'

type PollResult = { structuredContent?: { messages?: unknown[] }; content?: { type: string; text?: string }[]; isError?: boolean }

/**
 * The agent's side of a channel. By default it only watches: it reads app→agent messages with
 * `poll_agent_messages({ since })`, which removes nothing, so a real agent polling the same server still
 * gets every message. It takes them (plays the agent) only when the person ticks "play the agent".
 * It follows the newest channel a tool result names; `notify_ui` answers on the channel in the field.
 */
export function agentPanel(servers: () => ServerView[], preferred: () => string | undefined): { element: HTMLElement; setChannel(id: string): void } {
  const channel = h('input', { placeholder: 'channel id', 'data-testid': 'agent-channel', size: '28' })
  const watch = h('input', { type: 'checkbox', 'data-testid': 'agent-listen' })
  const consume = h('input', { type: 'checkbox', 'data-testid': 'agent-consume' })
  const clearButton = h('button', { type: 'button', 'data-testid': 'agent-clear' }, 'Clear')
  const inbox = h('div', { 'data-testid': 'agent-inbox' })
  const event = h('input', { placeholder: 'event', value: 'answer', 'data-testid': 'agent-event', size: '10' })
  const data = h('textarea', { rows: '3', placeholder: 'data (JSON)', class: 'code', 'data-testid': 'agent-data' })
  const send = h('button', { type: 'button', 'data-testid': 'agent-send' }, 'Send notify_ui')
  const status = h('div', { class: 'status', 'data-testid': 'agent-status' })
  const pollStatus = h('div', { class: 'status error', 'data-testid': 'agent-poll-status' })

  // Per channel, the last message id seen: the watcher's `since`, or the acknowledgement cursor when playing the agent.
  const cursors = new Map<string, string>()
  const seen = new Set<string>()

  // The server with the channel tools, preferring the one whose app is on screen.
  const target = (): { server: ServerView; tool: (name: string) => Tool | undefined } | null => {
    const withTools = servers().filter((s) => s.tools.some((t) => t.name === 'poll_agent_messages'))
    const server = withTools.find((s) => s.id === preferred()) ?? withTools[0]
    if (!server) return null
    return { server, tool: (name) => server.tools.find((t) => t.name === name) }
  }

  let polling = false
  const poll = async () => {
    const t = target()
    const id = channel.value.trim()
    if (!t || !id || polling) return
    const tool = t.tool('poll_agent_messages')
    const props = argNames(tool)
    const taking = consume.checked
    const args: Record<string, unknown> = { [channelArg(tool)]: id }
    if (!taking) {
      // Without `since` the only way to read is to take, which would starve a real agent: wait for consent.
      if (!props.has('since')) {
        pollStatus.textContent = `${t.server.label}'s poll_agent_messages cannot watch without taking messages (no \`since\`); tick "play the agent" to read them`
        return
      }
      args.since = cursors.get(id) ?? '0'
    } else if (props.has('after')) {
      args.after = cursors.get(id) ?? '0'
    }
    polling = true
    try {
      const result = await rpc<PollResult>(t.server.id, 'tools/call', { name: 'poll_agent_messages', arguments: args }, 'user')
      pollStatus.textContent = result.isError ? `poll failed: ${result.content?.map((c) => c.text).join(' ')}` : ''
      for (const m of messagesOf(result)) {
        const mid = (m as { id?: unknown }).id
        if (typeof mid === 'string') {
          cursors.set(id, mid)
          // A message first watched, then taken when the person starts playing the agent, is shown once.
          if (seen.has(`${id}|${mid}`)) continue
          seen.add(`${id}|${mid}`)
        }
        const ev = (m as { event?: unknown }).event
        inbox.prepend(
          h(
            'div',
            { class: 'entry', 'data-channel': id },
            h('div', { class: 'dir' }, `[${id}] ${typeof ev === 'string' ? ev : 'message'}${taking ? ' (taken)' : ' (watched)'}`),
            h('pre', {}, pretty(m)),
          ),
        )
      }
    } catch (err) {
      pollStatus.textContent = `poll failed: ${(err as Error).message}`
    } finally {
      polling = false
    }
  }
  setInterval(() => {
    if (watch.checked) void poll()
  }, 1000)

  channel.addEventListener('change', () => {
    pollStatus.textContent = ''
  })
  clearButton.addEventListener('click', () => inbox.replaceChildren())

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
          arguments: {
            [channelArg(t.tool('notify_ui'))]: channel.value.trim(),
            event: event.value.trim(),
            ...(payload === undefined ? {} : { data: payload }),
          },
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
    h(
      'div',
      {},
      channel,
      ' ',
      h('label', { title: 'Read the app’s messages without taking them (a real agent still gets them)' }, watch, 'watch'),
      ' ',
      h('label', { title: 'Take the messages, as the agent would: a real agent on this channel then gets none' }, consume, 'play the agent'),
      ' ',
      clearButton,
    ),
    pollStatus,
    h('div', { class: 'agent-inbox' }, inbox),
    h('div', {}, event, ' ', send),
    data,
    status,
  )
  return {
    element,
    // Every result that names a channel moves the panel to it: the newest render is the one on screen.
    setChannel(id) {
      if (channel.value !== id) {
        channel.value = id
        pollStatus.textContent = ''
      }
      watch.checked = true
    },
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
