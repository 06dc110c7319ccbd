import type { Recipe } from './recipe.js'

/** The `bidirectional-events` recipe. */
export const bidirectionalEvents: Recipe = {
  name: 'bidirectional-events',
  title: 'Bidirectional events: the app and the agent talk while the app is open',
  description:
    'Talking with an open app: notify_ui and poll_agent_messages, and how to get a turn when the app writes (background duet wait, foreground wait_seconds, scheduled polling).',
  text: `# Bidirectional events: the app and the agent talk while the app is open

The app and you share a channel. Each side writes through one tool and reads through another:

| Direction | Sender calls | Receiver calls |
| --- | --- | --- |
| you → app | \`notify_ui({ channel_id, event, data })\` | the app: \`poll_ui_messages\` (long-polls, app only) |
| app → you | the app: \`notify_agent\` (app only) | \`poll_agent_messages({ channel_id, wait_seconds? })\` |

Messages are \`{ id, event, data }\`, delivered once each, oldest first. \`data\` is any JSON value.

In a Duet component, the app side is the \`MCP\` driver: the sink value
\`{ notifyAgent: { event, data } }\` sends, and \`MCP.select('agent-message')\` receives. Under
\`display_component\` the driver is already on the render's channel; a Duet view built and served
on its own opts in with \`makeMcpAppDriver({ channel: agentChannel() })\` (both from \`duetkit/mcp\`):

\`\`\`jsx duet-component
function Ping({ state }) {
  return (
    <div>
      <button type="button" className="ping">Ping the agent</button>
      <p className="reply">{state.reply}</p>
    </div>
  )
}

Ping.initialState = { reply: '' }

Ping.intent = ({ DOM, MCP }) => ({
  PING: DOM.click('.ping'),
  MESSAGE: MCP.select('agent-message'),
})

Ping.model = {
  PING: { MCP: () => ({ notifyAgent: { event: 'ping', data: { at: 'now' } } }) },
  MESSAGE: (state, message) => (message.event === 'pong' ? { ...state, reply: String(message.data) } : state),
}

export default Ping
\`\`\`

Your answer to a ping:

\`\`\`json tool-call
{ "tool": "notify_ui", "arguments": { "channel_id": "<channel_id>", "event": "pong", "data": "Hello from the agent" } }
\`\`\`

## Getting a turn when the app writes

You only act during a turn, so something has to give you one when the user does something in the
app. Pick by what your host offers:

**1. A background watcher (best when the host reports finished background commands).** GitHub
Copilot in VS Code (background terminals) and Claude Code (background Bash, or its Monitor tool)
do. Start the watcher as a background command *before* you render, so the app's first message is
not missed:

\`\`\`sh
duet wait <channel_id> --timeout 1800
\`\`\`

It exits 0 as soon as the app has written (it only counts; nothing is consumed), 2 on timeout.
When it exits, call \`poll_agent_messages\`, handle every message, answer with \`notify_ui\`, and start
the watcher again. If the server runs with \`--data-dir\`, give the watcher the same folder:

\`\`\`sh
duet wait <channel_id> --data-dir /path/to/duet-data
\`\`\`

Waiting costs no tokens and leaves the chat free, but a background wake-up can take 10-30 s.

**2. A foreground wait (best while the user is actively using the app).** Stay in your turn and let
the poll wait for the next message:

\`\`\`json tool-call
{ "tool": "poll_agent_messages", "arguments": { "channel_id": "<channel_id>", "wait_seconds": 120 } }
\`\`\`

It returns as soon as a message arrives, so answers are immediate. Loop: wait, answer, wait again;
stop when the user says they are done or the app sends a final event. While you wait, the user
cannot chat with you, so tell them.

**3. Scheduled polling (hosts with scheduled or repeating prompts only).** Claude Code's \`/loop\` or
scheduled tasks, and Cowork's scheduled jobs, can run a prompt such as "call poll_agent_messages
for channel <channel_id>, answer each message with notify_ui" every few minutes. Simple, but every
run is a model turn even with no mail, and a reply can take a whole interval.

If none of these exist, ask the user to tell you in the chat when they have done something, then
poll once.

## Finishing

When the conversation with the app is over, close the channel; its unread messages are dropped:

\`\`\`json tool-call
{ "tool": "close_channel", "arguments": { "channel_id": "<channel_id>" } }
\`\`\`

Idle channels also expire by themselves.
`,
}
