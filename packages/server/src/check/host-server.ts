import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { DuetError } from 'duetkit/protocol'
import { readBuiltAsset } from '../server/built-asset.js'
import { closeServer, readBody, sendError, sendJson, sendText } from '../dev/local-http.js'
import { createSandboxHandler } from '../dev/sandbox.js'
import type { CheckServer } from './server-client.js'

/** The check's two origins on 127.0.0.1: the host page (with the dev page's `/api/rpc`) and the dev host's sandbox proxy. */
export interface CheckHost {
  hostUrl: string
  sandboxUrl: string
  close(): Promise<void>
}

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>duet check</title>
<style>body{margin:0;padding:0;background:#fff}#stage{width:440px}#stage iframe{border:0;width:100%;height:120px;display:block;background:transparent}</style>
</head><body><div id="stage"></div><script type="module" src="/check.js"></script></body></html>`

const FORWARDED = new Set(['tools/call', 'resources/read', 'resources/list', 'resources/templates/list'])

/**
 * Starts the host page's origin and the sandbox origin. The page's `/api/rpc` speaks what the dev
 * page's `rpc()` expects, forwarding the view's requests to `connection` (none for a bare HTML file,
 * whose requests then fail as a host without that server would fail them).
 */
export async function startCheckHost(connection: Pick<CheckServer, 'tool' | 'request'> | null): Promise<CheckHost> {
  const script = readBuiltAsset('check-page.js')
  let hostPort = 0
  let sandboxPort = 0
  const host = createServer((req, res) => {
    route(req, res).catch((err) =>
      sendError(res, 500, new DuetError('INTERNAL', `duet check's host page failed: ${err instanceof Error ? err.message : String(err)}`)),
    )
  })
  const route = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = new URL(req.url ?? '/', 'http://check').pathname
    if (req.method === 'GET' && path === '/') return sendText(res, 200, 'text/html; charset=utf-8', PAGE)
    if (req.method === 'GET' && path === '/check.js') return sendText(res, 200, 'text/javascript; charset=utf-8', script)
    if (req.method === 'POST' && path === '/api/rpc') return sendJson(res, 200, await forward(connection, await readBody(req)))
    sendError(res, 404, new DuetError('NOT_FOUND', `no route ${req.method} ${path}`, { kind: 'route', name: path }))
  }
  const sandbox = createServer(
    createSandboxHandler(
      () => [`http://127.0.0.1:${hostPort}`],
      () => [`127.0.0.1:${sandboxPort}`],
    ),
  )
  hostPort = await listen(host)
  sandboxPort = await listen(sandbox).catch(async (err) => {
    await closeServer(host)
    throw err
  })
  return {
    hostUrl: `http://127.0.0.1:${hostPort}/`,
    sandboxUrl: `http://127.0.0.1:${sandboxPort}/sandbox.html`,
    close: () => Promise.all([closeServer(host), closeServer(sandbox)]).then(() => {}),
  }
}

// The view's own requests, as the dev host forwards them: only tools whose visibility includes "app".
async function forward(connection: Pick<CheckServer, 'tool' | 'request'> | null, raw: string): Promise<unknown> {
  let body: { method?: unknown; params?: unknown }
  try {
    body = JSON.parse(raw)
  } catch {
    return { error: { code: -32700, message: 'the request body is not JSON' } }
  }
  const method = String(body.method)
  if (!FORWARDED.has(method)) return { error: { code: -32601, message: `${method} is not forwarded` } }
  if (!connection) return { error: { code: -32603, message: `duet check was given a bare HTML file: no server to answer ${method}` } }
  const params = (typeof body.params === 'object' && body.params !== null ? body.params : {}) as Record<string, unknown>
  if (method === 'tools/call') {
    const tool = connection.tool(String(params.name))
    const visibility = (tool?._meta as { ui?: { visibility?: string[] } } | undefined)?.ui?.visibility ?? ['model', 'app']
    if (!tool || !visibility.includes('app'))
      return {
        error: { code: -32602, message: `tool ${JSON.stringify(params.name)} is not callable by the app (not on this server, or its visibility lacks "app")` },
      }
  }
  try {
    return { result: await connection.request(method, params) }
  } catch (err) {
    const e = err as { code?: unknown; message?: string }
    return { error: { code: typeof e.code === 'number' ? e.code : -32603, message: e.message ?? String(err) } }
  }
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port))
  })
}
