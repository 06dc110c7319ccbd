import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { isIP, type AddressInfo } from 'node:net'
import { hostname } from 'node:os'
import { createMcpHandler, isLegacyRequest, localhostAllowedHostnames, SUPPORTED_PROTOCOL_VERSIONS, type McpServerFactory } from '@modelcontextprotocol/server'
import { hostHeaderValidation, toNodeHandler } from '@modelcontextprotocol/node'
import type { AuthInfo } from '@modelcontextprotocol/server'
import type { AuthGate } from './auth-gate.js'
import { addCorsHeaders, answerPreflight, originPolicy } from './cors.js'
import { meteredCalls, rateLimitedResponse, takeToken, type ResolvedRateLimit } from './rate-limit.js'
import { CallerRate } from './caller-rate.js'
import { lineBusyBody, RequestLine, resolveRequestLine, type RequestLineLimits } from './request-line.js'
import { callerScope, subjectOfAuth } from './subject.js'
import { httpErrorJson } from './error-body.js'
import { DuetError, invalidOption } from './errors.js'
import { sessionHandler, type SessionHandler } from './sessions.js'

/** Options of the Streamable HTTP listener. */
export interface HttpListenOptions extends Partial<RequestLineLimits> {
  /** Default 3001; `0` picks a free port (read it from `Listening.url`). */
  port?: number
  /**
   * Default `127.0.0.1`: loopback only. A non-loopback address needs the server's `auth` option (or
   * `insecure: true`): without it `listen` refuses, as anyone reaching the port could call every tool.
   */
  host?: string
  /** `true` serves a non-loopback `host` without `auth`, on purpose (e.g. behind a proxy that authenticates). Default `false`. */
  insecure?: boolean
  /** Default `/mcp`. */
  path?: string
  /**
   * Hostnames the `Host` header may name (DNS rebinding protection). Default: the loopback names, plus
   * `host` itself when it is a specific address, plus the machine's name when `host` is a wildcard.
   */
  allowedHosts?: string[]
  /**
   * Browser origins besides loopback (any port on `localhost`, `127.0.0.1`, `[::1]`, always allowed) that may
   * call the endpoint, with CORS: full origins (`https://app.example.com`) or bare hostnames (any scheme and
   * port). Other origins get 403 (DNS rebinding protection); requests with no Origin (not a browser) pass.
   */
  allowedOrigins?: string[]
  /**
   * Default `false`: every request is served by a fresh server, so any replica can answer any request.
   * `true` keeps a session per 2025-era client (`Mcp-Session-Id`, resumable SSE) so the server can send it
   * requests (sampling, elicitation) and notifications (logging, list changes); replicas then need sticky
   * routing on `Mcp-Session-Id`. 2026-07-28 clients are served per request either way.
   */
  sessions?: boolean
  /**
   * With `sessions`: open sessions kept in all. Past it, the subject (token subject, else client address)
   * holding the most loses its least recently used session; a subject below its share never does. Default 1000.
   */
  maxSessions?: number
  /** With `sessions`: open sessions one subject may keep; past it, its own least recently used one is closed. Default 100. */
  maxSessionsPerSubject?: number
  /** With `sessions`: a session with no request and no open stream for this long is closed. Default 1 800 000 (30 min). */
  sessionIdleMs?: number
  /** With `sessions`: SSE events kept for resuming (`Last-Event-ID`), in all. Default 10 000. */
  maxEvents?: number
  /** With `sessions`: SSE events kept for one subject's sessions; past it, that subject's oldest go. Default 1000. */
  maxEventsPerSubject?: number
  /** How long shutdown waits for in-flight requests before cutting them off. Default 5000 ms. */
  shutdownGraceMs?: number
  /** Told about rejected requests and transport errors; default ignores them (the client already got the error). */
  onError?: (error: Error) => void
}

/** A running HTTP listener. */
export interface HttpListening {
  url: string
  close(): Promise<void>
}

const WILDCARDS = new Set(['0.0.0.0', '::', '[::]'])
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]'])
/** The 2026-07-28 revision, served per request by the SDK handler (the SDK does not export its name). */
const MODERN_REVISION = '2026-07-28'
const REVISION = /^\d{4}-\d{2}-\d{2}$/

/** What the server core adds in front of the endpoint: the resource server's gate and the rate limit. */
export interface HttpGuards {
  auth?: AuthGate
  rateLimit?: ResolvedRateLimit
  /** Whether the server has a tool of this name: only those get a rate-limit bucket. */
  knownTool?: (name: string) => boolean
}

