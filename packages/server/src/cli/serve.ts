import { parseArgs } from 'node:util'
import type { Command } from './command.js'
import { resolveRedisUrl } from './redis-url.js'

const help = `Usage: duet serve [--stdio | --http [--port 3001] [--host 127.0.0.1] [--allow-origin O]… [--sessions [session limits]]
                  [--auth-issuer URL [--auth-audience A]… [--auth-scopes S,…] [--auth-resource URL] [--auth-jwt-types T,…]
                   | --insecure-no-auth]
                  [--rate-limit BURST:PER_SECOND [--rate-limit-all BURST:PER_SECOND | off]] [in-flight limits]]
                  [--data-dir D | --redis-url URL]

Runs the Duet agent-apps MCP server. Its tools:

  display          display_ui_to_user (an HTML fragment), display_component (a Duet component,
                   compiled on the server); both show one ui:// shell and return a fresh channel_id;
                   get_render, for the shell only, fetches a render's compiled component
  channels         open_channel, notify_ui, poll_agent_messages, close_channel; notify_agent and
                   poll_ui_messages are for the app view only and stay out of the model's list;
                   channel_stats reports the caller's own use against their quotas
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
  --max-sessions N     with --sessions: open sessions in all (default 1000); past it, the user holding
                   the most loses their least recently used one
  --max-sessions-per-subject N  with --sessions: open sessions one user (token subject, else client
                   address) may keep (default 100); past it, their own oldest is closed
  --session-idle-seconds N  with --sessions: close a session unused this long (default 1800)
  --auth-issuer URL  accept only bearer tokens of this OAuth/OpenID issuer (JWTs checked against its
                   JWKS: signature, issuer, audience, expiry); serves the Protected Resource Metadata and
                   answers 401/403 with a WWW-Authenticate challenge; each token's subject gets its own
                   channels, saved apps, data and log
  --auth-audience A  the aud tokens must carry (repeatable); default the resource URL
  --auth-scopes S,…  scopes every request needs (comma-separated)
  --auth-resource URL  the public URL clients reach /mcp at (behind a TLS proxy: https://…/mcp);
                   needed with a wildcard --host; default the listening URL
  --auth-jwt-types T,…  JWT typ values accepted (default at+jwt, RFC 9068); at+jwt,JWT for an issuer
                   that sends typ JWT on its access tokens
  --insecure-no-auth  serve a non-loopback --host without --auth-issuer (only if something in front
                   authenticates); without either, a non-loopback --host is refused
  --rate-limit B:R  per caller (token subject, else address) and per tool (and per initialize,
                   resources/* and prompts/* method): a burst of B calls, R more per second (e.g. 30:0.5);
                   past it, HTTP 429 with Retry-After; with --redis-url every replica shares the buckets
  --rate-limit-all B:R  with --rate-limit: one more bucket per caller, taken by every call whatever it
                   names (made-up tools too): their whole rate (default twice --rate-limit); off: none
  --max-in-flight N    HTTP calls served at once in all (default 256); past it they wait, each user's
                   line served in turn
  --max-in-flight-per-subject N  calls of one user (token subject, else client address) served at once
                   (default 16; a long poll holds one); past it theirs wait, others' do not
  --max-queued-requests N, --max-queued-requests-per-subject N  calls waiting in all (default 1024) and
                   per user (default 64); past them, BUSY (HTTP 503 / 429) with Retry-After
  --data-dir D     where channels, saved apps and app data are stored (default $DUET_DATA_DIR, else the per-user data folder)
  --redis-url URL  keep channels, saved apps, app data, render records and the log in Redis instead
                   (default $DUET_REDIS_URL): several --http replicas on one Redis act as one server
  --max-store-bytes N  channel quota: bytes of unread messages the whole store may hold (default 1 GiB)
  --max-channels N     channel quota: open channels the store may hold (default 100000)
  --compile-workers N  display_component compiler workers (default: CPUs, 2 to 4)
  --compile-memory-mb N  hard memory limit of one compiler worker, esbuild included (default 256, at least 96)
  --compile-niceness N  the compiler workers' niceness, 0-19 (default 10: the server's requests win the CPU)
  --compile-cool-down-after N, --compile-cool-down-seconds S  a user whose compiles hit a limit (memory,
                   time, crash) N times within S seconds gets BUSY for their compiles for S seconds
                   (default 2 in 30), instead of workers killed and restarted for them
  --max-store-bytes-per-subject N  the same for one user (token subject, else client address) (default 64 MiB)
  --max-channels-per-subject N     (default 1000)
  --max-renders N, --max-renders-per-subject N  render records kept in all (default 1000) and per user
                   (default 100); a user past its share loses its own oldest, never another's
  --max-saved-apps N, --max-saved-apps-per-subject N  saved apps in all (default 50000) and per user (500)
  --max-data-apps N, --max-data-apps-per-subject N  app-data namespaces in all (100000) and per user (100)
  --max-data-keys N, --max-data-keys-per-subject N  app-data keys in all (1000000) and per user (10000)

Over stdio the server acts for whoever started it: set DUET_SUBJECT to give that user a subject of
their own (the same data as their HTTP tokens' subject).
Where it listens is printed to stderr; stdout carries only the protocol in --stdio mode.
SIGINT/SIGTERM close gracefully and exit 0.`

