import { parseArgs } from 'node:util'
import type { Command } from './command.js'

const help = `Usage: duet serve [--stdio | --http [--port 3001] [--host 127.0.0.1]] [--data-dir D]

Runs the Duet agent-apps MCP server. Its tools:

  display          display_ui_to_user (an HTML fragment), display_component (a Duet component,
                   compiled on the server); both show one ui:// shell and return a fresh channel_id
  channels         open_channel, notify_ui, poll_agent_messages, close_channel; notify_agent and
                   poll_ui_messages are for the app view only and stay out of the model's list
  saved apps       save_app, list_saved_apps, load_app (shows it again on a fresh channel),
                   delete_saved_app
  app data         put_app_data, get_app_data
  logs             write_server_log, tail_server_log
  recipes          list_recipes, get_recipe (start with getting-started)

Options:

  --stdio          serve one client over stdin/stdout (the default)
  --http           serve Streamable HTTP at http://<host>:<port>/mcp
  --port N         HTTP port, 0 for any free one (default 3001)
  --host H         HTTP bind address (default 127.0.0.1, loopback only)
  --data-dir D     where channels, saved apps and app data are stored (default $DUET_DATA_DIR, else the per-user data folder)

Where it listens is printed to stderr; stdout carries only the protocol in --stdio mode.
SIGINT/SIGTERM close gracefully and exit 0.`

const parseServeArgs = (args: string[]) =>
  parseArgs({
    args,
    options: {
      stdio: { type: 'boolean' },
      http: { type: 'boolean' },
      port: { type: 'string' },
      host: { type: 'string' },
      'data-dir': { type: 'string' },
    },
    strict: true,
    allowPositionals: false,
  })

/** `duet serve`: the agent-apps server over stdio or HTTP. */
export const serve: Command = {
  summary: 'run the agent-apps MCP server (display, channel, saved-app, data, log and recipe tools) over stdio or HTTP',
  help,
  async run(argv) {
    let values: ReturnType<typeof parseServeArgs>['values']
    try {
      ;({ values } = parseServeArgs(argv))
    } catch (err) {
      process.stderr.write(`duet serve: ${(err as Error).message}\nRun 'duet serve --help' for the options.\n`)
      return 2
    }
    if (values.stdio && values.http) return usage('choose one of --stdio or --http')
    const http = values.http === true
    if (!http && (values.port !== undefined || values.host !== undefined)) return usage('--port and --host need --http')
    const port = values.port === undefined ? 3001 : Number(values.port)
    if (!Number.isInteger(port) || port < 0 || port > 65535) return usage(`--port must be an integer 0-65535, got '${values.port}'`)

    // Loaded here so `duet --help` does not pay for the SDK and the store.
    const { createAgentAppsServer } = await import('../apps/agent-apps-server.js')
    const app = await createAgentAppsServer(values['data-dir'] === undefined ? {} : { dataDir: values['data-dir'] })
    try {
      if (http) {
        const listening = await app.listen({ http: { port, ...(values.host !== undefined && { host: values.host }) } })
        process.stderr.write(`duet serve: listening on ${listening.url}\n`)
      } else {
        await app.listen({ stdio: true })
        process.stderr.write('duet serve: serving MCP on stdio\n')
      }
    } catch (err) {
      await app.close()
      throw err
    }
    // The listeners keep the process alive; shutdown (signal or stdin end) exits through the server.
    return 0
  },
}

function usage(problem: string): number {
  process.stderr.write(`duet serve: ${problem}\nRun 'duet serve --help' for the options.\n`)
  return 2
}
