import { renderComponent } from 'duetkit'
import { afterEach, describe, expect, it } from 'vitest'
import { AgentPanel } from '../../../src/dev/page/AgentPanel.js'

let dispose: (() => void) | undefined
afterEach(() => dispose?.())

describe('AgentPanel', () => {
  const render = () => {
    const t = renderComponent(AgentPanel)
    dispose = () => t.dispose()
    return t
  }

  it('watches the channel a result named: polls with the last id seen, shows each message once, newest first', async () => {
    const t = render()
    await t.simulateAction('SET_CHANNEL', 'ch-1')
    expect(t.state.watch).toBe(true)
    await t.simulateAction('TICK', 0)
    expect(t.requests('AGENT').at(-1)).toMatchObject({ poll: { channel: 'ch-1', taking: false, cursor: '0' }, ok: 'POLLED' })
    // A second tick while the poll is out sends nothing.
    await t.simulateAction('TICK', 1)
    expect(t.requests('AGENT')).toHaveLength(1)
    await t.respond(
      'AGENT',
      {
        channel: 'ch-1',
        taking: false,
        messages: [
          { id: '1', event: 'ask', data: { q: 'a' } },
          { id: '2', event: 'ask', data: { q: 'b' } },
        ],
      },
      'POLLED',
    )
    await t.simulateAction('TICK', 2)
    expect(t.requests('AGENT').at(-1)).toMatchObject({ poll: { cursor: '2' } })
    // Taken later, the same message is not shown twice.
    await t.respond(
      'AGENT',
      {
        channel: 'ch-1',
        taking: true,
        messages: [
          { id: '2', event: 'ask' },
          { id: '3', event: 'done' },
        ],
      },
      'POLLED',
    )
    expect(t.state.inbox.map((e) => e.label)).toEqual(['[ch-1] done (taken)', '[ch-1] ask (watched)', '[ch-1] ask (watched)'])
    await t.simulateEvent('.agent-clear', 'click')
    expect(t.state.inbox).toEqual([])
  })

  it('shows why a poll read nothing, and refuses data that is not JSON before sending', async () => {
    const t = render()
    await t.simulateAction('SET_CHANNEL', 'ch-2')
    await t.simulateAction('TICK', 0)
    await t.respond(
      'AGENT',
      { channel: 'ch-2', taking: false, messages: [], problem: "s1's poll_agent_messages cannot watch without taking messages" },
      'POLLED',
    )
    expect(t.html()).toContain('cannot watch without taking messages')
    await t.simulateEvent('.agent-data', 'input', { value: '{"text":' })
    await t.simulateEvent('.agent-send', 'click')
    expect(t.html()).toContain('data is not valid JSON')
    expect(t.requests('AGENT').some((r) => 'notify' in (r as object))).toBe(false)
    await t.simulateEvent('.agent-data', 'input', { value: '{"text":"yes"}' })
    await t.simulateEvent('.agent-send', 'click')
    expect(t.requests('AGENT').at(-1)).toMatchObject({ notify: { channel: 'ch-2', event: 'answer', data: { text: 'yes' } }, ok: 'SENT' })
    await t.respond('AGENT', 'sent answer', 'SENT')
    expect(t.html()).toContain('sent answer')
  })
})