// The per-subject quotas beside the store-wide ones, and the agent-apps store's counts: flag, option name.
const CHANNEL_QUOTA_FLAGS = [
  ['max-store-bytes-per-subject', 'maxStoreBytesPerSubject'],
  ['max-channels-per-subject', 'maxChannelsPerSubject'],
] as const
const APP_QUOTA_FLAGS = [
  ['max-renders', 'maxRenders'],
  ['max-renders-per-subject', 'maxRendersPerSubject'],
  ['max-saved-apps', 'maxSavedApps'],
  ['max-saved-apps-per-subject', 'maxSavedAppsPerSubject'],
  ['max-data-apps', 'maxDataApps'],
  ['max-data-apps-per-subject', 'maxDataAppsPerSubject'],
  ['max-data-keys', 'maxDataKeys'],
  ['max-data-keys-per-subject', 'maxDataKeysPerSubject'],
] as const

// The HTTP listener's requests in flight and waiting: flag, option name (`http.*`).
const LINE_FLAGS = [
  ['max-in-flight', 'maxInFlight'],
  ['max-in-flight-per-subject', 'maxInFlightPerSubject'],
  ['max-queued-requests', 'maxQueuedRequests'],
  ['max-queued-requests-per-subject', 'maxQueuedRequestsPerSubject'],
] as const

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
      'auth-issuer': { type: 'string' },
      'auth-audience': { type: 'string', multiple: true },
      'auth-scopes': { type: 'string' },
      'auth-resource': { type: 'string' },
      'auth-jwt-types': { type: 'string' },
      'max-sessions': { type: 'string' },
      'max-sessions-per-subject': { type: 'string' },
      'session-idle-seconds': { type: 'string' },
      'insecure-no-auth': { type: 'boolean' },
      'rate-limit': { type: 'string' },
      'data-dir': { type: 'string' },
      'redis-url': { type: 'string' },
      'max-store-bytes': { type: 'string' },
      'max-channels': { type: 'string' },
      'compile-workers': { type: 'string' },
      'compile-memory-mb': { type: 'string' },
      'compile-niceness': { type: 'string' },
      'compile-cool-down-after': { type: 'string' },
      'compile-cool-down-seconds': { type: 'string' },
      'rate-limit-all': { type: 'string' },
      'max-in-flight': { type: 'string' },
      'max-in-flight-per-subject': { type: 'string' },
      'max-queued-requests': { type: 'string' },
      'max-queued-requests-per-subject': { type: 'string' },
      ...Object.fromEntries([...CHANNEL_QUOTA_FLAGS, ...APP_QUOTA_FLAGS].map(([flag]) => [flag, { type: 'string' as const }])),
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
    const sessionFlags = ['max-sessions', 'max-sessions-per-subject', 'session-idle-seconds'] as const
    const sessionFlag = sessionFlags.find((flag) => values[flag] !== undefined)
    if (sessionFlag && !values.sessions) return usage(`--${sessionFlag} needs --sessions`)
    const sessionLimits: { maxSessions?: number; maxSessionsPerSubject?: number; sessionIdleMs?: number } = {}
    for (const [flag, option, scale] of [
      ['max-sessions', 'maxSessions', 1],
      ['max-sessions-per-subject', 'maxSessionsPerSubject', 1],
      ['session-idle-seconds', 'sessionIdleMs', 1000],
    ] as const) {
      const text = values[flag]
      if (text === undefined) continue
      if (!/^[1-9][0-9]*$/.test(text) || !Number.isSafeInteger(Number(text) * scale)) return usage(`--${flag} must be a positive integer, got '${text}'`)
      sessionLimits[option] = Number(text) * scale
    }
    const authFlags = [
      'auth-issuer',
      'auth-audience',
      'auth-scopes',
      'auth-resource',
      'auth-jwt-types',
      'insecure-no-auth',
      'rate-limit',
      'rate-limit-all',
      ...LINE_FLAGS.map(([flag]) => flag),
    ] as const
    const usedAuthFlag = authFlags.find((flag) => values[flag] !== undefined)
    if (!http && usedAuthFlag) return usage(`--${usedAuthFlag} needs --http (a stdio server acts for whoever started it; see DUET_SUBJECT)`)
    const issuer = values['auth-issuer']
    if (
      issuer === undefined &&
      (values['auth-audience'] || values['auth-scopes'] !== undefined || values['auth-resource'] !== undefined || values['auth-jwt-types'] !== undefined)
    )
      return usage('--auth-audience, --auth-scopes, --auth-resource and --auth-jwt-types need --auth-issuer')
    const jwtTypes = values['auth-jwt-types']?.split(/[\s,]+/).filter(Boolean)
    if (issuer !== undefined && values['insecure-no-auth']) return usage('choose one of --auth-issuer or --insecure-no-auth')
    const scopes = values['auth-scopes']?.split(/[\s,]+/).filter(Boolean)
    const auth =
      issuer === undefined
        ? undefined
        : {
            issuer,
            ...(values['auth-audience'] && { audience: values['auth-audience'] }),
            ...(scopes && { scopes }),
            ...(values['auth-resource'] !== undefined && { resource: values['auth-resource'] }),
            ...(jwtTypes && { jwtTypes }),
          }
    let rateLimit: { burst: number; perSecond: number; all?: { burst: number; perSecond: number } | false } | undefined
    if (values['rate-limit'] !== undefined) {
      const rate = bucketRate(values['rate-limit'])
      if (!rate) return usage(`--rate-limit must be BURST:PER_SECOND (e.g. 30:0.5), got '${values['rate-limit']}'`)
      rateLimit = rate
    }
    const allText = values['rate-limit-all']
    if (allText !== undefined) {
      if (!rateLimit) return usage('--rate-limit-all needs --rate-limit')
      const all = allText === 'off' ? false : bucketRate(allText)
      if (all === undefined) return usage(`--rate-limit-all must be BURST:PER_SECOND (e.g. 60:1) or off, got '${allText}'`)
      rateLimit.all = all
    }
    const line: Record<string, number> = {}
    for (const [flag, option] of LINE_FLAGS) {
      const text = values[flag]
      if (text === undefined) continue
      if (!/^[1-9][0-9]*$/.test(text) || !Number.isSafeInteger(Number(text))) return usage(`--${flag} must be a positive integer, got '${text}'`)
      line[option] = Number(text)
    }
    const port = values.port === undefined ? 3001 : Number(values.port)
    if (!Number.isInteger(port) || port < 0 || port > 65535) return usage(`--port must be an integer 0-65535, got '${values.port}'`)

    const redis = resolveRedisUrl(values['redis-url'], values['data-dir'])
    if (redis.problem) return usage(redis.problem)
    const channelLimits: Record<string, number> = {}
    const appLimits: Record<string, number> = {}
    for (const [flag, limit, into] of [
      ['max-store-bytes', 'maxStoreBytes', channelLimits],
      ['max-channels', 'maxChannels', channelLimits],
      ...CHANNEL_QUOTA_FLAGS.map(([f, l]) => [f, l, channelLimits] as const),
      ...APP_QUOTA_FLAGS.map(([f, l]) => [f, l, appLimits] as const),
    ] as const) {
      const text = (values as Record<string, string | undefined>)[flag]
      if (text === undefined) continue
      if (!/^[1-9][0-9]*$/.test(text) || !Number.isSafeInteger(Number(text))) return usage(`--${flag} must be a positive integer, got '${text}'`)
      into[limit] = Number(text)
    }

    const compilePool = compilePoolOf(values['compile-workers'], values['compile-memory-mb'])
    if (typeof compilePool === 'string') return usage(compilePool)
    for (const [flag, option, max] of [
      ['compile-niceness', 'niceness', 19],
      ['compile-cool-down-after', 'coolDownAfter', 1_000_000],
      ['compile-cool-down-seconds', 'coolDownSeconds', 86_400],
    ] as const) {
      const text = values[flag]
      if (text === undefined) continue
      const least = option === 'niceness' ? 0 : 1
      if (!/^[0-9]+$/.test(text) || Number(text) < least || Number(text) > max)
        return usage(`--${flag} must be an integer from ${least} to ${max}, got '${text}'`)
      compilePool[option] = Number(text)
    }

    // Loaded here so `duet --help` does not pay for the SDK and the store.
    const { createAgentAppsServer } = await import('../apps/agent-apps-server.js')
    const app = await createAgentAppsServer({
      ...(values['data-dir'] !== undefined && { dataDir: values['data-dir'] }),
      ...(redis.url !== undefined && { redisUrl: redis.url }),
      ...(auth && { auth }),
      ...(rateLimit && { rateLimit }),
      channelLimits,
      compilePool,
      appLimits,
    })
    try {
      if (http) {
        const listening = await app.listen({
          http: {
            port,
            ...(values.host !== undefined && { host: values.host }),
            ...(values['allow-origin'] !== undefined && { allowedOrigins: values['allow-origin'] }),
            ...(values.sessions && { sessions: true, ...sessionLimits }),
            ...(values['insecure-no-auth'] && { insecure: true }),
            ...line,
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

/** BURST:PER_SECOND (e.g. 30:0.5) as a bucket rate, or undefined when it is not one. */
function bucketRate(text: string): { burst: number; perSecond: number } | undefined {
  const match = /^(\d+):(\d+(?:\.\d+)?)$/.exec(text)
  if (!match || Number(match[1]) < 1 || Number(match[2]) <= 0) return undefined
  return { burst: Number(match[1]), perSecond: Number(match[2]) }
}

type PoolFlags = { workers?: number; compileLimits?: { maxMemoryMb: number }; niceness?: number; coolDownAfter?: number; coolDownSeconds?: number }

/** The compile pool options of --compile-workers and --compile-memory-mb, or what is wrong with them. */
function compilePoolOf(workers: string | undefined, memoryMb: string | undefined): PoolFlags | string {
  const pool: PoolFlags = {}
  if (workers !== undefined) {
    if (!/^[1-9][0-9]?$/.test(workers) || Number(workers) > 64) return `--compile-workers must be an integer from 1 to 64, got '${workers}'`
    pool.workers = Number(workers)
  }
  if (memoryMb !== undefined) {
    if (!/^[1-9][0-9]*$/.test(memoryMb) || Number(memoryMb) < 96 || !Number.isSafeInteger(Number(memoryMb)))
      return `--compile-memory-mb must be an integer of at least 96 (an idle compiler worker holds about 60 MB), got '${memoryMb}'`
    pool.compileLimits = { maxMemoryMb: Number(memoryMb) }
  }
  return pool
}

function usage(problem: string): number {
  process.stderr.write(`duet serve: ${problem}\nRun 'duet serve --help' for the options.\n`)
  return 2
}
