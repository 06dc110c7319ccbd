import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import { DuetError } from 'duetkit/protocol'
import { httpErrorJson } from '../server/error-body.js'

// The small HTTP plumbing of the loopback hosts (`duet dev`'s page server and `duet check`'s host):
// bounded bodies, no-store answers, and a close that does not wait for idle keep-alive sockets.

// The local API's bodies are JSON-RPC requests and tokens; a view's tool arguments fit well under this.
const MAX_BODY_BYTES = 1024 * 1024

/** Reads a request body as UTF-8, failing with TOO_LARGE (and dropping the socket) past `maxBytes`. */
export function readBody(req: IncomingMessage, maxBytes = MAX_BODY_BYTES): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > maxBytes) {
        reject(new DuetError('TOO_LARGE', `the request body is over ${maxBytes} bytes`, { limit: maxBytes }))
        req.destroy()
        return
      }
      chunks.push(chunk)
    })
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    req.on('error', reject)
  })
}

/** Closes a server now: open connections (a page's keep-alive sockets, long polls) are cut, not awaited. */
export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections()
    server.close(() => resolve())
  })
}

/** Answers a failure with the one HTTP error body of Duet, `{ error: { code, message, data? } }`. */
export function sendError(res: ServerResponse, status: number, err: DuetError): void {
  sendText(res, status, 'application/json; charset=utf-8', httpErrorJson(err))
}

/** Answers with JSON, never cached; does nothing when an answer has already started. */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  sendText(res, status, 'application/json; charset=utf-8', JSON.stringify(body))
}

/** Answers with a text body of `type`, never cached or sniffed; does nothing when an answer has already started. */
export function sendText(res: ServerResponse, status: number, type: string, body: string): void {
  if (res.headersSent) return
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' }).end(body)
}
