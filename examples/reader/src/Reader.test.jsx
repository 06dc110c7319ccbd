import { it, expect, afterEach } from 'vitest'
import { renderComponent } from 'duetkit'
import Reader from './Reader.jsx'
import { PARAGRAPHS } from './declaration.js'

let t
afterEach(() => t?.dispose())

const truths = { paragraph: 'truths', quote: 'all men are created equal' }
const grievance = { paragraph: 'g17', quote: 'imposing Taxes on us without our Consent' }

async function askAbout(selection, question) {
  await t.simulateAction('SELECT', selection)
  await t.simulateEvent('.question', 'input', { value: question })
  await t.simulateEvent('.ask', 'click')
}

it('select + ask sends the question to the agent and opens a waiting thread beside the passage', async () => {
  t = renderComponent(Reader)
  await askAbout(truths, 'Who counted as "men" in 1776?')
  expect(t.requests('MCP').at(-1)).toMatchObject({
    notifyAgent: {
      event: 'ask',
      data: {
        thread_id: 't1',
        quote: 'all men are created equal',
        question: 'Who counted as "men" in 1776?',
        paragraph_id: 'truths',
        paragraph: PARAGRAPHS.find((p) => p.id === 'truths').text,
        history: [],
      },
    },
    error: 'ASK_FAILED',
  })
  expect(t.state.selection).toBe(null)
  expect(t.state.threads).toEqual([expect.objectContaining({ id: 't1', paragraph: 'truths', status: 'waiting' })])
  const html = t.html()
  expect(html).toContain('Waiting for the agent')
  expect(html).toContain('<mark class="asked">all men are created equal</mark>')
})

it('asks nothing without a selection or with an empty question', async () => {
  t = renderComponent(Reader)
  await t.simulateAction('ASK')
  await t.simulateAction('SELECT', truths)
  await t.simulateEvent('.question', 'input', { value: '   ' })
  await t.simulateAction('ASK')
  expect(t.requests('MCP')).toEqual([])
  expect(t.state.threads).toEqual([])
  await t.simulateEvent('.cancel', 'click')
  expect(t.state.selection).toBe(null)
})

it("the agent's answer lands in the right thread, and follow-ups stay in it", async () => {
  t = renderComponent(Reader)
  await askAbout(truths, 'What does self-evident mean here?')
  await t.simulateAction('MESSAGE', { id: 'm1', event: 'answer', data: { thread_id: 't1', text: 'Needing no proof.' } })
  expect(t.state.threads[0]).toMatchObject({ status: 'answered', messages: [{ from: 'user' }, { from: 'agent', text: 'Needing no proof.' }] })
  expect(t.html()).toContain('Needing no proof.')

  await t.simulateEvent('.follow-up', 'input', { value: 'Says who?', data: { thread: 't1' } })
  await t.simulateEvent('.send-follow-up', 'click', { data: { thread: 't1' } })
  expect(t.requests('MCP').at(-1)).toMatchObject({
    notifyAgent: {
      event: 'ask',
      data: {
        thread_id: 't1',
        question: 'Says who?',
        history: [
          { from: 'user', text: 'What does self-evident mean here?' },
          { from: 'agent', text: 'Needing no proof.' },
        ],
      },
    },
  })
  expect(t.state.threads).toHaveLength(1)
  expect(t.state.threads[0].messages.map((m) => m.text)).toEqual(['What does self-evident mean here?', 'Needing no proof.', 'Says who?'])
  expect(t.state.threads[0].status).toBe('waiting')

  await t.simulateEvent('.follow-up', 'input', { value: 'And Enter sends too', data: { thread: 't1' } })
  await t.simulateEvent('.follow-up', 'keydown', { key: 'Enter', data: { thread: 't1' } })
  expect(t.requests('MCP').at(-1).notifyAgent.data.question).toBe('And Enter sends too')
})

it('keeps two threads apart, on two passages', async () => {
  t = renderComponent(Reader)
  await askAbout(truths, 'First question')
  await askAbout(grievance, 'Second question')
  expect(t.requests('MCP').map((r) => r.notifyAgent.data.thread_id)).toEqual(['t1', 't2'])
  // Answers out of order still land where they belong.
  await t.simulateAction('MESSAGE', { id: 'm1', event: 'answer', data: { thread_id: 't2', text: 'About taxes.' } })
  await t.simulateAction('MESSAGE', { id: 'm2', event: 'answer', data: { thread_id: 't1', text: 'About equality.' } })
  const [first, second] = t.state.threads
  expect(first).toMatchObject({ paragraph: 'truths', messages: [{ text: 'First question' }, { text: 'About equality.' }] })
  expect(second).toMatchObject({ paragraph: 'g17', messages: [{ text: 'Second question' }, { text: 'About taxes.' }] })
})

it('ignores answers to unknown threads and other events, and shows a failed send', async () => {
  t = renderComponent(Reader)
  await askAbout(truths, 'Anyone there?')
  const before = t.state
  await t.simulateAction('MESSAGE', { id: 'm1', event: 'answer', data: { thread_id: 't9', text: 'lost' } })
  await t.simulateAction('MESSAGE', { id: 'm2', event: 'hello', data: {} })
  expect(t.state).toEqual(before)
  await t.fail('MCP', 'the host refused the call', 'ASK_FAILED')
  expect(t.state.threads[0].status).toBe('failed')
  expect(t.html()).toContain('did not reach the agent: the host refused the call')
})

it('renders the whole Declaration with stable, unique paragraph ids', () => {
  t = renderComponent(Reader)
  const ids = PARAGRAPHS.map((p) => p.id)
  expect(new Set(ids).size).toBe(ids.length)
  expect(ids.filter((id) => /^g\d+$/.test(id))).toHaveLength(27)
  const html = t.html()
  expect(html).toContain('When in the Course of human events')
  expect(html).toContain('our Lives, our Fortunes and our sacred Honor.')
  expect(html).toContain('John Hancock')
})