/** The caller a request is counted against (the rate limit, sessions, per-user limits in handlers). */
const caller = callerScope

/** Serves the factory's servers over Streamable HTTP: 2026-07-28 per request, 2025-era stateless or with sessions. */
export async function listenHttp(factory: McpServerFactory, options: HttpListenOptions = {}, guards: HttpGuards = {}): Promise<HttpListening> {
  const { port = 3001, host = '127.0.0.1', path = '/mcp', shutdownGraceMs = 5000, onError } = options
  if (!Number.isInteger(port) || port < 0 || port > 65535) invalidOption('listen', 'http.port', `must be an integer 0-65535, got ${JSON.stringify(port)}`)
  if (typeof host !== 'string' || host === '') invalidOption('listen', 'http.host', 'must be a non-empty string')
  if (typeof path !== 'string' || !path.startsWith('/')) invalidOption('listen', 'http.path', `must start with '/', got ${JSON.stringify(path)}`)
  if (!Number.isFinite(shutdownGraceMs) || shutdownGraceMs < 0) invalidOption('listen', 'http.shutdownGraceMs', 'must be a number >= 0')
  const {
    sessions = false,
    maxSessions = 1000,
    maxSessionsPerSubject = 100,
    sessionIdleMs = 1_800_000,
    maxEvents = 10_000,
    maxEventsPerSubject = 1000,
  } = options
  if (typeof sessions !== 'boolean') invalidOption('listen', 'http.sessions', `must be true or false, got ${JSON.stringify(sessions)}`)
  for (const [name, value] of Object.entries({ maxSessions, maxSessionsPerSubject, sessionIdleMs, maxEvents, maxEventsPerSubject }))
    if (!Number.isSafeInteger(value) || value < 1) invalidOption('listen', `http.${name}`, `must be an integer >= 1, got ${JSON.stringify(value)}`)
  if (options.insecure !== undefined && typeof options.insecure !== 'boolean')
    invalidOption('listen', 'http.insecure', `must be true or false, got ${JSON.stringify(options.insecure)}`)
  if (!guards.auth && !options.insecure && !isLoopback(host))
    throw new DuetError(
      'INSECURE_BIND',
      `listen: refusing to serve ${host} without auth: anyone who reaches it could call every tool; set the server's auth option (duet serve --auth-issuer URL), or insecure: true (--insecure-no-auth) if something in front authenticates`,
      { host },
    )
  const resourceHost = guards.auth?.resourceHost
  const allowedHosts = options.allowedHosts ?? [...defaultAllowedHosts(host), ...(resourceHost ? [resourceHost] : [])]
  const origins = originPolicy(options.allowedOrigins)
  const lineLimits = resolveRequestLine(options)
  const line = new RequestLine(lineLimits)

  const report = (error: Error) => onError?.(error)
  // With sessions, 2025-era requests go to the sessionful leg and the SDK handler answers 2026-07-28 alone.
  const handler = createMcpHandler(factory, { onerror: report, ...(sessions && { legacy: 'reject' as const }) })
  const legacy: SessionHandler | undefined = sessions
    ? sessionHandler(factory, { maxSessions, maxSessionsPerSubject, idleMs: sessionIdleMs, maxEvents, maxEventsPerSubject, onerror: report })
    : undefined
  // `parsedBody`: the body the rate limit parsed, handed on so the SDK does not read and parse it twice more.
  type Context = { authInfo?: AuthInfo; parsedBody?: unknown }
  const route = legacy
    ? async (request: Request, context?: Context) =>
        (await isLegacyRequest(request, context?.parsedBody))
          ? legacy.fetch(request, { ...context, caller: caller.getStore() ?? '' })
          : handler.fetch(request, context)
    : (request: Request, context?: Context) => handler.fetch(request, context)
  const rateLimit = guards.rateLimit
  const knownTool = guards.knownTool ?? (() => true)
  const limited = rateLimit
    ? async (request: Request, context?: Context) => {
        const body = await jsonBody(request)
        const refused = body === undefined ? undefined : await overLimit(rateLimit, knownTool, body, caller.getStore() ?? '')
        return refused ?? route(request, body === undefined ? context : { ...context, parsedBody: body })
      }
    : route
  const serve = toNodeHandler({ fetch: limited }, { onerror: report })
  const callerRate = rateLimit?.all && new CallerRate(rateLimit, rateLimit.all, lineLimits)
  // A call (POST) is metered against its caller's whole rate before its body is read, then waits its turn in the line.
  const metered = async (who: string, req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (req.method !== 'POST') return serve(req, res)
    const gone = new Promise<void>((resolve) => res.once('close', () => resolve()))
    if (callerRate) {
      const passed = await callerRate.pass(who, gone)
      if (passed === 'gone') return
      if (passed) return send(res, passed)
    }
    const entered = await line.enter(who, gone)
    if (entered === undefined) return // the client went away while waiting
    if (typeof entered !== 'function') {
      const busy = lineBusyBody(entered)
      res.writeHead(busy.status, busy.headers).end(busy.body)
      return
    }
    res.once('close', entered)
    return serve(req, res)
  }
  const closeHandlers = () => Promise.allSettled([handler.close(), legacy?.close()]).then(() => undefined)
  const checkHost = hostHeaderValidation(allowedHosts)

  let closing: Promise<void> | undefined
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    // While shutting down, a keep-alive connection would otherwise idle until the grace period ends.
    res.once('finish', () => {
      if (closing) setImmediate(() => server.closeIdleConnections())
    })
    if (!checkHost(req, res)) return
    const pathname = new URL(req.url ?? '/', 'http://local').pathname
    // The metadata is public and read by browser clients of any origin, so it comes before the Origin check.
    const metadata = guards.auth?.metadata(req.method ?? 'GET', pathname)
    if (metadata) return void send(res, metadata).catch(report)
    const origin = req.headers.origin
    if (!origins.allows(origin)) {
      report(new Error(`Rejected a request from Origin ${origin}`))
      const message = `Forbidden: Origin ${origin} may not call this server (DNS rebinding protection); allow it with the allowedOrigins option or duet serve --allow-origin`
      res.writeHead(403, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }))
      return
    }
    if (pathname !== path) {
      const notFound = new DuetError('NOT_FOUND', `Nothing is served at ${pathname}: the MCP endpoint is ${path}.`, { kind: 'route', name: pathname })
      res.writeHead(404, { 'content-type': 'application/json' }).end(httpErrorJson(notFound))
      return
    }
    if (req.method === 'OPTIONS') return answerPreflight(req, res)
    addCorsHeaders(req, res)
    const versionProblem = checkProtocolVersionHeader(req.headers['mcp-protocol-version'])
    if (versionProblem) {
      res
        .writeHead(400, { 'content-type': 'application/json' })
        .end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32600, message: versionProblem }, id: null }))
      return
    }
    widenAccept(req)
    const served = guards.auth ? authorize(guards.auth, req, res) : Promise.resolve(true)
    served
      .then((authorized) => {
        if (!authorized) return
        const auth = (req as { auth?: AuthInfo }).auth
        const subject = subjectOfAuth(auth)
        const who = subject !== undefined ? `sub:${subject}` : `address:${req.socket.remoteAddress ?? ''}`
        return caller.run(who, () => metered(who, req, res))
      })
      .catch((err: unknown) => {
        // Unexpected (the SDK answers protocol mistakes itself), so it is logged even without onError.
        const error = err instanceof Error ? err : new Error(String(err))
        if (onError) onError(error)
        else process.stderr.write(`duet/server: HTTP request failed: ${error.stack ?? error.message}\n`)
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' })
        res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32603, message: 'Internal server error' } }))
      })
  })

  await new Promise<void>((resolve, reject) => {
    const failed = (err: NodeJS.ErrnoException) => {
      const hint = err.code === 'EADDRINUSE' ? 'is in use; pick another port (0 picks a free one)' : `cannot be bound: ${err.message}`
      reject(new DuetError('LISTEN_FAILED', `listen: ${host}:${port} ${hint}`, { host, port, cause: err.code }))
    }
    server.once('error', failed)
    server.listen(port, host, () => {
      server.off('error', failed)
      server.on('error', report)
      resolve()
    })
  })
  const address = server.address() as AddressInfo
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address
  try {
    guards.auth?.bind(`http://${urlHost}:${address.port}${path}`, WILDCARDS.has(host))
  } catch (err) {
    server.close()
    await closeHandlers()
    throw err
  }

  return {
    url: `http://${urlHost}:${address.port}${path}`,
    close() {
      closing ??= new Promise<void>((resolve) => {
        // Stop accepting, let in-flight requests finish, and only then cut long-lived streams.
        const timer = setTimeout(() => {
          void closeHandlers()
          server.closeAllConnections()
        }, shutdownGraceMs)
        timer.unref()
        server.close(() => {
          clearTimeout(timer)
          void closeHandlers().finally(resolve)
        })
        server.closeIdleConnections()
      })
      return closing
    },
  }
}

