import type { Recipe } from './recipe.js'

/** The `duet-components` recipe. */
export const duetComponents: Recipe = {
  name: 'duet-components',
  title: 'Writing Duet components for display_component',
  description:
    'Writing a Duet component for display_component: imports, view, initialState, intent, model, DOM events and selections, streams, the MCP sink and its error action, styling.',
  text: `# Writing Duet components for display_component

A Duet component is a view function plus three statics. \`display_component\` compiles it (it never
runs it) and the app page, which already has the Duet runtime, runs it; you write one module, no
build step.

**Imports**: a module may import only from \`duetkit\` (e.g. \`import { xs } from 'duetkit'\` for
stream operators) and \`duetkit/mcp\`; JSX needs no import. Anything else (\`react\`, a relative
file, a URL, \`node:*\`) that the module uses is a compile error naming the import; an import the
module never uses is dropped without a word (as TypeScript does), so it loads nothing either. Put
helpers and data in the module itself, or store bulky data with \`put_app_data\`.

## The shape

- **Default export**: the view, \`({ state, props }) => JSX\`. Pure: it only reads its argument.
  \`props\` is the \`props\` argument of \`display_component\` (JSON, \`{}\` when none was given; a
  saved app keeps it). The view gets it as \`{ state, props, children }\`, and every model entry as
  its fourth argument: \`(state, data, next, props)\` (\`next(action, data)\` queues another
  action). \`initialState\` and \`intent\` never see props.
- **\`initialState\`**: the state before anything happens.
- **\`intent({ DOM, MCP })\`**: names the actions, each a stream of events:
  - \`DOM.select('.sel').events('mouseup')\` (any event name, custom ones too), or the shorthand
    \`DOM.click('.sel')\`, \`DOM.input('.sel')\`, \`DOM.change('.sel')\`, \`DOM.keydown('.sel')\`, ...;
    optionally followed by \`.value()\` (the matched element's value), \`.checked()\`, \`.data('name')\`
    (the nearest \`data-name\` attribute between the target and the matched element, a string) or
    \`.target()\`. On the raw event, \`e.ownerTarget\` is the element that matched the selector and
    \`e.target\` the one the user touched (perhaps a child of it); read \`e.key\` for keys;
  - \`MCP.select('agent-message')\`: messages you send with \`notify_ui\`, as \`{ id, event, data }\`;
  - \`MCP.select('host')\`, \`'host-context-changed'\`, \`'tool-input'\`, \`'tool-result'\`, \`'teardown'\`.

  Every stream is an xstream \`Stream\`: \`.map(fn)\`, \`.filter(fn)\`, \`.mapTo(value)\`,
  \`.startWith(value)\`, and \`xs.merge(a, b)\` (import \`xs\` from \`duetkit\`) to make one action of
  several sources. An action whose stream yields \`undefined\` or \`null\` still runs: filter those out
  when they mean "nothing".
- **\`model\`**: what each action does. A function \`(state, data) => newState\`, or an object with a
  \`STATE\` reducer and one entry per driver whose return value is sent to it (here \`MCP\`); return
  \`undefined\` from a driver entry to send nothing.

## What the MCP sink takes

- \`{ notifyAgent: { event, data }, error: 'ACTION' }\`: sends you a message on the render's channel
  (you read it with \`poll_agent_messages\`). If it cannot be delivered (the channel was closed or
  expired, the host refused), the \`error\` action runs with \`{ error, request }\`: \`error\` is the
  text, \`request.notifyAgent\` what was sent. The failure is also written to the server log with
  the channel id, so \`tail_server_log\` shows it to you;
- \`{ callTool: 'name', args, ok: 'ACTION', error: 'ACTION' }\`: calls a server tool, for example
  \`get_app_data\` or \`write_server_log\`; the result comes back as the \`ok\` action, a failure as
  the \`error\` action;
- \`{ updateModelContext: value }\`, \`{ message: 'text' }\`, \`{ openLink: 'https://...' }\`,
  \`{ displayMode: 'fullscreen' }\`, \`{ downloadFile: { uri, mimeType, text } }\`.

JSX props: \`className\`, \`data={{ id: 'p1' }}\` (becomes \`data-id\`), \`key\` in lists, \`disabled\`,
\`value\`, \`aria-*\`, \`style={{ display: 'grid', gap: '8px' }}\`. Text in JSX is escaped for you.

## Styling

Buttons, inputs, tables, headings and code already follow the host's colours and fonts (light and
dark) through the display shell's default stylesheet. For your own layout, render a \`<style>\`
element in the view (\`<style>{CSS}</style>\`, with \`CSS\` a string constant of the module) or use
\`style={{ ... }}\`; your rules win over the defaults. Use the host's variables with fallbacks
(\`var(--color-text-secondary, gray)\`) and no fixed pixel heights: the view grows to its content.

## Reading a text selection

Read the selection when the user lets go of the mouse (or a key), in a function the intent maps the
event through; the model stays pure:

\`\`\`jsx duet-component
import { xs } from 'duetkit'

const CSS = '.quote-text { line-height: 1.6 } .picked { color: var(--color-text-secondary, gray) }'

// The selected words inside the element that matched, or null when the selection is elsewhere.
function selectedIn(e) {
  const selection = e.ownerTarget.ownerDocument.getSelection()
  const text = selection ? selection.toString().trim() : ''
  return text && e.ownerTarget.contains(selection.anchorNode) ? { quote: text, id: e.ownerTarget.dataset.id } : null
}

function Quote({ state }) {
  return (
    <div>
      <style>{CSS}</style>
      <p className="quote-text" data={{ id: 'p1' }}>We hold these truths to be self-evident.</p>
      <p className="picked">{state.picked ? \`"\${state.picked.quote}"\` : 'Select some words.'}</p>
      <button type="button" className="send" disabled={!state.picked}>Ask about it</button>
      {state.problem ? <p role="alert">{state.problem}</p> : null}
    </div>
  )
}

Quote.initialState = { picked: null, problem: '' }

Quote.intent = ({ DOM }) => ({
  PICK: xs.merge(DOM.select('.quote-text').events('mouseup'), DOM.select('.quote-text').events('keyup')).map(selectedIn),
  SEND: DOM.click('.send'),
})

Quote.model = {
  PICK: (state, picked) => ({ ...state, picked }),
  SEND: { MCP: (state) => (state.picked ? { notifyAgent: { event: 'quote', data: state.picked }, error: 'SEND_FAILED' } : undefined) },
  SEND_FAILED: (state, failure) => ({ ...state, problem: \`Not sent: \${failure.error}\` }),
}

export default Quote
\`\`\`

## A complete example

A to-do list the agent can add to, which tells the agent when the user finishes an item:

\`\`\`jsx duet-component
function Todo({ state }) {
  return (
    <ul className="todo">
      {state.items.map((item) => (
        <li key={item.id}>
          <label>
            <input type="checkbox" className="done" data={{ id: item.id }} checked={item.done} />
            {item.text}
          </label>
        </li>
      ))}
    </ul>
  )
}

Todo.initialState = { items: [] }

Todo.intent = ({ DOM, MCP }) => ({
  DONE: DOM.change('.done').data('id'),
  MESSAGE: MCP.select('agent-message'),
})

Todo.model = {
  DONE: {
    STATE: (state, id) => ({ ...state, items: state.items.map((i) => (i.id === id ? { ...i, done: !i.done } : i)) }),
    MCP: (state, id) => ({ notifyAgent: { event: 'done', data: { id, text: state.items.find((i) => i.id === id)?.text } } }),
  },
  MESSAGE: (state, message) =>
    message.event === 'add' ? { ...state, items: [...state.items, { id: String(state.items.length + 1), text: String(message.data), done: false }] } : state,
}

export default Todo
\`\`\`

Show it:

\`\`\`json tool-call
{ "tool": "display_component", "arguments": { "title": "To do", "source": "<the module above>" } }
\`\`\`

Then add items over the channel:

\`\`\`json tool-call
{ "tool": "notify_ui", "arguments": { "channel_id": "<channel_id>", "event": "add", "data": "Buy milk" } }
\`\`\`

## Rules

- Import only from \`duetkit\` and \`duetkit/mcp\`. No \`fetch\`, no timers for polling: the sandbox
  has no network, and the \`MCP\` driver already delivers agent messages as they arrive.
- A view that throws shows "<Name> failed to render" in its place. An intent that throws gives the
  component no actions; a model entry that throws changes nothing (a reducer keeps the state, a
  driver entry sends nothing) and the app goes on. Each is written to the server log at level
  \`error\` with the channel id and the line, column and text of your module where it threw: read it
  with \`tail_server_log\`.
- Limits: the module may be at most 1 MB and nest brackets at most 1000 deep; a compile that takes
  longer than 10 s or more than 256 MB is stopped. Each is a \`COMPILE_ERROR\` saying which.
- Keep reducers pure: return a new state, never change the old one.
- Keep state plain JSON (it is what the view renders and you reason about). \`save_app\` keeps the
  module, title and props, not the state: a loaded app starts again from \`initialState\`. Keep what
  must outlive the render in app data (\`put_app_data\`, read back with \`get_app_data\`).
`,
}
