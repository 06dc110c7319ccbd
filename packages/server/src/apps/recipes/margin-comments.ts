import type { Recipe } from './recipe.js'

/** The `margin-comments` recipe. */
export const marginComments: Recipe = {
  name: 'margin-comments',
  title: 'Margin comments: questions about a passage, answered beside it',
  description: 'Questions about a selected passage answered as comment cards beside it, with threads (the Declaration reader).',
  text: `# Margin comments: questions about a passage, answered beside it

The user selects a passage, types a question and sends it; your answer appears as a comment card
next to the passage, and follow-up questions stay in the same thread. The complete app, with its
stylesheet and the selection code, is the \`declaration-reader\` recipe: read it with
\`get_recipe({ "name": "declaration-reader" })\` and show its module as is, or adapt it.

## The protocol

| Event | From | data |
| --- | --- | --- |
| \`ask\` | app | \`{ thread_id, quote, question, paragraph, history }\` |
| \`answer\` | you | \`{ thread_id, text }\` |

\`paragraph\` is the whole passage and \`history\` the earlier messages of the thread, so you need no
memory between questions. (The reader example also sends \`paragraph_id\`, the passage's stable id.) Answer in two to four sentences; the card is small.

\`\`\`json tool-call
{ "tool": "notify_ui", "arguments": { "channel_id": "<channel_id>", "event": "answer", "data": { "thread_id": "t1", "text": "It means the colonists are announcing their reasons to the world." } } }
\`\`\`

Wait for questions as in \`bidirectional-events\` (a background \`duet wait\`, or a foreground
\`poll_agent_messages\` with \`wait_seconds\`), answer every \`ask\` you drained, and wait again.

## A compact component

\`\`\`jsx duet-component
const PASSAGES = [
  { id: 'p1', text: 'When in the Course of human events, it becomes necessary for one people to dissolve the political bands which have connected them with another.' },
  { id: 'p2', text: 'We hold these truths to be self-evident, that all men are created equal.' },
]

function Margin({ state }) {
  return (
    <main className="margin-comments">
      {PASSAGES.map((p) => (
        <section key={p.id} className="row">
          <p className="passage" data={{ id: p.id }}>{p.text}</p>
          <aside>
            {state.threads.filter((t) => t.passage === p.id).map((t) => (
              <div key={t.id} className="card">
                <blockquote>{t.quote}</blockquote>
                {t.messages.map((m, i) => <p key={String(i)} className={m.from}>{m.text}</p>)}
              </div>
            ))}
          </aside>
        </section>
      ))}
      <input className="question" value={state.draft} placeholder="Ask about the selected passage" />
      <button type="button" className="ask" disabled={!state.selection || !state.draft}>Ask</button>
    </main>
  )
}

Margin.initialState = { selection: null, draft: '', threads: [], nextId: 1 }

Margin.intent = ({ DOM, MCP }) => ({
  // The whole passage stands in for the selection here; the reader example reads the real text selection.
  SELECT: DOM.click('.passage').data('id'),
  DRAFT: DOM.input('.question').value(),
  ASK: DOM.click('.ask'),
  MESSAGE: MCP.select('agent-message'),
})

Margin.model = {
  SELECT: (state, id) => ({ ...state, selection: { passage: id, quote: PASSAGES.find((p) => p.id === id).text } }),
  DRAFT: (state, draft) => ({ ...state, draft }),
  ASK: {
    STATE: (state) => ({
      ...state,
      draft: '',
      nextId: state.nextId + 1,
      threads: [...state.threads, { id: \`t\${state.nextId}\`, passage: state.selection.passage, quote: state.selection.quote, messages: [{ from: 'user', text: state.draft }] }],
    }),
    MCP: (state) => ({
      notifyAgent: {
        event: 'ask',
        data: { thread_id: \`t\${state.nextId}\`, quote: state.selection.quote, question: state.draft, paragraph: state.selection.quote, history: [] },
      },
    }),
  },
  MESSAGE: (state, message) => message.event !== 'answer' ? state : {
    ...state,
    threads: state.threads.map((t) => t.id === message.data.thread_id ? { ...t, messages: [...t.messages, { from: 'agent', text: message.data.text }] } : t),
  },
}

export default Margin
\`\`\`

Text goes into the view as text nodes, so nothing the user or you write is ever parsed as HTML. In
an HTML fragment, escape it yourself before using \`innerHTML\`.
`,
}