/** Loopback names and addresses (all of 127.0.0.0/8 and ::1), which only this machine can reach. */
function isLoopback(host: string): boolean {
  if (LOOPBACK.has(host)) return true
  const bare = host.replace(/^\[(.*)\]$/, '$1')
  if (isIP(bare) === 4) return bare.startsWith('127.')
  return bare === '::1' || bare === '0:0:0:0:0:0:0:1' || /^::ffff:127\./i.test(bare)
}

/** Verifies the bearer token and, when it is good, leaves its `AuthInfo` on `req.auth` for the SDK handler. */
async function authorize(gate: AuthGate, req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  const header = req.headers.authorization
  const result = await gate.check(typeof header === 'string' ? header : undefined)
  if (result instanceof Response) {
    await send(res, result)
    return false
  }
  ;(req as { auth?: AuthInfo }).auth = result
  return true
}

// The SDK's own bound on a request body: a larger one is left for it to refuse (413), never parsed here.
const MAX_PARSED_BODY = 4 * 1024 * 1024

/** A POST's JSON body, read from a clone (the request stays readable); undefined when there is none, it is not JSON, or it is past the SDK's bound. */
async function jsonBody(request: Request): Promise<unknown> {
  if (request.method !== 'POST') return undefined
  try {
    const text = await request.clone().text()
    if (text.length === 0 || Buffer.byteLength(text) > MAX_PARSED_BODY) return undefined
    return JSON.parse(text) ?? undefined
  } catch {
    return undefined // the SDK answers a body that is not JSON
  }
}

