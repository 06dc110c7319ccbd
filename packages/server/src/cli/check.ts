import { DuetError } from 'duetkit/protocol'
import type { Command } from './command.js'

const HELP = `Usage: duet check --server <url> | --stdio "<command>"  --tool NAME [--args JSON] [options]
       duet check <view.html> [options]

Runs an MCP App view headless in Chromium, behind duet dev's sandbox proxy with the official
AppBridge, and reports check by check: the spec's lifecycle and JSON-RPC rules a host can observe
(handshake and its order, size reported, strict JSON-RPC, request ids, ping, teardown and silence
after it), requests only for capabilities the host advertised, a forged message from a sibling frame
ignored, console errors, CSP violations, render in light and dark; with a server, its metadata as
a group of its own (resourceUri, visibility, MIME type, CSP and permissions).
Always ends: every step and the whole run have deadlines, a view over the size cap is refused
before the browser sees it, and a view whose event loop is blocked is reported and its browser killed.

  --server <url>         the MCP server over Streamable HTTP
  --stdio "<command>"    a server to spawn over stdio (split like a shell would, never run by one)
  --tool NAME            the app tool to call; its ui:// resource is the view checked
  --args JSON            the tool's arguments as a JSON object (default {})
  --preset P             the host to play: full (default), claude, chatgpt, vscode
  --shots DIR            write view-light.png and view-dark.png there
  --chromium PATH        Chromium's executable (else CHROMIUM_PATH, DUET_CHROMIUM, /usr/bin/chromium)
  --timeout S            the whole run's deadline in seconds (default 60)
  --step-timeout S       each step's deadline in seconds (default 15)
  --max-view-bytes N     the largest view accepted (default 5242880, 5 MiB)
  --no-sandbox           run Chromium without its sandbox (always so as root, as the report says)
  --json                 print the report as JSON, for CI

Exit codes: 0 every check passed; 1 a check failed or the view/server stopped a step (named);
2 the check could not run (bad command line, no browser, server unreachable, tool or view missing).
Needs playwright-core (npm install --save-dev playwright-core) and Chromium.`

// Past the run's own deadline, cleanup included: the process ends whatever still holds it.
const GRACE_MS = 10_000

export const check: Command = {
  summary: 'run the MCP Apps conformance checks on a view, headless',
  help: HELP,
  async run(argv) {
    const { parseCheckArgs } = await import('../check/arguments.js')
    const { runCheck, DEFAULT_TIMEOUT_MS } = await import('../check/run-check.js')
    const { killQuietly } = await import('../check/server-client.js')
    const { formatReport } = await import('../check/report.js')
    const { startReaper } = await import('./reaper.js')
    let parsed: ReturnType<typeof parseCheckArgs>
    try {
      parsed = parseCheckArgs(argv)
    } catch (err) {
      process.stderr.write(`duet check: ${(err as Error).message}\n`)
      return 2
    }
    const { json, ...options } = parsed
    // A spawned stdio server dies with this process however it ends: the exit handlers below when they
    // run, the reaper (with Chromium) when they cannot, as on SIGKILL.
    const reaper = startReaper()
    let serverPid: number | null = null
    const killServer = () => {
      if (serverPid !== null) killQuietly(serverPid)
    }
    process.on('exit', killServer)
    const onSignal = (signal: NodeJS.Signals) => {
      killServer()
      process.stderr.write(`duet check: stopped by ${signal}\n`)
      process.exit(2)
    }
    process.once('SIGINT', onSignal)
    process.once('SIGTERM', onSignal)
    process.once('SIGHUP', onSignal)
    const watchdog = setTimeout(
      () => {
        process.stderr.write('duet check: the run did not end after its deadline and cleanup; exiting\n')
        killServer()
        process.exit(1)
      },
      (options.timeoutMs ?? DEFAULT_TIMEOUT_MS) + GRACE_MS,
    )
    watchdog.unref()
    try {
      const report = await runCheck({
        ...options,
        onServerPid: (pid) => {
          serverPid = pid
          reaper.watch(pid)
        },
        onBrowserPid: (pid) => reaper.watch(pid),
      })
      reaper.done()
      process.stdout.write(`${json ? JSON.stringify(report, null, 2) : formatReport(report)}\n`)
      return report.pass ? 0 : 1
    } catch (err) {
      // The run could not start: say why in one line (and as JSON for CI), exit 2 so CI can tell it from a failed check.
      const message = err instanceof DuetError ? `${err.code}: ${err.message}` : String(err instanceof Error ? err.message : err)
      if (json) process.stdout.write(`${JSON.stringify({ pass: false, error: message })}\n`)
      process.stderr.write(`duet check: ${message}\n`)
      return 2
    } finally {
      clearTimeout(watchdog)
    }
  },
}
