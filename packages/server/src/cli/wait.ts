import { parseArgs } from 'node:util'
import { openChannelStore } from '../channel/open-store.js'
import { DuetError } from 'duetkit/protocol'
import { checkChannelId, type ChannelStore } from '../channel/store.js'
import { untouchedText } from '../channel/untouched-hint.js'
import type { Command } from './command.js'
import { commandFailure } from './command-failure.js'
import { resolveRedisUrl } from './redis-url.js'

const fail = commandFailure('wait')
const DEFAULT_TIMEOUT_SECONDS = 1800

const HELP = `Usage: duet wait <channel_id> [--timeout ${DEFAULT_TIMEOUT_SECONDS}] [--json | --follow] [--data-dir D | --redis-url URL]

Blocks until the app has sent the agent at least one message on <channel_id>, then prints the
count and exits. It only counts: the messages stay queued for poll_agent_messages.

Run it as a background command once the app is shown (the channel id comes from the display
result) and again after each answer: its exit is what wakes an agent whose host reports finished
background commands. Messages the app sent before it started count too, so none is missed.

With --follow it keeps running and prints each message the app sends as one JSON line
({"id","event","data","at"}) as it arrives, for hosts whose monitor wakes the agent on output.
It follows by message id and never acknowledges or removes anything: the messages stay queued
for poll_agent_messages (skip ids you already acted on).

Options:
  --timeout S     give up after S seconds (default ${DEFAULT_TIMEOUT_SECONDS}); with --follow, after S s without a message
  --json          print {"channel_id","waiting"} as one JSON line instead of the sentence
  --follow        keep running, printing one JSON line per message (see above)
  --data-dir D    the server's data folder (default: $DUET_DATA_DIR, else the per-user data folder)
  --redis-url URL the server's Redis, when it runs with one (default: $DUET_REDIS_URL)

When no app has touched the channel yet (no view has used it and no display tool or open_channel
created it: often a mistyped id), it says so at once on stderr, and again when it times out; with
--json a timeout prints {"channel_id","waiting":0,"hint"}.

Exit codes: 0 a message is waiting, 2 timed out, 1 bad channel id, closed channel or unreadable store.`

const parseWaitArgs = (args: string[]) =>
  parseArgs({
    args,
    allowPositionals: true,
    options: {
      timeout: { type: 'string' },
      'data-dir': { type: 'string' },
      'redis-url': { type: 'string' },
      json: { type: 'boolean' },
      follow: { type: 'boolean' },
    },
  })

type WaitValues = ReturnType<typeof parseWaitArgs>['values']

/** Opens the store `duet wait` reads: the one place that decides which store the flags name. */
export async function openWaitStore(values: WaitValues): Promise<ChannelStore> {
  const redis = resolveRedisUrl(values['redis-url'], values['data-dir'])
  if (redis.problem) throw new DuetError('INVALID_OPTION', `${redis.problem}.`, { option: 'redis-url' })
  return openChannelStore(redis.url === undefined ? { backend: 'sqlite', dataDir: values['data-dir'] } : { backend: 'redis', url: redis.url })
}

/** Prints each message above the last printed id as it arrives, until the wait runs out or the signal fires. */
async function follow(store: ChannelStore, channel: string, timeoutMs: number, signal: AbortSignal): Promise<number> {
  let since = '0'
  for (;;) {
    const batch = await store.read(channel, 'app-to-agent', { since, waitMs: timeoutMs, signal, max: 100 })
    if (batch.length === 0) break
    for (const message of batch) process.stdout.write(`${JSON.stringify(message)}\n`)
    since = batch[batch.length - 1].id
  }
  process.stderr.write(signal.aborted ? 'duet wait: interrupted\n' : `duet wait: no message on channel ${channel} for ${timeoutMs / 1000} s\n`)
  return signal.aborted ? 0 : 2
}

/** `duet wait`: the watcher an agent runs in the background to be woken when the app writes. */
export const wait: Command = {
  summary: 'block until an app has sent the agent a message on a channel (never consumes it)',
  help: HELP,
  async run(argv) {
    let parsed: ReturnType<typeof parseWaitArgs>
    try {
      parsed = parseWaitArgs(argv)
    } catch (err) {
      return fail(`${(err as Error).message}. Run 'duet wait --help'.`)
    }
    const [channel, ...extra] = parsed.positionals
    if (channel === undefined || extra.length > 0) return fail(`expected exactly one channel id. Run 'duet wait --help'.`)
    const timeoutText = parsed.values.timeout ?? String(DEFAULT_TIMEOUT_SECONDS)
    const timeout = Number(timeoutText)
    if (!/^\d+(\.\d+)?$/.test(timeoutText) || !Number.isFinite(timeout)) return fail(`--timeout must be a number of seconds, got '${timeoutText}'.`)
    if (parsed.values.json && parsed.values.follow) return fail(`--json and --follow cannot be combined (--follow already prints JSON lines).`)

    let store: ChannelStore | undefined
    // Ctrl-C or the host killing the watcher ends the wait cleanly instead of leaving the store open.
    const abort = new AbortController()
    const onSignal = () => abort.abort()
    process.once('SIGINT', onSignal)
    process.once('SIGTERM', onSignal)
    try {
      checkChannelId(channel)
      store = await openWaitStore(parsed.values)
      // Said at once (a mistyped id would otherwise only show as a timeout), and again with the timeout below.
      let hint = (await store.appSeen(channel)) ? undefined : untouchedText(channel)
      if (hint) process.stderr.write(`duet wait: hint: ${hint}\n`)
      if (parsed.values.follow) return await follow(store, channel, timeout * 1000, abort.signal)
      const count = await store.waitForMail(channel, 'app-to-agent', timeout * 1000, abort.signal)
      if (count > 0) {
        process.stdout.write(
          parsed.values.json
            ? `${JSON.stringify({ channel_id: channel, waiting: count })}\n`
            : `${count} message${count === 1 ? '' : 's'} waiting on channel ${channel}\n`,
        )
        return 0
      }
      process.stderr.write(abort.signal.aborted ? 'duet wait: interrupted\n' : `duet wait: no message on channel ${channel} after ${timeout} s\n`)
      if (hint && !(await store.appSeen(channel))) {
        if (!abort.signal.aborted) process.stderr.write(`duet wait: hint: ${hint}\n`)
      } else hint = undefined
      if (parsed.values.json) process.stdout.write(`${JSON.stringify({ channel_id: channel, waiting: 0, ...(hint && { hint }) })}\n`)
      return 2
    } catch (err) {
      if (err instanceof DuetError) return fail(err.message)
      throw err
    } finally {
      process.off('SIGINT', onSignal)
      process.off('SIGTERM', onSignal)
      await store?.dispose()
    }
  },
}
