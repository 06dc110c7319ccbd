import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface Route {
  /** Response body; a function is called per request so a test can change what is served. */
  body: string | Buffer | ((req: IncomingMessage) => string | Buffer)
  type?: string
  headers?: Record<string, string>
}

export interface TestHttpServer {
  /** `http://<host>:<port>`, without a trailing slash. */
  origin: string
  port: number
  routes: Map<string, Route>
  close(): Promise<void>
}

/**
 * A tiny static server for browser tests, bound to loopback. `host` picks the origin's name, so a
 * test can serve a host page on 127.0.0.1 and a view on localhost: two origins on one machine.
 */
export async function startHttpServer(routes: Record<string, Route> = {}, host: '127.0.0.1' | 'localhost' = '127.0.0.1'): Promise<TestHttpServer> {
  const table = new Map(Object.entries(routes))
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname
    const route = table.get(path)
    if (!route) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end(`no route ${path}`)
      return
    }
    const body = typeof route.body === 'function' ? route.body(req) : route.body
    res.writeHead(200, { 'content-type': route.type ?? 'text/html; charset=utf-8', 'cache-control': 'no-store', ...route.headers })
    res.end(body)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return {
    origin: `http://${host}:${port}`,
    port,
    routes: table,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
