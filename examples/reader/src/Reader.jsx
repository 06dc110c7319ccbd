import { xs } from 'duetkit'
import { HEADING, PARAGRAPHS, SIGNERS, TITLE, paragraphById } from './declaration.js'
import { readSelection } from './selection.js'

// Quotes marked in a passage: the threads' quotes and the current selection. Overlaps are skipped
// (the earlier thread keeps its mark) so the passage text is always shown once, in order.
function marked(text, quotes) {
  const spans = []
  for (const { quote, kind } of quotes) {
    const start = text.indexOf(quote)
    if (start < 0 || spans.some((s) => start < s.end && start + quote.length > s.start)) continue
    spans.push({ start, end: start + quote.length, kind })
  }
  spans.sort((a, b) => a.start - b.start)
  const parts = []
  let at = 0
  for (const span of spans) {
    if (span.start > at) parts.push(text.slice(at, span.start))
    parts.push(
      <mark key={String(span.start)} className={span.kind}>
        {text.slice(span.start, span.end)}
      </mark>,
    )
    at = span.end
  }
  if (at < text.length) parts.push(text.slice(at))
  return parts
}

// Plain functions, not components: they hold no state of their own, so the Reader's state drives all.
function askBox(selection, draft) {
  return (
    <div className="ask-box">
      <blockquote className="quote">“{selection.quote}”</blockquote>
      <textarea className="question" value={draft} rows={2} placeholder="What would you like to know about this?" aria-label="Your question" />
      <div className="actions">
        <button type="button" className="cancel">
          Cancel
        </button>
        <button type="button" className="ask" disabled={!draft.trim()}>
          Ask
        </button>
      </div>
    </div>
  )
}

function threadCard(thread) {
  return (
    <article key={thread.id} className={`thread ${thread.status}`} data={{ thread: thread.id }}>
      <blockquote className="quote">“{thread.quote}”</blockquote>
      <ol className="messages">
        {thread.messages.map((m, i) => (
          <li key={String(i)} className={`message ${m.from}`}>
            <span className="who">{m.from === 'agent' ? 'Agent' : 'You'}</span>
            <span className="text">{m.text}</span>
          </li>
        ))}
      </ol>
      {thread.status === 'waiting' ? (
        <p className="status" role="status">
          Waiting for the agent…
        </p>
      ) : null}
      {thread.status === 'failed' ? (
        <p className="status error" role="alert">
          {thread.error}
        </p>
      ) : null}
      <div className="follow">
        <input className="follow-up" data={{ thread: thread.id }} value={thread.draft} placeholder="Ask a follow-up" aria-label="Follow-up question" />
        <button type="button" className="send-follow-up" data={{ thread: thread.id }} disabled={!thread.draft.trim()}>
          Reply
        </button>
      </div>
    </article>
  )
}

function Reader({ state }) {
  return (
    <main className="reader">
      <header>
        <p className="heading">{HEADING}</p>
        <h1>{TITLE}</h1>
        <p className="hint">Select words in a passage and ask about them; the answer appears beside it.</p>
      </header>
      {PARAGRAPHS.map((p) => {
        const threads = state.threads.filter((t) => t.paragraph === p.id)
        const selected = state.selection?.paragraph === p.id ? state.selection : null
        const quotes = [...threads.map((t) => ({ quote: t.quote, kind: 'asked' })), ...(selected ? [{ quote: selected.quote, kind: 'selected' }] : [])]
        return (
          <section key={p.id} className={threads.length || selected ? 'row active' : 'row'}>
            <p className="passage" id={p.id} data={{ paragraph: p.id }}>
              {marked(p.text, quotes)}
            </p>
            <aside className="margin" aria-label="Comments">
              {selected ? askBox(selected, state.draft) : null}
              {threads.map(threadCard)}
            </aside>
          </section>
        )
      })}
      <footer className="signers">
        {SIGNERS.map((group, i) => (
          <p key={String(i)}>
            <span className="state">{group.state}:</span> {group.names.join(', ')}
          </p>
        ))}
      </footer>
    </main>
  )
}

