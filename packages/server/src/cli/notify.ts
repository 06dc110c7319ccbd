import { parseArgs } from 'node:util'
import { DuetError } from 'duetkit/protocol'
import { checkChannelId, type ChannelStore } from '../channel/store.js'
import { untouchedText } from '../channel/untouched-hint.js'
import type { Command } from './command.js'
import { commandFailure } from './command-failure.js'
import { openWaitStore } from './wait.js'

const fail = commandFailure('notify')

const HELP = `Usage: duet notify <channel_id> <event> [json] [--data-dir D | --redis-url URL]

Sends the app one message on <channel_id>, as the agent's notify_ui does, and prints its id. The app
receives it on its next poll. [json] is the message's data: any JSON value (quote it for the shell);
leave it out for none. Use '-' to read the JSON from standard input.

With 'duet wait' it answers the app from a terminal:

  while duet wait "$CH" --json; do          # exits 0 once the app has sent something
    ...read it (poll_agent_messages, or duet wait --follow)...
    duet notify "$CH" answer '{"text":"Done"}'
  done

Options:
  --data-dir D    the server's data folder (default: $DUET_DATA_DIR, else the per-user data folder)
  --redis-url URL the server's Redis, when it runs with one (default: $DUET_REDIS_URL)
  --json          print {"channel_id","id"} as one JSON line instead of the sentence

Exit codes: 0 sent, 1 bad arguments, bad channel id, closed or full channel, or unreadable store.`

const parseNotifyArgs = (args: string[]) =>
  parseArgs({
    args,
    allowPositionals: true,
    options: {
      'data-dir': { type: 'string' },
      'redis-url': { type: 'string' },
      json: { type: 'boolean' },
    },
  })

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

/** The data argument as JSON: a parse error names the argument, so a shell-quoting slip is plain to see. */
async function parseData(text: string | undefined): Promise<unknown> {
  if (text === undefined) return undefined
  const source = text === '-' ? await readStdin() : text
  try {
    return JSON.parse(source)
  } catch (err) {
    throw new DuetError('BAD_MESSAGE', `[json] is not valid JSON (${(err as Error).message}); quote it for the shell, e.g. '{"text":"hi"}'.`)
  }
}

/** `duet notify`: the terminal's notify_ui, so a person or script can answer the app without an MCP client. */
export const notify: Command = {
  summary: 'send an app a message on a channel from the terminal (the agent side of notify_ui)',
  help: HELP,
  async run(argv) {
    let parsed: ReturnType<typeof parseNotifyArgs>
    try {
      parsed = parseNotifyArgs(argv)
    } catch (err) {
      return fail(`${(err as Error).message}. Run 'duet notify --help'.`)
    }
    const [channel, event, dataText, ...extra] = parsed.positionals
    if (channel === undefined || event === undefined || extra.length > 0) {
      return fail(`expected <channel_id> <event> [json]. Run 'duet notify --help'.`)
    }
    let store: ChannelStore | undefined
    try {
      checkChannelId(channel)
      const data = await parseData(dataText)
      store = await openWaitStore(parsed.values)
      const id = await store.send(channel, 'agent-to-app', { event, data })
      process.stdout.write(parsed.values.json ? `${JSON.stringify({ channel_id: channel, id })}\n` : `sent message ${id} ('${event}') on channel ${channel}\n`)
      // A send to a channel no app has touched is stored for a view that starts later, but is most often a typo.
      if (!(await store.appSeen(channel))) process.stderr.write(`duet notify: hint: ${untouchedText(channel)}\n`)
      return 0
    } catch (err) {
      if (err instanceof DuetError) return fail(`${err.code}: ${err.message}`)
      throw err
    } finally {
      await store?.dispose()
    }
  },
}
