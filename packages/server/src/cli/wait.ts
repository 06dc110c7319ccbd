import { parseArgs } from 'node:util'
import { openChannelStore } from '../channel/open-store.js'
import { DuetError } from 'duetkit/protocol'
import { checkChannelId, type ChannelStore } from '../channel/store.js'
import type { Command } from './command.js'

const DEFAULT_TIMEOUT_SECONDS = 1800

const HELP = `Usage: duet wait <channel_id> [--timeout ${DEFAULT_TIMEOUT_SECONDS}] [--data-dir D]

Blocks until the app has sent the agent at least one message on <channel_id>, then prints the
count and exits. It only counts: the messages stay queued for poll_agent_messages.

Run it as a background command before rendering the app (and again after each answer): its exit
is what wakes an agent whose host reports finished background commands.

Options:
  --timeout S     give up after S seconds (default ${DEFAULT_TIMEOUT_SECONDS})
  --data-dir D    the server's data folder (default: $DUET_DATA_DIR, else the per-user data folder)

Exit codes: 0 a message is waiting, 2 timed out, 1 bad channel id, closed channel or unreadable store.`

const parseWaitArgs = (args: string[]) => parseArgs({ args, allowPositionals: true, options: { timeout: { type: 'string' }, 'data-dir': { type: 'string' } } })

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

    let store: ChannelStore | undefined
    // Ctrl-C or the host killing the watcher ends the wait cleanly instead of leaving the store open.
    const abort = new AbortController()
    const onSignal = () => abort.abort()
    process.once('SIGINT', onSignal)
    process.once('SIGTERM', onSignal)
    try {
      checkChannelId(channel)
      store = await openChannelStore({ backend: 'sqlite', dataDir: parsed.values['data-dir'] })
      const count = await store.waitForMail(channel, 'app-to-agent', timeout * 1000, abort.signal)
      if (count > 0) {
        process.stdout.write(`${count} message${count === 1 ? '' : 's'} waiting on channel ${channel}\n`)
        return 0
      }
      process.stderr.write(abort.signal.aborted ? 'duet wait: interrupted\n' : `duet wait: no message on channel ${channel} after ${timeout} s\n`)
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

function fail(message: string): number {
  process.stderr.write(`duet wait: ${message}\n`)
  return 1
}
