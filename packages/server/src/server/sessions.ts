import { randomUUID } from 'node:crypto'
import { isInitializeRequest, WebStandardStreamableHTTPServerTransport, type AuthInfo, type McpServerFactory } from '@modelcontextprotocol/server'
import { MemoryEventStore } from './event-store.js'
import { subjectOfAuth } from './subject.js'

/** The 2025-era leg of the session mode: one SDK server and transport per `Mcp-Session-Id`. */
export interface SessionHandler {
  /** `context.authInfo`: the verified token, passed on to handlers; a session answers only its own subject. */
  fetch(request: Request, context?: { authInfo?: AuthInfo }): Promise<Response>
  /** How many sessions are open. */
  readonly size: number
  close(): Promise<void>
}

export interface SessionOptions {
  /** Open sessions kept; past it the least recently used one is closed. */
  maxSessions: number
  onerror?: (error: Error) => void
}

interface Session {
  transport: WebStandardStreamableHTTPServerTransport
  /** The subject that opened it: with auth, another subject's token cannot ride on a leaked session id. */
  subject: string | undefined
  close(): Promise<void>
}

/**
 * Serves 2025-era clients with sessions: the server instance that answered `initialize` stays bound to the
 * session, so it can send requests (sampling, elicitation) and notifications (logging, list changes) back
 * over the session's SSE streams. Sessions live in this process: replicas need sticky routing on the header.
 */
export function sessionHandler(factory: McpServerFactory, options: SessionOptions): SessionHandler {
  const sessions = new Map<string, Session>()
  const eventStore = new MemoryEventStore()

  const open = async (request: Request, authInfo: AuthInfo | undefined): Promise<Response> => {
    let session: Session | undefined
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      eventStore,
      onsessioninitialized: (id) => {
        if (session) sessions.set(id, session)
        if (sessions.size > options.maxSessions) void sessions.values().next().value?.close()
      },
      onsessionclosed: (id) => {
        sessions.delete(id)
      },
    })
    const server = await factory({ era: 'legacy', requestInfo: request })
    session = {
      transport,
      subject: subjectOfAuth(authInfo),
      async close() {
        if (transport.sessionId) sessions.delete(transport.sessionId)
        await server.close().catch((err: unknown) => options.onerror?.(err instanceof Error ? err : new Error(String(err))))
      },
    }
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId)
    }
    if (options.onerror) transport.onerror = options.onerror
    await server.connect(transport)
    return transport.handleRequest(request, { authInfo })
  }

  return {
    get size() {
      return sessions.size
    },
    async fetch(request, context) {
      const authInfo = context?.authInfo
      const id = request.headers.get('mcp-session-id')
      if (id) {
        const session = sessions.get(id)
        if (!session || session.subject !== subjectOfAuth(authInfo))
          return rpcError(404, -32001, `Session not found: '${id}' is unknown or was closed. Send initialize to start a new session.`)
        // Most recently used last, so eviction takes the idlest session.
        sessions.delete(id)
        sessions.set(id, session)
        return session.transport.handleRequest(request, { authInfo })
      }
      if (request.method === 'POST') {
        const body = parseJson(await request.clone().text())
        if (body === NOT_JSON) return rpcError(400, -32700, 'Parse error: the body is not JSON')
        if (isInitializeRequest(body)) return open(request, authInfo)
      }
      return rpcError(400, -32000, 'Bad Request: this server keeps sessions; send initialize first, then the Mcp-Session-Id header it returns')
    },
    async close() {
      await Promise.allSettled([...sessions.values()].map((s) => s.close()))
      sessions.clear()
    },
  }
}

const NOT_JSON = Symbol('not JSON')

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return NOT_JSON
  }
}

function rpcError(status: number, code: number, message: string): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), { status, headers: { 'content-type': 'application/json' } })
}
