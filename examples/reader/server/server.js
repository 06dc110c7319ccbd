// The reader's MCP server: open_reader shows the Declaration reader (../dist/index.html) on a fresh
// channel, and the channel tools carry questions from the reader to the agent and answers back.
//   node server/server.js           Streamable HTTP on http://127.0.0.1:3002/mcp (PORT and HOST override)
//   node server/server.js --stdio   stdio, for hosts that spawn the server
// Channels live in DUET_DATA_DIR (default: the per-user data folder), so `duet wait` finds them too.
import { fileURLToPath } from 'node:url'
import { createAppServer } from '@duetkit/server'
import { openChannelStore, registerChannelTools, resolveDataDir } from '@duetkit/server/channels'

const BUILT_VIEW = fileURLToPath(new URL('../dist/index.html', import.meta.url))

/**
 * Builds the reader server over a channel store in `dataDir`, showing the single-file build at
 * `viewFile` (default ../dist/index.html, from `npm run build`). Closing the server closes the store.
 */
export async function createReaderServer({ dataDir = resolveDataDir(), viewFile = BUILT_VIEW } = {}) {
  const channels = await openChannelStore({ dataDir })
  const app = createAppServer({
    name: 'reader',
    version: '1.0.0',
    instructions: 'open_reader shows the Declaration of Independence; the user asks about passages in it and you answer beside them.',
  })
  registerChannelTools(app, channels)
  app.appTool(
    'open_reader',
    {
      title: 'Declaration reader',
      description:
        'Show the Declaration of Independence as a reader: the user selects words in a passage and asks about them; ' +
        'each question reaches you as an "ask" message on the returned channel, and your answer appears beside the passage.',
      inputSchema: {},
      annotations: { readOnlyHint: false, openWorldHint: false },
      view: {
        // Read at every request, so `npm run build` shows up without restarting the server.
        file: viewFile,
        uri: 'ui://reader/view.html',
        prefersBorder: true,
      },
    },
    async () => {
      const channelId = await channels.open()
      const text =
        `The reader is open on channel ${channelId}. Questions arrive as "ask" messages ` +
        '{ thread_id, quote, question, paragraph_id, paragraph, history }.\n' +
        `Wait for them with \`duet wait ${channelId} --data-dir ${dataDir}\` as a background command (then poll_agent_messages), ` +
        `or with poll_agent_messages({ "channel_id": "${channelId}", "wait_seconds": 120 }).\n` +
        `Answer each one with notify_ui({ "channel_id": "${channelId}", "event": "answer", "data": { "thread_id": ..., "text": ... } }) in two to four sentences.`
      // The reader's MCP driver takes its channel from structuredContent.channel_id.
      return { content: [{ type: 'text', text }], structuredContent: { channel_id: channelId } }
    },
  )
  app.onClose(() => channels.dispose())
  return app
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const app = await createReaderServer()
  if (process.argv.includes('--stdio')) {
    await app.listen({ stdio: true })
    process.stderr.write('reader: serving MCP on stdio\n')
  } else {
    const port = process.env.PORT === undefined ? 3002 : Number(process.env.PORT)
    const listening = await app.listen({ http: { port, host: process.env.HOST ?? '127.0.0.1' } })
    process.stderr.write(`reader: listening on ${listening.url}\n`)
  }
}
