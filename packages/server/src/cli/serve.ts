import { parseArgs } from 'node:util'
import type { Command } from './command.js'
import { resolveRedisUrl } from './redis-url.js'

const help = `Usage: duet serve [--stdio | --http [--port 3001] [--host 127.0.0.1] [--allow-origin O]… [--sessions]] [--data-dir D | --redis-url URL]

Runs the Duet agent-apps MCP server. Its tools:

  display          display_ui_to_user (an HTML fragment), display_component (a Duet component,
                   compiled on the server); both show one ui:// shell and return a fresh channel_id;
                   get_render, for the shell only, fetches a render's compiled component
  channels         open_channel, notify_ui, poll_agent_messages, close_channel; notify_agent and
                   poll_ui_messages are for the app view only and stay out of the model's list;
                   channel_stats reports the store (backend, unreadable rows set aside)
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
  --allow-origin O a browser origin (https://app.example.com) or hostname that may call the server,
                   besides loopback ones on any port; repeatable; others get 403
  --sessions       keep a session per 2025-era client, so the server can ask it for sampling and
                   elicitation and send it logs and list changes; replicas then need sticky routing
  --data-dir D     where channels, saved apps and app data are stored (default $DUET_DATA_DIR, else the per-user data folder)
  --redis-url URL  keep channels, saved apps, app data, render records and the log in Redis instead
                   (default $DUET_REDIS_URL): several --http replicas on one Redis act as one server

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
      'allow-origin': { type: 'string', multiple: true },
      sessions: { type: 'boolean' },
      'data-dir': { type: 'string' },
      'redis-url': { type: 'string' },
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
    if (!http && (values.port !== undefined || values.host !== undefined || values['allow-origin'] !== undefined || values.sessions))
      return usage('--port, --host, --allow-origin and --sessions need --http')
    const port = values.port === undefined ? 3001 : Number(values.port)
    if (!Number.isInteger(port) || port < 0 || port > 65535) return usage(`--port must be an integer 0-65535, got '${values.port}'`)

    const redis = resolveRedisUrl(values['redis-url'], values['data-dir'])
    if (redis.problem) return usage(redis.problem)

    // Loaded here so `duet --help` does not pay for the SDK and the store.
    const { createAgentAppsServer } = await import('../apps/agent-apps-server.js')
    const app = await createAgentAppsServer({
      ...(values['data-dir'] !== undefined && { dataDir: values['data-dir'] }),
      ...(redis.url !== undefined && { redisUrl: redis.url }),
    })
    try {
      if (http) {
        const listening = await app.listen({
          http: {
            port,
            ...(values.host !== undefined && { host: values.host }),
            ...(values['allow-origin'] !== undefined && { allowedOrigins: values['allow-origin'] }),
            ...(values.sessions && { sessions: true }),
          },
        })
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
