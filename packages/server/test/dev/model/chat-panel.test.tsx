import { renderComponent } from 'duetkit'
import { describe, expect, it } from 'vitest'
import type { ChatEvent } from '../../../src/dev/model/chat-events.js'
import { ChatPanel } from '../../../src/dev/page/chat/ChatPanel.js'
import { applyChatEvent, initialChatState, usageLine, type ChatState } from '../../../src/dev/page/chat/chat-state.js'

const start = (turn: number, text: string, from?: { callId: string; tool: string }): ChatEvent => ({ kind: 'turn-start', turn, text, ...(from && { from }) })
const fold = (events: ChatEvent[], state: ChatState = initialChatState) => events.reduce(applyChatEvent, state)

describe('the chat transcript state', () => {
  it('joins streamed text into one bubble until a tool call, then starts another', () => {
    const s = fold([
      start(1, 'hi'),
      { kind: 'text', turn: 1, delta: 'Let me ' },
      { kind: 'text', turn: 1, delta: 'look.' },
      { kind: 'tool-call', turn: 1, callId: 'c1', server: 's1', tool: 'get_forecast', input: { city: 'Oslo' }, uri: 'ui://forecast' },
      { kind: 'text', turn: 1, delta: 'Done.' },
    ])
    expect(s.turns[0].items.map((i) => (i.kind === 'text' ? i.text : i.tool))).toEqual(['Let me look.', 'get_forecast', 'Done.'])
  })

  it('marks a tool failed on a tool error and on a result with isError, with its text', () => {
    const s = fold([
      start(1, 'go'),
      { kind: 'tool-call', turn: 1, callId: 'a', server: 's1', tool: 'x', input: {} },
      { kind: 'tool-call', turn: 1, callId: 'b', server: 's1', tool: 'y', input: {} },
      { kind: 'tool-call', turn: 1, callId: 'c', server: 's1', tool: 'z', input: {} },
      { kind: 'tool-error', turn: 1, callId: 'a', error: 'MCP error -32602: bad city' },
      { kind: 'tool-result', turn: 1, callId: 'b', result: { isError: true, content: [{ type: 'text', text: 'no such city' }] } },
      { kind: 'tool-result', turn: 1, callId: 'c', result: { content: [] } },
    ])
    expect(s.turns[0].items).toMatchObject([
      { status: 'failed', error: 'MCP error -32602: bad city' },
      { status: 'failed', error: 'no such city' },
      { status: 'done' },
    ])
  })

  it('keeps an error with no turn as the notice, and drops events of a turn it never saw start', () => {
    const s = fold([
      { kind: 'text', turn: 9, delta: 'lost' },
      { kind: 'error', turn: 0, message: 'The message was not sent: HTTP 409' },
    ])
    expect(s.turns).toEqual([])
    expect(s.notice).toBe('The message was not sent: HTTP 409')
  })

  it('says what the provider counted, and when it counted nothing', () => {
    expect(usageLine({ input: 12, output: 5, total: 17 })).toBe('tokens: 12 in, 5 out, 17 total')
    expect(usageLine({ input: 12, output: 5 })).toBe('tokens: 12 in, 5 out, 17 total')
    expect(usageLine({})).toBe('tokens: not reported')
  })
})

describe('ChatPanel', () => {
  const render = () => renderComponent(ChatPanel, { initialState: { ...initialChatState, model: 'openai:gpt-test' } })

  it('sends the draft to the CHAT driver on Send and on Enter, and empties the field; a blank draft sends nothing', async () => {
    const t = render()
    expect(t.html()).toContain('openai:gpt-test')
    await t.simulateEvent('.chat-send', 'click')
    expect(t.requests('CHAT')).toEqual([])
    await t.simulateEvent('.chat-input', 'input', { value: 'What is the weather?' })
    await t.simulateEvent('.chat-send', 'click')
    expect(t.requests('CHAT')).toEqual([{ send: 'What is the weather?' }])
    expect(t.state.draft).toBe('')
    await t.simulateEvent('.chat-input', 'input', { value: 'And tomorrow?' })
    await t.simulateEvent('.chat-input', 'keydown', { key: 'Enter', shiftKey: false })
    expect(t.requests('CHAT').at(-1)).toEqual({ send: 'And tomorrow?' })
  })

  it('shows Stop only while a turn runs, and Stop asks the driver to stop', async () => {
    const t = render()
    expect(t.html()).not.toContain('chat-stop')
    await t.simulateAction('EVENT', start(1, 'count'))
    await t.simulateEvent('.chat-stop', 'click')
    expect(t.requests('CHAT')).toEqual([{ stop: true }])
    await t.simulateAction('EVENT', { kind: 'turn-end', turn: 1, usage: {}, finish: 'stopped', stopped: true })
    expect(t.html()).not.toContain('chat-stop')
    expect(t.html()).toContain('stopped · tokens: not reported')
  })

  it('renders a turn from a view, the model text, a tool call with an empty place for its view, and the token counts', async () => {
    const t = render()
    for (const e of [
      start(1, 'What should I pack?', { callId: 'c1', tool: 'get_forecast' }),
      { kind: 'tool-call', turn: 1, callId: 'c2', server: 's1', tool: 'get_forecast', input: { city: 'Oslo' }, uri: 'ui://forecast/view.html' },
      { kind: 'text', turn: 1, delta: 'A coat.' },
      { kind: 'turn-end', turn: 1, usage: { input: 40, output: 3, total: 43 }, finish: 'stop', stopped: false },
    ] satisfies ChatEvent[])
      await t.simulateAction('EVENT', e)
    const html = t.html()
    expect(html).toContain('from the view of get_forecast (ui/message)')
    expect(html).toContain('A coat.')
    expect(html).toContain('tokens: 40 in, 3 out, 43 total')
    // The driver mounts the iframe into this element; it must be rendered with no children of its own.
    expect(html).toContain('<div class="chat-view" data-view-call="c2"></div>')
  })

  it('shows a provider error in its turn', async () => {
    const t = render()
    await t.simulateAction('EVENT', start(1, 'hi'))
    await t.simulateAction('EVENT', { kind: 'error', turn: 1, message: 'HTTP 401 from https://api.example/v1: Incorrect API key' })
    expect(t.html()).toContain('HTTP 401 from https://api.example/v1: Incorrect API key')
  })
})
