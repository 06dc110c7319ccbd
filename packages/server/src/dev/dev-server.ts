import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { DuetError } from 'duetkit/protocol'
import { readBuiltAsset } from '../server/built-asset.js'
import { ServerConnection, type ConnectionEvent, type ServerSpec } from './connections.js'
import { PAGE_SHELL } from './page-shell.js'
import { closeServer, readBody, sendJson, sendText } from './local-http.js'
import { createSandboxHandler, hostPageCsp } from './sandbox.js'
import { findViteProject, watchViewProject, type ViewWatcher } from './watch.js'
import type { ChatEvent, ChatInfo } from './model/chat-events.js'
import type { ChatSession } from './model/chat-session.js'
import { chatRoute } from './model/chat-routes.js'
import { MODEL_PROVIDERS, modelLabel, type ModelSpec } from './model/model-spec.js'

/** Options of {@link startDevServer}. */
export interface DevServerOptions {
  servers: ServerSpec[]
  /** Port of the host page on 127.0.0.1; 0 picks a free one. Default 5180. */
  port?: number
  /** Port of the sandbox origin; default `port + 1` (a free one when `port` is 0). */
  sandboxPort?: number
  /** Interval of resource watching, health checks and reconnects. Default 1000 ms. */
  pollMs?: number
  /**
   * A Vite project folder (`duet dev --watch`): its view is rebuilt on every save with the project's
   * own Vite, and the rendered view re-mounted as soon as the build is written, its state kept.
   */
  watch?: string
  /**
   * A model to chat with in the page (`duet dev --model`): it sees and calls the servers' model-visible
   * tools. Needs Node 22 or newer (the AI SDK 7); the key stays in this process.
   */
  model?: ModelSpec
}

/** What the page hears on /api/events: the connections' events, the chat's, a written --watch build, and the model's side of the trace. */
type DevEvent =
  | ConnectionEvent
  | { type: 'chat'; event: ChatEvent }
  | { type: 'view-built' }
  | { type: 'trace'; server: 'model'; dir: 'host->model' | 'model->host'; message: unknown }

/** A running `duet dev`. */
export interface DevServer {
  url: string
  sandboxOrigin: string
  close(): Promise<void>
}

const FORWARDED = new Set(['tools/call', 'resources/read', 'resources/list', 'resources/templates/list', 'prompts/list', 'prompts/get'])

/**
 * Starts the dev host: the page and its API on 127.0.0.1:`port`, the sandbox proxy on a second
 * port (a second origin), and one MCP connection per configured server.
 */