/** The 429 answer when a counted call in the body finds its caller's bucket empty (503 when a shared store cannot answer). */
async function overLimit(limit: ResolvedRateLimit, knownTool: (name: string) => boolean, body: unknown, who: string): Promise<Response | undefined> {
  const id = Array.isArray(body) ? null : ((body as { id?: unknown } | null)?.id ?? null)
  for (const call of meteredCalls(body, knownTool)) {
    const waitMs = await takeToken(limit, limit, who, call, id)
    if (waitMs instanceof Response) return waitMs
    if (waitMs > 0) return rateLimitedResponse(call, waitMs, id)
  }
  return undefined
}

/** Writes a web `Response` (the SDK's challenge and metadata answers) to a Node response. */
async function send(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string> = {}
  response.headers.forEach((value, key) => {
    headers[key] = value
  })
  res.writeHead(response.status, headers)
  res.end(Buffer.from(await response.arrayBuffer()))
}

function defaultAllowedHosts(host: string): string[] {
  const names = localhostAllowedHostnames()
  if (LOOPBACK.has(host)) return names
  if (WILDCARDS.has(host)) return [...names, hostname()]
  return [...names, host.includes(':') && !host.startsWith('[') ? `[${host}]` : host]
}

/**
 * The SDK refuses a POST whose Accept does not name both JSON and SSE (406), yet `*\/*` and no Accept at all
 * mean "anything": generic HTTP clients send them. Such requests are read as accepting both.
 */
function widenAccept(req: IncomingMessage): void {
  const accept = req.headers.accept
  const wildcard = accept === undefined || accept.trim() === '' || accept.split(',').some((type) => type.split(';')[0]?.trim() === '*/*')
  if (!wildcard) return
  req.headers.accept = req.method === 'GET' ? 'text/event-stream' : 'application/json, text/event-stream'
}

/** A malformed `MCP-Protocol-Version` gets a message naming what came and what is served; well-formed ones go to the SDK. */
function checkProtocolVersionHeader(value: string | string[] | undefined): string | undefined {
  if (value === undefined) return undefined
  const received = Array.isArray(value) ? value.join(', ') : value
  if (typeof value === 'string' && REVISION.test(value.trim())) return undefined
  const supported = [MODERN_REVISION, ...SUPPORTED_PROTOCOL_VERSIONS].join(', ')
  return `Bad Request: malformed MCP-Protocol-Version header: received ${JSON.stringify(received)}; it must be one protocol revision (YYYY-MM-DD), and this server supports ${supported}`
}
