import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { hostname } from 'node:os'
import { createMcpHandler, localhostAllowedHostnames, localhostAllowedOrigins, type McpServerFactory } from '@modelcontextprotocol/server'
import { hostHeaderValidation, originValidation, toNodeHandler } from '@modelcontextprotocol/node'
import { DuetError, invalidOption } from './errors.js'

/** Options of the Streamable HTTP listener. */
export interface HttpListenOptions {
  /** Default 3001; `0` picks a free port (read it from `Listening.url`). */
  port?: number
  /** Default `127.0.0.1`: loopback only. Bind wider only behind something that authenticates. */
  host?: string
  /** Default `/mcp`. */
  path?: string
  /**
   * Hostnames the `Host` header may name (DNS rebinding protection). Default: the loopback names, plus
   * `host` itself when it is a specific address, plus the machine's name when `host` is a wildcard.
   */
  allowedHosts?: string[]
  /** Origin hostnames a browser request may come from. Default: the loopback names; requests with no Origin pass. */
  allowedOrigins?: string[]
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

/** Serves the factory's servers over Streamable HTTP: 2026-07-28 per-request and 2025-era stateless traffic alike. */
export async function listenHttp(factory: McpServerFactory, options: HttpListenOptions = {}): Promise<HttpListening> {
  const { port = 3001, host = '127.0.0.1', path = '/mcp', shutdownGraceMs = 5000, onError } = options
  if (!Number.isInteger(port) || port < 0 || port > 65535) invalidOption('listen', 'http.port', `must be an integer 0-65535, got ${JSON.stringify(port)}`)
  if (typeof host !== 'string' || host === '') invalidOption('listen', 'http.host', 'must be a non-empty string')
  if (typeof path !== 'string' || !path.startsWith('/')) invalidOption('listen', 'http.path', `must start with '/', got ${JSON.stringify(path)}`)
  if (!Number.isFinite(shutdownGraceMs) || shutdownGraceMs < 0) invalidOption('listen', 'http.shutdownGraceMs', 'must be a number >= 0')
  const allowedHosts = options.allowedHosts ?? defaultAllowedHosts(host)
  const allowedOrigins = options.allowedOrigins ?? localhostAllowedOrigins()

  const report = (error: Error) => onError?.(error)
  const handler = createMcpHandler(factory, { onerror: report })
  const serve = toNodeHandler(handler, { onerror: report })
  const checkHost = hostHeaderValidation(allowedHosts)
  const checkOrigin = originValidation(allowedOrigins)

  let closing: Promise<void> | undefined
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    // While shutting down, a keep-alive connection would otherwise idle until the grace period ends.
    res.once('finish', () => {
      if (closing) setImmediate(() => server.closeIdleConnections())
    })
    if (!checkHost(req, res) || !checkOrigin(req, res)) return
    if (new URL(req.url ?? '/', 'http://local').pathname !== path) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: `Not found: the MCP endpoint is ${path}` }))
      return
    }
    serve(req, res).catch((err: unknown) => {
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

  return {
    url: `http://${urlHost}:${address.port}${path}`,
    close() {
      closing ??= new Promise<void>((resolve) => {
        // Stop accepting, let in-flight requests finish, and only then cut long-lived streams.
        const timer = setTimeout(() => {
          void handler.close()
          server.closeAllConnections()
        }, shutdownGraceMs)
        timer.unref()
        server.close(() => {
          clearTimeout(timer)
          void handler.close().finally(resolve)
        })
        server.closeIdleConnections()
      })
      return closing
    },
  }
}

function defaultAllowedHosts(host: string): string[] {
  const names = localhostAllowedHostnames()
  if (LOOPBACK.has(host)) return names
  if (WILDCARDS.has(host)) return [...names, hostname()]
  return [...names, host.includes(':') && !host.startsWith('[') ? `[${host}]` : host]
}
