import { randomUUID } from 'node:crypto'
import { isInitializeRequest, WebStandardStreamableHTTPServerTransport, type AuthInfo, type McpServerFactory } from '@modelcontextprotocol/server'
import { BoundedMap } from './bounded-map.js'
import { MemoryEventStore, type EventStoreLimits, type SessionEventStore } from './event-store.js'

/** The 2025-era leg of the session mode: one SDK server and transport per `Mcp-Session-Id`. */
export interface SessionHandler {
  /**
   * `context.authInfo`: the verified token, passed on to handlers; `context.caller`: whose request it is
   * (token subject, else client address). A session answers only the caller that opened it.
   */
  /** `parsedBody`: the body already parsed (the rate limit reads it), so it is not read and parsed again. */
  fetch(request: Request, context: { authInfo?: AuthInfo; caller: string; parsedBody?: unknown }): Promise<Response>
  /** How many sessions are open. */
  readonly size: number
  close(): Promise<void>
}

export interface SessionOptions extends EventStoreLimits {
  /** Open sessions kept in all; past it the subject holding the most loses its least recently used one. */
  maxSessions: number
  /** Open sessions one subject may keep; past it that subject's least recently used one is closed. */
  maxSessionsPerSubject: number
  /** A session with no request for this long (and no open stream) is closed. */
  idleMs: number
  onerror?: (error: Error) => void
}

interface Session {
  transport: WebStandardStreamableHTTPServerTransport
  events: SessionEventStore
  /** Requests (streams included) still being answered: a client listening on its stream is not idle. */
  active: number
  lastUsed: number
  close(): Promise<void>
}

/**
 * Serves 2025-era clients with sessions: the server instance that answered `initialize` stays bound to the
 * session, so it can send requests (sampling, elicitation) and notifications (logging, list changes) back
 * over the session's SSE streams. Sessions live in this process: replicas need sticky routing on the header.
 * Each belongs to the caller that opened it (another token's or address's request finds no such session),
 * keeps its own events, and counts against that caller's share of the open sessions.
 */
export function sessionHandler(factory: McpServerFactory, options: SessionOptions): SessionHandler {
  const sessions = new BoundedMap<string, Session>({
    maxEntries: options.maxSessions,
    maxPerGroup: options.maxSessionsPerSubject,
    onEvict: (_id, session) => void session.close(),
  })
  const eventStore = new MemoryEventStore(options)
  const report = (err: unknown) => options.onerror?.(err instanceof Error ? err : new Error(String(err)))

  // Idle sessions are closed by a sweep (a client that never comes back sends nothing to trigger it).
  const sweep = setInterval(
    () => {
      const now = Date.now()
      for (const [, session] of [...sessions.entries()]) if (isIdle(session, now)) void session.close()
    },
    Math.max(50, Math.min(options.idleMs / 2, 60_000)),
  )
  sweep.unref()
  const isIdle = (session: Session, now: number) => session.active === 0 && now - session.lastUsed > options.idleMs

  const open = async (request: Request, authInfo: AuthInfo | undefined, caller: string, parsedBody: unknown): Promise<Response> => {
    const id = randomUUID()
    const events = eventStore.forSession(id, caller)
    let session: Session | undefined
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      eventStore: events,
      onsessioninitialized: () => {
        if (session) sessions.set(id, session, caller)
      },
      onsessionclosed: () => {
        void session?.close()
      },
    })
    const server = await factory({ era: 'legacy', requestInfo: request })
    let closed = false
    session = {
      transport,
      events,
      active: 0,
      lastUsed: Date.now(),
      async close() {
        if (closed) return
        closed = true
        sessions.delete(id)
        events.clear()
        await server.close().catch(report)
      },
    }
    transport.onclose = () => void session?.close()
    if (options.onerror) transport.onerror = options.onerror
    await server.connect(transport)
    return serveIn(session, () => transport.handleRequest(request, { authInfo, ...(parsedBody !== undefined && { parsedBody }) }))
  }

  return {
    get size() {
      return sessions.size
    },
    async fetch(request, context) {
      const { authInfo, caller, parsedBody } = context
      const id = request.headers.get('mcp-session-id')
      if (id) {
        // Another caller's session id answers as an unknown one: no hint that it exists.
        const session = sessions.groupOf(id) === caller ? sessions.get(id) : undefined
        if (!session || isIdle(session, Date.now())) {
          if (session) await session.close()
          return rpcError(404, -32001, `Session not found: '${id}' is unknown or was closed. Send initialize to start a new session.`)
        }
        // An event id of another session, an expired one and one never issued all get this same answer.
        const lastEventId = request.headers.get('last-event-id')
        if (request.method === 'GET' && lastEventId && !session.events.has(lastEventId))
          return rpcError(400, -32000, 'Bad Request: unknown or expired Last-Event-ID for this session; open a new stream without it')
        return serveIn(session, () => session.transport.handleRequest(request, { authInfo, ...(parsedBody !== undefined && { parsedBody }) }))
      }
      if (request.method === 'POST') {
        const body = parsedBody !== undefined ? parsedBody : parseJson(await request.clone().text())
        if (body === NOT_JSON) return rpcError(400, -32700, 'Parse error: the body is not JSON')
        if (isInitializeRequest(body)) return open(request, authInfo, caller, parsedBody)
      }
      return rpcError(400, -32000, 'Bad Request: this server keeps sessions; send initialize first, then the Mcp-Session-Id header it returns')
    },
    async close() {
      clearInterval(sweep)
      await Promise.allSettled([...sessions.entries()].map(([, s]) => s.close()))
      sessions.clear()
    },
  }
}

/** Answers `handle` in `session`, counting it active until its body is done (an SSE stream stays active while open). */
async function serveIn(session: Session, handle: () => Promise<Response>): Promise<Response> {
  session.active++
  session.lastUsed = Date.now()
  let done = false
  const finish = () => {
    if (done) return
    done = true
    session.active--
    session.lastUsed = Date.now()
  }
  let response: Response
  try {
    response = await handle()
  } catch (err) {
    finish()
    throw err
  }
  if (!response.body) {
    finish()
    return response
  }
  const reader = response.body.getReader()
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done: end, value } = await reader.read()
        if (end) {
          finish()
          controller.close()
        } else controller.enqueue(value)
      } catch (err) {
        finish()
        controller.error(err)
      }
    },
    async cancel(reason) {
      finish()
      await reader.cancel(reason)
    },
  })
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers })
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
