import type { Recipe } from './recipe.js'

/** The `getting-started` recipe. */
export const gettingStarted: Recipe = {
  name: 'getting-started',
  title: 'Getting started with Duet apps',
  description: 'Read first: what the display, channel, app-data, saved-app and log tools are for, and a first round trip.',
  text: `# Getting started with Duet apps

Duet lets you (the agent) show the user an interactive app inside the chat and keep talking to it
while it is open. Read this first; the other recipes go deeper.

## The pieces

- **Display tools** show an app: \`display_ui_to_user\` renders an HTML fragment, whose scripts get
  \`window.duet\` (below), and \`display_component\`
  renders a Duet component (see the \`duet-components\` recipe). Each render gets its own channel,
  whose id the tool returns; keep it. The app grows to fit its content.
- **Channels** carry messages both ways while the app is open: you send with \`notify_ui\` and read
  with \`poll_agent_messages\`; the app uses \`notify_agent\` and \`poll_ui_messages\`, which you do not
  see. See \`bidirectional-events\`.
- **App data** keeps bulky content out of the app: store it with \`put_app_data\`, and the app reads
  it a page at a time with \`get_app_data\`, once you display it with that \`app\` (a view reads only
  its own app's data). See \`content-viewer\`.
- **Saved apps**: \`save_app\` keeps what was rendered on a channel under a name; \`list_saved_apps\`
  and \`load_app\` bring it back.
- **Logs**: the app writes with \`write_server_log\`, you read with \`tail_server_log\`. See \`debugging\`.

The server never runs code you send it. Apps run only in the host's sandboxed iframe; the server
stores data and passes messages.

## A first round trip

Show a small app that talks back. The result's text carries the channel id and the exact commands
to wait for the user:

\`\`\`json tool-call
{ "tool": "display_ui_to_user", "arguments": { "title": "Hello", "html": "<h1>Hello</h1><button id=\\"hi\\" type=\\"button\\">Say hi</button><p id=\\"reply\\"></p><script>document.getElementById('hi').onclick = () => duet.notifyAgent('hi', { from: 'the app' }); duet.onAgentMessage((m) => { document.getElementById('reply').textContent = m.data })</script>" } }
\`\`\`

When the user clicks, the app's message waits for you on the channel. Read it (\`wait_seconds\`
makes the call wait for the next message, up to that long; keep it under 60 so common clients do
not time out, and call again if it returns empty):

\`\`\`json tool-call
{ "tool": "poll_agent_messages", "arguments": { "channel_id": "<channel_id>", "wait_seconds": 50 } }
\`\`\`

Answer; the app shows it at once:

\`\`\`json tool-call
{ "tool": "notify_ui", "arguments": { "channel_id": "<channel_id>", "event": "reply", "data": "Hi back from the agent" } }
\`\`\`

If the user likes it, save it under a name (lowercase letters, digits, \`_\` or \`-\`):

\`\`\`json tool-call
{ "tool": "save_app", "arguments": { "name": "hello", "channel_id": "<channel_id>", "description": "A greeting card" } }
\`\`\`

Later, in this or another conversation:

\`\`\`json tool-call
{ "tool": "list_saved_apps", "arguments": {} }
\`\`\`

\`\`\`json tool-call
{ "tool": "load_app", "arguments": { "name": "hello" } }
\`\`\`

\`load_app\` shows the saved app to the user again by itself, on a fresh channel: do not display
it again. Its result carries the new \`channel_id\` (and, for an HTML app, the \`html\`); use the new
id from then on. The old copy keeps its old channel; a \`notify_ui\` there is answered with a
\`hint\` and \`moved_to\` naming the new one.

## What a fragment's scripts get: \`window.duet\`

- \`duet.ready\`: a promise of the render's channel id, resolved once the tool result has arrived;
  \`duet.channelId\` is the id, or \`undefined\` before that.
- \`duet.notifyAgent(event, data)\`: sends you \`{ event, data }\` on the channel; resolves \`{ id }\`.
- \`duet.onAgentMessage(fn)\`: calls \`fn({ id, event, data })\` for each \`notify_ui\` message, in
  order; returns a function that stops it.
- \`duet.callTool(name, args)\`: calls a tool of this server (e.g. \`get_app_data\`); resolves with
  the tool result \`{ content, structuredContent }\` and rejects with an \`Error\` whose \`code\` says
  why.
- \`duet.log(level, message, data)\`: a line in the server log, for \`tail_server_log\`.
- \`duet.updateModelContext(value)\`, \`duet.sendMessage(text)\`, \`duet.openLink(url)\`: ask the host.
- \`duet.host\`, \`duet.hostContext\`, \`duet.theme\`, \`duet.onTheme(fn)\`: what the host said about
  itself and its look (see \`host-capabilities\`); \`duet.toolInput\`: the display tool's arguments.

\`\`\`html fragment
<p id="greeting">...</p>
<script>
  duet.ready.then(async () => {
    const page = await duet.callTool('get_app_data', { app: 'hello', key: 'greeting' })
    document.getElementById('greeting').textContent = page.structuredContent.value
  })
</script>
\`\`\`

## Recipes

\`list_recipes\` names them all; \`get_recipe\` reads one:

\`\`\`json tool-call
{ "tool": "get_recipe", "arguments": { "name": "bidirectional-events" } }
\`\`\`

## Rules of thumb

- Escape any user or model text you put into HTML.
- Keep the app compact inline; hosts give an iframe limited height. Use no fixed pixel heights: the
  view grows to fit its content.
- Plain HTML already looks at home: the display shell styles buttons, inputs, tables, headings and
  code with the host's own colours and fonts, in light and dark. Add your own \`<style>\` for layout;
  your rules win. To drop the default look entirely, put \`data-duet-style="none"\` on any element.
- Something wrong in the app? Its errors are logged with the channel id: \`tail_server_log\`.
- One render, one channel. An old copy of the app keeps its own channel and never sees new messages.
`,
}
