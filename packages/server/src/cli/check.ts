import { DuetError } from 'duetkit/protocol'
import type { Command } from './command.js'

const HELP = `Usage: duet check --server <url> | --stdio "<command>"  --tool NAME [--args JSON] [options]
       duet check <view.html> [options]

Runs an MCP App view headless in Chromium, behind duet dev's sandbox proxy with the official
AppBridge, and reports check by check: handshake and protocol version, size reported, strict
JSON-RPC, requests only for capabilities the host advertised, a forged message from a sibling
frame ignored, teardown answered, console errors, CSP violations, render in light and dark.
Exits 0 only when every check passes.

  --server <url>       the MCP server over Streamable HTTP
  --stdio "<command>"  a server to spawn over stdio (split like a shell would, never run by one)
  --tool NAME          the app tool to call; its ui:// resource is the view checked
  --args JSON          the tool's arguments as a JSON object (default {})
  --preset P           the host to play: full (default), claude, chatgpt, vscode
  --shots DIR          write view-light.png and view-dark.png there
  --chromium PATH      Chromium's executable (else CHROMIUM_PATH, DUET_CHROMIUM, /usr/bin/chromium)
  --json               print the report as JSON, for CI

Needs playwright-core (npm install --save-dev playwright-core) and Chromium.`

export const check: Command = {
  summary: 'run the MCP Apps conformance checks on a view, headless',
  help: HELP,
  async run(argv) {
    const { parseCheckArgs } = await import('../check/arguments.js')
    const { runCheck } = await import('../check/run-check.js')
    const { formatReport } = await import('../check/report.js')
    const { json, ...options } = parseCheckArgs(argv)
    try {
      const report = await runCheck(options)
      process.stdout.write(`${json ? JSON.stringify(report, null, 2) : formatReport(report)}\n`)
      return report.pass ? 0 : 1
    } catch (err) {
      // The run could not start: say why in one line (and as JSON for CI), exit 2 so CI can tell it from a failed check.
      const message = err instanceof DuetError ? `${err.code}: ${err.message}` : String(err instanceof Error ? err.message : err)
      if (json) process.stdout.write(`${JSON.stringify({ pass: false, error: message })}\n`)
      process.stderr.write(`duet check: ${message}\n`)
      return 2
    }
  },
}
