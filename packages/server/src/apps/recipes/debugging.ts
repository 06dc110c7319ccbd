import type { Recipe } from './recipe.js'

/** The `debugging` recipe. */
export const debugging: Recipe = {
  name: 'debugging',
  title: 'Debugging an app',
  description: 'Blank or silent apps: write_server_log from the app, tail_server_log from you, duet dev.',
  text: `# Debugging an app

The app runs in the host's iframe, where you cannot see its console. Give it a way to tell you.

## The log back channel

The app writes with \`write_server_log({ level, message, data? })\` (app only; the MCP levels
\`debug\`, \`info\`, \`notice\`, \`warning\`, \`error\`, \`critical\`, \`alert\`, \`emergency\`; not
\`warn\`); you read the newest lines with \`tail_server_log\`:

\`\`\`json tool-call
{ "tool": "write_server_log", "arguments": { "level": "error", "message": "page failed to load", "data": { "page": 3 } } }
\`\`\`

\`\`\`json tool-call
{ "tool": "tail_server_log", "arguments": { "n": 20, "level": "warning" } }
\`\`\`

The log keeps the newest few thousand lines; a message is at most 4000 characters and \`data\` at
most 16 KB of JSON, so log summaries (counts, ids, the first items), not whole payloads.

In a component, log through the \`MCP\` sink:

\`\`\`jsx duet-component
function Logged({ state }) {
  return <button type="button" className="go">{state.clicks ? \`Clicked \${state.clicks} times\` : 'Click me'}</button>
}

Logged.initialState = { clicks: 0 }

Logged.intent = ({ DOM }) => ({ GO: DOM.click('.go') })

Logged.model = {
  GO: {
    STATE: (state) => ({ ...state, clicks: state.clicks + 1 }),
    MCP: (state) => ({ callTool: 'write_server_log', args: { level: 'debug', message: 'clicked', data: { clicks: state.clicks + 1 } } }),
  },
}

export default Logged
\`\`\`

The display shell already writes every runtime failure of an app to the log at level \`error\`,
with the render's \`channel_id\` in \`data\` (the display result says so too):

- a fragment's script error (\`Script error: ...\`, with \`line\`, \`column\` and the stack) or
  unhandled promise rejection;
- a component whose view, intent or model throws (\`Component error: ...\`, ending with the line,
  column and text of your module where it threw, also in \`data\`; a view that throws shows
  "... failed to render" in its place, a reducer that throws keeps the state);
- a \`notifyAgent\` that could not be delivered (\`notifyAgent('ask') failed: ...\`), from a fragment
  or a component, even when the app handles it.

So when an app looks wrong, start with \`tail_server_log({ "level": "error" })\` and match the
\`channel_id\`. Log your own milestones with \`duet.log\`:

\`\`\`html fragment
<script>
  duet.ready.then((channel) => duet.log('info', 'app started', { channel }))
  document.addEventListener('click', (e) => duet.log('debug', 'click', { on: e.target.tagName }))
</script>
\`\`\`

## Symptoms

- **Blank app**: a script threw before drawing anything; look for an \`error\` line with its
  channel id in the log. If
  the log is empty too, the app never reached the host: check that the fragment has no \`<iframe
  srcdoc>\` and loads nothing from the network (apps have no network access).
- **Nothing happens on a click**: the handler is not bound; log from it to see.
- **A tool call fails**: the error text starts with a code (\`INVALID_NAME\`, \`NOT_FOUND\`,
  \`TOO_LARGE\`, ...) and says what to change.

## Trying an app outside the chat

\`duet dev\` runs a local host in your browser for the agent-apps server, with the same iframe
sandbox, so you can reload and look at the console:

\`\`\`sh
duet dev --stdio "duet serve --stdio"
\`\`\`
`,
}
