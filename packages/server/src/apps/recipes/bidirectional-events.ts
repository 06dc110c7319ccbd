import type { Recipe } from './recipe.js'

/** The `bidirectional-events` recipe. */
export const bidirectionalEvents: Recipe = {
  name: 'bidirectional-events',
  title: 'Bidirectional events: the app and the agent talk while the app is open',
  description:
    'Talking with an open app: notify_ui and poll_agent_messages, and the four ways to get a turn when the app writes (in-turn long poll, background duet wait, duet wait --follow line monitor, schedule).',
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
app. The channel id comes from the render, so every way starts after it; none can miss a message,
because messages stay queued on the channel until \`poll_agent_messages\` reads them. Pick by what
your host offers:

**1. In-turn long poll (any host; best while the user is actively using the app).** Stay in your
turn and let the poll wait for the next message:

\`\`\`json tool-call
{ "tool": "poll_agent_messages", "arguments": { "channel_id": "<channel_id>", "wait_seconds": 50 } }
\`\`\`

It returns as soon as a message arrives, so answers are immediate. Keep \`wait_seconds\` at 50 or
less: the SDK clients give up on a request after 60 s unless they reset the timer on progress. An
empty result means nothing came yet; call again. Loop: wait, answer, wait again; stop when the user
says they are done or the app sends a final event. While you wait, the user cannot chat with you,
so tell them.

**2. Background exit (hosts that report a finished background command: GitHub Copilot in VS Code's
background terminals, Claude Code's background Bash).** After the render, start the watcher as a
background command; it exits when the app has written:

\`\`\`sh
duet wait <channel_id> --timeout 1800
\`\`\`

It counts the messages queued for you and exits 0 at once if there already are some (so starting
it after the render, or after the user already clicked, loses nothing), else as soon as one
arrives; 2 on timeout. It consumes nothing. When it exits, call \`poll_agent_messages\`, handle
every message, answer with \`notify_ui\`, and start the watcher again. Use the \`--data-dir\` (or
\`--redis-url\`) the display result names, so the watcher reads the server's store:

\`\`\`sh
duet wait <channel_id> --data-dir /path/to/duet-data
\`\`\`

\`--json\` prints \`{"channel_id","waiting"}\` instead of the sentence.

**3. Line monitor (hosts whose monitor wakes you when a running command prints a line, e.g.
Claude Code's Monitor tool).** Start once and leave it running:

\`\`\`sh
duet wait <channel_id> --follow --timeout 1800
\`\`\`

It prints each message the app sends as one JSON line (\`{"id","event","data","at"}\`) as it
arrives, and keeps running (it stops after \`--timeout\` seconds without a message). It never
consumes: the messages stay queued, so after a wake-up call \`poll_agent_messages\` as usual (the
line already tells you what happened; skip ids you have acted on).

**4. Schedule (hosts with scheduled or repeating prompts only).** Claude Code's \`/loop\` or
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