export async function startDevServer(options: DevServerOptions): Promise<DevServer> {
  if (!Array.isArray(options.servers) || options.servers.length === 0) {
    throw new DuetError('INVALID_OPTION', 'startDevServer: options.servers needs at least one server (--server <url> or --stdio "<command>")', {
      option: 'servers',
    })
  }
  const pollMs = options.pollMs ?? 1000
  if (!Number.isFinite(pollMs) || pollMs < 50)
    throw new DuetError('INVALID_OPTION', 'startDevServer: options.pollMs must be a number ≥ 50', { option: 'pollMs' })
  if (options.watch !== undefined && (typeof options.watch !== 'string' || options.watch === ''))
    throw new DuetError('INVALID_OPTION', 'startDevServer: options.watch must be the path of a Vite project folder', { option: 'watch' })
  const m = options.model
  if (
    m !== undefined &&
    (typeof m !== 'object' || m === null || !(MODEL_PROVIDERS as readonly string[]).includes(m.provider) || typeof m.model !== 'string' || !m.model)
  )
    throw new DuetError('INVALID_OPTION', `startDevServer: options.model must be { provider: ${MODEL_PROVIDERS.join(' | ')}, model, baseUrl?, apiKey? }`, {
      option: 'model',
    })
  const viteProject = options.watch === undefined ? undefined : findViteProject(options.watch)
  const script = readBuiltAsset('dev-page.js')

  // The pages listening on /api/events. A stream leaves the set as soon as it ends, fails or its page goes, and
  // a write is never tried on one already ended: a connection event landing while the server closes (a tick's
  // failing ping) would otherwise write after end, an unhandled error in the process that runs duet dev.
  const clients = new Set<ServerResponse>()
  const broadcast = (event: DevEvent) => {
    const frame = `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`
    for (const res of clients) {
      if (res.writableEnded || res.destroyed) clients.delete(res)
      else res.write(frame)
    }
  }
  const connections = options.servers.map((spec, i) => new ServerConnection(`s${i + 1}`, spec, { pollMs, emit: broadcast }))
  // The AI SDK loads only with --model: duet dev without it runs on Nodes the SDK does not.
  let chat: ChatSession | undefined
  if (options.model) {
    const [{ createLanguageModel }, { ChatSession }] = await Promise.all([import('./model/provider.js'), import('./model/chat-session.js')])
    chat = new ChatSession({
      model: await createLanguageModel(options.model),
      servers: () => connections,
      emit: (event) => broadcast({ type: 'chat', event }),
      trace: (dir, message) => broadcast({ type: 'trace', server: 'model', dir, message }),
    })
  }
  const chatInfo: ChatInfo | null = options.model ? { model: modelLabel(options.model) } : null

  let port = 0
  let sandboxPort = 0
  const hostNames = () => [`127.0.0.1:${port}`, `localhost:${port}`]
  const origins = () => hostNames().map((h) => `http://${h}`)

  const api = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://dev')
    // DNS rebinding: only answer requests addressed to loopback by name and port.
    if (!hostNames().includes(req.headers.host ?? ''))
      return sendJson(res, 403, { error: { code: 'FORBIDDEN', message: `Host '${req.headers.host}' is not allowed; open ${origins()[0]}` } })
    const origin = req.headers.origin
    if (origin !== undefined && !origins().includes(origin))
      return sendJson(res, 403, { error: { code: 'FORBIDDEN', message: `Origin '${origin}' may not use the duet dev API` } })
    if (req.method === 'GET' && url.pathname === '/') {
      // The page frames only its sandbox, and no site may frame the page (a click there would call tools).
      res.setHeader('content-security-policy', hostPageCsp([`http://127.0.0.1:${sandboxPort}`, `http://localhost:${sandboxPort}`]))
      res.setHeader('x-frame-options', 'DENY')
      return sendText(res, 200, 'text/html; charset=utf-8', PAGE_SHELL)
    }
    if (req.method === 'GET' && url.pathname === '/favicon.ico') {
      res.writeHead(204).end()
      return
    }
    if (req.method === 'GET' && url.pathname === '/host.js') return sendText(res, 200, 'text/javascript; charset=utf-8', script)
    if (req.method === 'GET' && url.pathname === '/api/state')
      return sendJson(res, 200, { sandboxPort, servers: connections.map((c) => c.snapshot()), chat: chatInfo })
    if (req.method === 'GET' && url.pathname === '/api/events') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' })
      res.write(': duet dev events\n\n')
      clients.add(res)
      const leave = () => clients.delete(res)
      res.on('close', leave)
      res.on('finish', leave)
      // A page gone mid-write: the stream is dropped; nothing to tell anyone.
      res.on('error', leave)
      return
    }
    if (req.method === 'POST' && url.pathname === '/api/rpc') return rpc(req, res)
    if (req.method === 'POST' && url.pathname === '/api/token') return setToken(req, res)
    if (req.method === 'POST' && (await chatRoute(chat, url.pathname, req, res))) return
    sendJson(res, 404, { error: { code: 'NOT_FOUND', message: `no route ${req.method} ${url.pathname}` } })
  }

  // The token field: a bearer for a protected HTTP server, kept in this process and never sent back to the page.
  const setToken = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (!(req.headers['content-type'] ?? '').startsWith('application/json'))
      return sendJson(res, 415, { error: { code: 'INVALID_REQUEST', message: 'POST /api/token needs Content-Type: application/json' } })
    let body: { server?: unknown; token?: unknown }
    try {
      body = JSON.parse(await readBody(req))
    } catch (err) {
      if (err instanceof DuetError) return sendJson(res, 413, { error: { code: err.code, message: err.message } })
      return sendJson(res, 400, { error: { code: 'INVALID_REQUEST', message: 'the request body is not JSON; send { server, token }' } })
    }
    const conn = connections.find((c) => c.id === body?.server)
    if (!conn) return sendJson(res, 404, { error: { code: 'NOT_FOUND', message: `unknown server ${JSON.stringify(body?.server)}` } })
    if (body.token !== undefined && typeof body.token !== 'string')
      return sendJson(res, 400, { error: { code: 'INVALID_ARGUMENT', message: 'token must be a string ("" sends none)' } })
    try {
      await conn.setToken(body.token ? body.token : undefined)
    } catch (err) {
      if (err instanceof DuetError) return sendJson(res, 400, { error: { code: err.code, message: err.message } })
      throw err
    }
    sendJson(res, 200, { state: conn.snapshot() })
  }

  const rpc = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    // A JSON content type forces a CORS preflight on cross-site pages, which this server never grants.
    if (!(req.headers['content-type'] ?? '').startsWith('application/json'))
      return sendJson(res, 415, { error: { code: 'INVALID_REQUEST', message: 'POST /api/rpc needs Content-Type: application/json' } })
    let body: { server?: unknown; method?: unknown; params?: unknown; caller?: unknown }
    try {
      body = JSON.parse(await readBody(req))
    } catch (err) {
      return sendJson(res, err instanceof DuetError ? 413 : 400, {
        error:
          err instanceof DuetError
            ? { code: err.code, message: err.message }
            : { code: 'INVALID_REQUEST', message: 'the request body is not JSON; send { server, method, params, caller }' },
      })
    }
    const conn = connections.find((c) => c.id === body?.server)
    if (!conn)
      return sendJson(res, 404, {
        error: { code: 'NOT_FOUND', message: `unknown server ${JSON.stringify(body?.server)}; known: ${connections.map((c) => c.id).join(', ')}` },
      })
    if (typeof body.method !== 'string' || !FORWARDED.has(body.method))
      return sendJson(res, 400, {
        error: { code: 'UNSUPPORTED', message: `method ${JSON.stringify(body.method)} is not forwarded; allowed: ${[...FORWARDED].join(', ')}` },
      })
    const params = body.params ?? {}
    if (typeof params !== 'object' || params === null || Array.isArray(params))
      return sendJson(res, 400, { error: { code: 'INVALID_REQUEST', message: 'params must be an object' } })
    const p = params as Record<string, unknown>
    if (body.method === 'tools/call' && body.caller === 'app') {
      // The spec: a view may only call tools of its own server whose visibility includes "app".
      const tool = conn.tool(String(p.name))
      const visibility = (tool?._meta as { ui?: { visibility?: string[] } } | undefined)?.ui?.visibility ?? ['model', 'app']
      if (!tool || !visibility.includes('app')) {
        return sendJson(res, 200, {
          error: { code: -32602, message: `tool ${JSON.stringify(p.name)} is not callable by the app (not on this server, or its visibility lacks "app")` },
        })
      }
    }
    const abort = new AbortController()
    res.on('close', () => {
      if (!res.writableEnded) abort.abort(new Error('the page cancelled the request'))
    })
    try {
      const result = await conn.request(body.method, p, abort.signal)
      sendJson(res, 200, { result })
    } catch (err) {
      const e = err as { code?: unknown; message?: string }
      sendJson(res, 200, { error: { code: typeof e.code === 'number' || typeof e.code === 'string' ? e.code : -32603, message: e.message ?? String(err) } })
    }
  }

  const main = createServer((req, res) => {
    api(req, res).catch((err) => sendJson(res, 500, { error: { code: 'INTERNAL', message: String(err) } }))
  })
  const sandbox = createServer(createSandboxHandler(origins, () => [`127.0.0.1:${sandboxPort}`, `localhost:${sandboxPort}`]))
  port = await listen(main, options.port ?? 5180, (p) => `port ${p} (the duet dev page) is in use; pick another with --port or $DUET_DEV_PORT`)
  try {
    // A taken sandbox port is named as such: the person only ever chose the page's port.
    sandboxPort = await listen(sandbox, options.sandboxPort ?? (options.port === 0 ? 0 : port + 1), (p) =>
      options.sandboxPort === undefined
        ? `port ${p} (the sandbox origin duet dev serves views from, always the page's port ${port} + 1) is in use; pick another --port or $DUET_DEV_PORT, and the sandbox takes the port after it`
        : `port ${p} (the sandboxPort option, the sandbox origin) is in use; pick another sandboxPort`,
    )
  } catch (err) {
    await closeServer(main)
    throw err
  }
  await Promise.all(connections.map((c) => c.start()))
  let watcher: ViewWatcher | undefined
  if (viteProject) {
    const note = (level: string, data: string) => broadcast({ type: 'log', server: 'watch', source: 'vite', level, data })
    try {
      watcher = await watchViewProject(viteProject, {
        started: () => {
          note('info', 'rebuilding the view…')
          for (const c of connections) c.buildStarted()
        },
        built: (ms) => {
          note('info', `view rebuilt in ${Math.round(ms)} ms`)
          // The page retries a render that failed during the build, even if this build wrote the same view.
          broadcast({ type: 'view-built' })
          // The build is written: look now rather than at the next poll.
          for (const c of connections) void c.buildEnded(true)
        },
        failed: (message) => {
          note('error', `the view did not build: ${message}`)
          for (const c of connections) void c.buildEnded(false)
        },
      })
    } catch (err) {
      await Promise.all(connections.map((c) => c.close()))
      await Promise.all([closeServer(main), closeServer(sandbox)])
      throw err
    }
  }

  return {
    url: `http://127.0.0.1:${port}/`,
    sandboxOrigin: `http://127.0.0.1:${sandboxPort}`,
    async close() {
      chat?.close()
      for (const res of clients) res.end()
      clients.clear()
      await watcher?.close()
      await Promise.all(connections.map((c) => c.close()))
      await Promise.all([closeServer(main), closeServer(sandbox)])
    },
  }
}

function listen(server: Server, port: number, inUse: (port: number) => string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(err.code === 'EADDRINUSE' ? new DuetError('LISTEN_FAILED', inUse(port), { port, cause: err.code }) : err),
    )
    server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port))
  })
}
