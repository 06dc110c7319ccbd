import type { Recipe } from './recipe.js'

// Generated from examples/reader by `node examples/reader/recipe-source.js --write`; do not edit by hand.

/** The `declaration-reader` recipe: the complete reader example as one display_component module. */
export const declarationReader: Recipe = {
  name: 'declaration-reader',
  title: 'The Declaration reader: a complete margin-comments app',
  description: 'The complete Declaration of Independence reader as one display_component module: render it as is, then answer questions beside passages.',
  text: `# The Declaration reader: a complete margin-comments app

The user selects words in a passage of the Declaration of Independence and asks about them; each
question reaches you as an \`ask\` message and your answer appears beside the passage, in threads
with follow-ups. The module carries its own stylesheet (\`READER_CSS\`, rendered in a \`<style>\`
element by the view): that is what puts the margin beside the text; keep it when you adapt the app. This is the \`examples/reader\` app of the Duet repository as one module, ready for
\`display_component\`. The protocol is the one of the \`margin-comments\` recipe.

\`\`\`jsx duet-component
import { xs } from 'duetkit'

// The Declaration of Independence (1776, public domain), one entry per paragraph. The ids are
// stable: threads and saved apps refer to passages by them, so never renumber.

const TITLE = 'The unanimous Declaration of the thirteen united States of America'
const HEADING = 'In Congress, July 4, 1776'

/** @type {ReadonlyArray<{ id: string, text: string }>} */
const PARAGRAPHS = Object.freeze([
  {
    id: 'preamble',
    text: 'When in the Course of human events, it becomes necessary for one people to dissolve the political bands which have connected them with another, and to assume among the powers of the earth, the separate and equal station to which the Laws of Nature and of Nature\\u2019s God entitle them, a decent respect to the opinions of mankind requires that they should declare the causes which impel them to the separation.',
  },
  {
    id: 'truths',
    text: 'We hold these truths to be self-evident, that all men are created equal, that they are endowed by their Creator with certain unalienable Rights, that among these are Life, Liberty and the pursuit of Happiness.\\u2014That to secure these rights, Governments are instituted among Men, deriving their just powers from the consent of the governed,\\u2014That whenever any Form of Government becomes destructive of these ends, it is the Right of the People to alter or to abolish it, and to institute new Government, laying its foundation on such principles and organizing its powers in such form, as to them shall seem most likely to effect their Safety and Happiness.',
  },
  {
    id: 'prudence',
    text: 'Prudence, indeed, will dictate that Governments long established should not be changed for light and transient causes; and accordingly all experience hath shewn, that mankind are more disposed to suffer, while evils are sufferable, than to right themselves by abolishing the forms to which they are accustomed. But when a long train of abuses and usurpations, pursuing invariably the same Object evinces a design to reduce them under absolute Despotism, it is their right, it is their duty, to throw off such Government, and to provide new Guards for their future security.',
  },
  {
    id: 'sufferance',
    text: 'Such has been the patient sufferance of these Colonies; and such is now the necessity which constrains them to alter their former Systems of Government. The history of the present King of Great Britain is a history of repeated injuries and usurpations, all having in direct object the establishment of an absolute Tyranny over these States. To prove this, let Facts be submitted to a candid world.',
  },
  { id: 'g1', text: 'He has refused his Assent to Laws, the most wholesome and necessary for the public good.' },
  {
    id: 'g2',
    text: 'He has forbidden his Governors to pass Laws of immediate and pressing importance, unless suspended in their operation till his Assent should be obtained; and when so suspended, he has utterly neglected to attend to them.',
  },
  {
    id: 'g3',
    text: 'He has refused to pass other Laws for the accommodation of large districts of people, unless those people would relinquish the right of Representation in the Legislature, a right inestimable to them and formidable to tyrants only.',
  },
  {
    id: 'g4',
    text: 'He has called together legislative bodies at places unusual, uncomfortable, and distant from the depository of their public Records, for the sole purpose of fatiguing them into compliance with his measures.',
  },
  { id: 'g5', text: 'He has dissolved Representative Houses repeatedly, for opposing with manly firmness his invasions on the rights of the people.' },
  {
    id: 'g6',
    text: 'He has refused for a long time, after such dissolutions, to cause others to be elected; whereby the Legislative powers, incapable of Annihilation, have returned to the People at large for their exercise; the State remaining in the mean time exposed to all the dangers of invasion from without, and convulsions within.',
  },
  {
    id: 'g7',
    text: 'He has endeavoured to prevent the population of these States; for that purpose obstructing the Laws for Naturalization of Foreigners; refusing to pass others to encourage their migrations hither, and raising the conditions of new Appropriations of Lands.',
  },
  { id: 'g8', text: 'He has obstructed the Administration of Justice, by refusing his Assent to Laws for establishing Judiciary powers.' },
  { id: 'g9', text: 'He has made Judges dependent on his Will alone, for the tenure of their offices, and the amount and payment of their salaries.' },
  { id: 'g10', text: 'He has erected a multitude of New Offices, and sent hither swarms of Officers to harrass our people, and eat out their substance.' },
  { id: 'g11', text: 'He has kept among us, in times of peace, Standing Armies without the Consent of our legislatures.' },
  { id: 'g12', text: 'He has affected to render the Military independent of and superior to the Civil power.' },
  {
    id: 'g13',
    text: 'He has combined with others to subject us to a jurisdiction foreign to our constitution, and unacknowledged by our laws; giving his Assent to their Acts of pretended Legislation:',
  },
  { id: 'g14', text: 'For Quartering large bodies of armed troops among us:' },
  { id: 'g15', text: 'For protecting them, by a mock Trial, from punishment for any Murders which they should commit on the Inhabitants of these States:' },
  { id: 'g16', text: 'For cutting off our Trade with all parts of the world:' },
  { id: 'g17', text: 'For imposing Taxes on us without our Consent:' },
  { id: 'g18', text: 'For depriving us in many cases, of the benefits of Trial by Jury:' },
  { id: 'g19', text: 'For transporting us beyond Seas to be tried for pretended offences:' },
  {
    id: 'g20',
    text: 'For abolishing the free System of English Laws in a neighbouring Province, establishing therein an Arbitrary government, and enlarging its Boundaries so as to render it at once an example and fit instrument for introducing the same absolute rule into these Colonies:',
  },
  { id: 'g21', text: 'For taking away our Charters, abolishing our most valuable Laws, and altering fundamentally the Forms of our Governments:' },
  { id: 'g22', text: 'For suspending our own Legislatures, and declaring themselves invested with power to legislate for us in all cases whatsoever.' },
  { id: 'g23', text: 'He has abdicated Government here, by declaring us out of his Protection and waging War against us.' },
  { id: 'g24', text: 'He has plundered our seas, ravaged our Coasts, burnt our towns, and destroyed the lives of our people.' },
  {
    id: 'g25',
    text: 'He is at this time transporting large Armies of foreign Mercenaries to compleat the works of death, desolation and tyranny, already begun with circumstances of Cruelty & perfidy scarcely paralleled in the most barbarous ages, and totally unworthy the Head of a civilized nation.',
  },
  {
    id: 'g26',
    text: 'He has constrained our fellow Citizens taken Captive on the high Seas to bear Arms against their Country, to become the executioners of their friends and Brethren, or to fall themselves by their Hands.',
  },
  {
    id: 'g27',
    text: 'He has excited domestic insurrections amongst us, and has endeavoured to bring on the inhabitants of our frontiers, the merciless Indian Savages, whose known rule of warfare, is an undistinguished destruction of all ages, sexes and conditions.',
  },
  {
    id: 'petitions',
    text: 'In every stage of these Oppressions We have Petitioned for Redress in the most humble terms: Our repeated Petitions have been answered only by repeated injury. A Prince whose character is thus marked by every act which may define a Tyrant, is unfit to be the ruler of a free people.',
  },
  {
    id: 'brethren',
    text: 'Nor have We been wanting in attentions to our Brittish brethren. We have warned them from time to time of attempts by their legislature to extend an unwarrantable jurisdiction over us. We have reminded them of the circumstances of our emigration and settlement here. We have appealed to their native justice and magnanimity, and we have conjured them by the ties of our common kindred to disavow these usurpations, which, would inevitably interrupt our connections and correspondence. They too have been deaf to the voice of justice and of consanguinity. We must, therefore, acquiesce in the necessity, which denounces our Separation, and hold them, as we hold the rest of mankind, Enemies in War, in Peace Friends.',
  },
  {
    id: 'independence',
    text: 'We, therefore, the Representatives of the united States of America, in General Congress, Assembled, appealing to the Supreme Judge of the world for the rectitude of our intentions, do, in the Name, and by Authority of the good People of these Colonies, solemnly publish and declare, That these United Colonies are, and of Right ought to be Free and Independent States; that they are Absolved from all Allegiance to the British Crown, and that all political connection between them and the State of Great Britain, is and ought to be totally dissolved; and that as Free and Independent States, they have full Power to levy War, conclude Peace, contract Alliances, establish Commerce, and to do all other Acts and Things which Independent States may of right do. And for the support of this Declaration, with a firm reliance on the protection of divine Providence, we mutually pledge to each other our Lives, our Fortunes and our sacred Honor.',
  },
])

/** The signers, grouped as they signed (by state delegation). */
const SIGNERS = Object.freeze([
  { state: 'Georgia', names: ['Button Gwinnett', 'Lyman Hall', 'George Walton'] },
  { state: 'North Carolina', names: ['William Hooper', 'Joseph Hewes', 'John Penn'] },
  { state: 'South Carolina', names: ['Edward Rutledge', 'Thomas Heyward, Jr.', 'Thomas Lynch, Jr.', 'Arthur Middleton'] },
  { state: 'Massachusetts', names: ['John Hancock'] },
  { state: 'Maryland', names: ['Samuel Chase', 'William Paca', 'Thomas Stone', 'Charles Carroll of Carrollton'] },
  {
    state: 'Virginia',
    names: ['George Wythe', 'Richard Henry Lee', 'Thomas Jefferson', 'Benjamin Harrison', 'Thomas Nelson, Jr.', 'Francis Lightfoot Lee', 'Carter Braxton'],
  },
  {
    state: 'Pennsylvania',
    names: [
      'Robert Morris',
      'Benjamin Rush',
      'Benjamin Franklin',
      'John Morton',
      'George Clymer',
      'James Smith',
      'George Taylor',
      'James Wilson',
      'George Ross',
    ],
  },
  { state: 'Delaware', names: ['Caesar Rodney', 'George Read', 'Thomas McKean'] },
  { state: 'New York', names: ['William Floyd', 'Philip Livingston', 'Francis Lewis', 'Lewis Morris'] },
  { state: 'New Jersey', names: ['Richard Stockton', 'John Witherspoon', 'Francis Hopkinson', 'John Hart', 'Abraham Clark'] },
  { state: 'New Hampshire', names: ['Josiah Bartlett', 'William Whipple'] },
  { state: 'Massachusetts', names: ['Samuel Adams', 'John Adams', 'Robert Treat Paine', 'Elbridge Gerry'] },
  { state: 'Rhode Island', names: ['Stephen Hopkins', 'William Ellery'] },
  { state: 'Connecticut', names: ['Roger Sherman', 'Samuel Huntington', 'William Williams', 'Oliver Wolcott'] },
  { state: 'New Hampshire', names: ['Matthew Thornton'] },
])

/** The paragraph with that id, or undefined. */
function paragraphById(id) {
  return PARAGRAPHS.find((p) => p.id === id)
}

// Reads what the user selected in the text. Kept apart from the component so the view stays pure
// and this one browser-specific step can be tested against a real DOM selection.

/** Longest quote sent to the agent; a longer selection is cut, the passage goes along whole anyway. */
const MAX_QUOTE = 600

function passageOf(node) {
  const element = node && node.nodeType === 1 ? node : node?.parentElement
  return element?.closest?.('.passage') ?? null
}

/**
 * The selection inside one passage as \`{ paragraph, quote }\`, or null when nothing is selected or
 * the selection spans passages (questions are about one passage at a time).
 * @param {Event} event a mouseup or keyup inside the text
 */
function readSelection(event) {
  const doc = event?.target?.ownerDocument
  const selection = doc?.getSelection?.()
  if (!selection || selection.isCollapsed || selection.rangeCount === 0) return null
  const quote = selection.toString().replace(/\\s+/g, ' ').trim()
  const passage = passageOf(selection.anchorNode)
  if (!quote || !passage || passage !== passageOf(selection.focusNode)) return null
  return { paragraph: passage.dataset.paragraph, quote: quote.slice(0, MAX_QUOTE) }
}

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
    <article key={thread.id} className={\`thread \${thread.status}\`} data={{ thread: thread.id }}>
      <blockquote className="quote">“{thread.quote}”</blockquote>
      <ol className="messages">
        {thread.messages.map((m, i) => (
          <li key={String(i)} className={\`message \${m.from}\`}>
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
        id: \`t\${state.nextThread}\`,
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
      const thread = { id: \`t\${state.nextThread}\`, paragraph: state.selection.paragraph, quote: state.selection.quote, messages: [] }
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
    return updateThread(state, id, (t) => ({ ...t, status: 'failed', error: \`Your question did not reach the agent: \${failure?.error ?? 'unknown error'}\` }))
  },
}

const READER_CSS = \`
/* The host's theme variables (MCP Apps \\\`styles.variables\\\`, applied to <html> by the MCP driver)
   come first; the fallbacks keep the reader readable in hosts that send only light or dark. */
:root {
  --reader-bg: var(--color-background-primary, #fffdf8);
  --reader-panel: var(--color-background-secondary, #f5f1e8);
  --reader-text: var(--color-text-primary, #1f1d1a);
  --reader-muted: var(--color-text-secondary, #6b6459);
  --reader-border: var(--color-border-primary, #ddd5c5);
  --reader-accent: var(--color-ring-primary, #8a5a1c);
  --reader-mark: #f6e3a8;
  --reader-mark-asked: #e9dcc0;
  --reader-danger: var(--color-text-danger, #a12a1a);
  --reader-radius: var(--border-radius-md, 8px);
  --reader-serif: Georgia, 'Iowan Old Style', 'Times New Roman', serif;
  --reader-sans: var(--font-sans, system-ui, -apple-system, 'Segoe UI', sans-serif);
  color-scheme: light dark;
}

:root[data-theme='dark'] {
  --reader-bg: var(--color-background-primary, #1c1b19);
  --reader-panel: var(--color-background-secondary, #262521);
  --reader-text: var(--color-text-primary, #ece7dc);
  --reader-muted: var(--color-text-secondary, #a59d8f);
  --reader-border: var(--color-border-primary, #3b3832);
  --reader-accent: var(--color-ring-primary, #d9a55b);
  --reader-mark: #5c4a1c;
  --reader-mark-asked: #3f3826;
}

@media (prefers-color-scheme: dark) {
  :root:not([data-theme]) {
    --reader-bg: #1c1b19;
    --reader-panel: #262521;
    --reader-text: #ece7dc;
    --reader-muted: #a59d8f;
    --reader-border: #3b3832;
    --reader-accent: #d9a55b;
    --reader-mark: #5c4a1c;
    --reader-mark-asked: #3f3826;
  }
}

* { box-sizing: border-box; }

body {
  margin: 0;
  background: var(--reader-bg);
  color: var(--reader-text);
  font-family: var(--reader-sans);
}

.reader {
  max-width: 1040px;
  margin: 0 auto;
  padding: 20px 20px 32px;
}

header { text-align: center; margin-bottom: 16px; }
.heading { margin: 0; color: var(--reader-muted); font-variant: small-caps; letter-spacing: 0.05em; }
h1 { margin: 4px 0 8px; font: 600 var(--font-heading-lg-size, 1.4rem) / 1.3 var(--reader-serif); }
.hint { margin: 0; color: var(--reader-muted); font-size: var(--font-text-sm-size, 0.875rem); }

/* Text on the left, its comments in the margin on the right; one row a passage keeps them level. */
.row {
  display: grid;
  grid-template-columns: minmax(0, 1fr) 300px;
  gap: 20px;
  padding: 4px 0;
}

.passage {
  margin: 0;
  font: 1.05rem / 1.65 var(--reader-serif);
  cursor: text;
}

mark { color: inherit; border-radius: 2px; padding: 0 1px; }
mark.selected { background: var(--reader-mark); }
mark.asked { background: var(--reader-mark-asked); border-bottom: 2px solid var(--reader-accent); }

.margin { display: flex; flex-direction: column; gap: 10px; }

.ask-box, .thread {
  background: var(--reader-panel);
  border: 1px solid var(--reader-border);
  border-radius: var(--reader-radius);
  padding: 10px 12px;
  font-size: var(--font-text-sm-size, 0.875rem);
}
.ask-box { border-color: var(--reader-accent); }

.quote {
  margin: 0 0 8px;
  padding-left: 8px;
  border-left: 3px solid var(--reader-accent);
  color: var(--reader-muted);
  font: italic 0.85rem / 1.4 var(--reader-serif);
  display: -webkit-box;
  -webkit-line-clamp: 3;
  -webkit-box-orient: vertical;
  overflow: hidden;
}

.messages { list-style: none; margin: 0; padding: 0; display: flex; flex-direction: column; gap: 6px; }
.message { line-height: 1.45; }
.message .who { display: block; font-weight: var(--font-weight-semibold, 600); font-size: 0.75rem; color: var(--reader-muted); }
.message.agent .who { color: var(--reader-accent); }

.status { margin: 8px 0 0; color: var(--reader-muted); font-style: italic; }
.status.error { color: var(--reader-danger); font-style: normal; }

textarea, input {
  width: 100%;
  font: inherit;
  color: inherit;
  background: var(--reader-bg);
  border: 1px solid var(--reader-border);
  border-radius: var(--border-radius-sm, 6px);
  padding: 6px 8px;
}
textarea { resize: vertical; }
textarea:focus, input:focus { outline: 2px solid var(--reader-accent); outline-offset: 1px; }

.actions, .follow { display: flex; gap: 6px; margin-top: 8px; }
.actions { justify-content: flex-end; }
.follow input { flex: 1; }

button {
  font: inherit;
  border-radius: var(--border-radius-sm, 6px);
  border: 1px solid var(--reader-accent);
  background: var(--reader-accent);
  color: var(--reader-bg);
  padding: 5px 12px;
  cursor: pointer;
}
button.cancel { background: transparent; color: var(--reader-text); border-color: var(--reader-border); }
button:disabled { opacity: 0.5; cursor: default; }

.signers { margin-top: 24px; padding-top: 12px; border-top: 1px solid var(--reader-border); color: var(--reader-muted); font-size: 0.8rem; columns: 2; }
.signers p { margin: 0 0 6px; break-inside: avoid; }
.signers .state { font-weight: var(--font-weight-semibold, 600); }

/* Narrow iframes (phones, side panels): comments go under their passage. */
@media (max-width: 640px) {
  .row { grid-template-columns: 1fr; gap: 8px; }
  .signers { columns: 1; }
}
\`

// The view with its stylesheet: the display shell has no CSS file for the module to load.
function StyledReader(args) {
  return (
    <div className="reader-page">
      <style>{READER_CSS}</style>
      {Reader(args)}
    </div>
  )
}
StyledReader.initialState = Reader.initialState
StyledReader.intent = Reader.intent
StyledReader.model = Reader.model

export default StyledReader
\`\`\`

Show it, passing the module above as \`source\`:

\`\`\`json tool-call
{ "tool": "display_component", "arguments": { "title": "Declaration reader", "source": "<the module above>" } }
\`\`\`

Then wait for questions (a background \`duet wait <channel_id>\`, or \`poll_agent_messages\` with
\`wait_seconds\`). Each \`ask\` carries \`{ thread_id, quote, question, paragraph_id, paragraph, history }\`;
answer it on the same thread in two to four sentences:

\`\`\`json tool-call
{ "tool": "notify_ui", "arguments": { "channel_id": "<channel_id>", "event": "answer", "data": { "thread_id": "t1", "text": "It announces that the colonies are separating from Britain." } } }
\`\`\`
`,
}
