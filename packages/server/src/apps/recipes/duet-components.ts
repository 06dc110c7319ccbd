import type { Recipe } from './recipe.js'

/** The `duet-components` recipe. */
export const duetComponents: Recipe = {
  name: 'duet-components',
  title: 'Writing Duet components for display_component',
  description: 'Writing a Duet component for display_component: view, initialState, intent, model, the DOM and MCP sources and the MCP sink.',
  text: `# Writing Duet components for display_component

A Duet component is a view function plus three statics. \`display_component\` bundles it into the
app page with the Duet runtime; you write one module, no build step.

## The shape

- **Default export**: the view, \`({ state }) => JSX\`. Pure: it only reads \`state\`.
- **\`initialState\`**: the state before anything happens.
- **\`intent({ DOM, MCP })\`**: names the actions, each a stream of events:
  - \`DOM.click('.sel')\`, \`DOM.input('.sel')\`, \`DOM.change('.sel')\`, \`DOM.keydown('.sel')\`, ... (any
    event name), optionally followed by \`.value()\` (the input's value), \`.checked()\`,
    \`.data('name')\` (the nearest \`data-name\` attribute, a string) or \`.key()\`;
  - \`MCP.select('agent-message')\`: messages you send with \`notify_ui\`, as \`{ id, event, data }\`;
  - \`MCP.select('host')\`, \`'host-context-changed'\`, \`'tool-input'\`, \`'tool-result'\`, \`'teardown'\`.
- **\`model\`**: what each action does. A function \`(state, data) => newState\`, or an object with a
  \`STATE\` reducer and one entry per driver whose return value is sent to it (here \`MCP\`).

## What the MCP sink takes

- \`{ notifyAgent: { event, data } }\`: sends you a message on the render's channel (you read it
  with \`poll_agent_messages\`);
- \`{ callTool: 'name', args, ok: 'ACTION', error: 'ACTION' }\`: calls a server tool, for example
  \`get_app_data\` or \`write_server_log\`; the result comes back as the \`ok\` action;
- \`{ updateModelContext: value }\`, \`{ message: 'text' }\`, \`{ openLink: 'https://...' }\`,
  \`{ displayMode: 'fullscreen' }\`, \`{ downloadFile: { uri, mimeType, text } }\`.

JSX props: \`className\`, \`data={{ id: 'p1' }}\` (becomes \`data-id\`), \`key\` in lists, \`disabled\`,
\`value\`, \`aria-*\`. Text in JSX is escaped for you.

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

- No imports: the runtime and JSX are provided. No \`fetch\`, no timers for polling: the sandbox
  has no network, and the \`MCP\` driver already delivers agent messages as they arrive.
- Keep reducers pure: return a new state, never change the old one.
- State must be plain JSON, so the app can be saved and restored.
`,
}