Reader.initialState = { selection: null, draft: '', threads: [], nextThread: 1 }

const targetOf = (e) => e.ownerTarget ?? e.target

Reader.intent = ({ DOM, MCP }) => ({
  SELECT: xs.merge(DOM.select('.passage').events('mouseup'), DOM.select('.passage').events('keyup')).map(readSelection),
  DRAFT: DOM.input('.question').value(),
  CANCEL: DOM.click('.cancel'),
  ASK: DOM.click('.ask'),
  FOLLOW_DRAFT: DOM.input('.follow-up').map((e) => ({ thread: targetOf(e).dataset.thread, text: targetOf(e).value })),
  FOLLOW_UP: xs.merge(
    DOM.click('.send-follow-up').data('thread'),
    DOM.keydown('.follow-up')
      .filter((e) => e.key === 'Enter')
      .map((e) => targetOf(e).dataset.thread),
  ),
  MESSAGE: MCP.select('agent-message'),
})

// What the agent gets with every question: the passage in full and the thread so far, so it needs
// no memory between questions.
function ask(thread, question) {
  return {
    notifyAgent: {
      event: 'ask',
      data: {
        thread_id: thread.id,
        quote: thread.quote,
        question,
        paragraph_id: thread.paragraph,
        paragraph: paragraphById(thread.paragraph)?.text ?? '',
        history: thread.messages,
      },
    },
    error: 'ASK_FAILED',
  }
}

const updateThread = (state, id, change) => ({ ...state, threads: state.threads.map((t) => (t.id === id ? change(t) : t)) })
const canAsk = (state) => Boolean(state.selection && state.draft.trim())
const followUpOf = (state, id) => {
  const thread = state.threads.find((t) => t.id === id)
  return thread?.draft.trim() ? thread : undefined
}

Reader.model = {
  SELECT: (state, selection) => (selection ? { ...state, selection } : state.draft ? state : { ...state, selection: null }),
  DRAFT: (state, draft) => ({ ...state, draft }),
  CANCEL: (state) => ({ ...state, selection: null, draft: '' }),
  ASK: {
    STATE: (state) => {
      if (!canAsk(state)) return state
      const thread = {
        id: `t${state.nextThread}`,
        paragraph: state.selection.paragraph,
        quote: state.selection.quote,
        messages: [{ from: 'user', text: state.draft.trim() }],
        status: 'waiting',
        draft: '',
      }
      return { ...state, threads: [...state.threads, thread], selection: null, draft: '', nextThread: state.nextThread + 1 }
    },
    MCP: (state) => {
      if (!canAsk(state)) return undefined
      const thread = { id: `t${state.nextThread}`, paragraph: state.selection.paragraph, quote: state.selection.quote, messages: [] }
      return ask(thread, state.draft.trim())
    },
  },
  FOLLOW_DRAFT: (state, { thread, text }) => updateThread(state, thread, (t) => ({ ...t, draft: text })),
  FOLLOW_UP: {
    STATE: (state, id) => {
      const thread = followUpOf(state, id)
      if (!thread) return state
      return updateThread(state, id, (t) => ({ ...t, messages: [...t.messages, { from: 'user', text: t.draft.trim() }], status: 'waiting', draft: '' }))
    },
    MCP: (state, id) => {
      const thread = followUpOf(state, id)
      return thread ? ask(thread, thread.draft.trim()) : undefined
    },
  },
  MESSAGE: (state, message) => {
    if (message?.event !== 'answer' || typeof message.data?.text !== 'string') return state
    const id = message.data.thread_id
    if (!state.threads.some((t) => t.id === id)) return state
    return updateThread(state, id, (t) => ({ ...t, messages: [...t.messages, { from: 'agent', text: message.data.text }], status: 'answered' }))
  },
  ASK_FAILED: (state, failure) => {
    const id = failure?.request?.notifyAgent?.data?.thread_id
    return updateThread(state, id, (t) => ({ ...t, status: 'failed', error: `Your question did not reach the agent: ${failure?.error ?? 'unknown error'}` }))
  },
}

export default Reader
