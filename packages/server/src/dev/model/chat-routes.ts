import type { IncomingMessage, ServerResponse } from 'node:http'
import { DuetError } from 'duetkit/protocol'
import { readBody, sendJson } from '../local-http.js'
import type { ChatSession } from './chat-session.js'

// A message longer than this is refused: the chat is typed by a person or sent by a view.
const MAX_TEXT = 100_000

/**
 * The chat's API on the page's origin: `POST /api/chat` (a user turn, typed or a view's `ui/message`),
 * `/api/chat/stop`, `/api/chat/context` (a view's `ui/update-model-context`). Answers whether it took the
 * request; without `--model` every route says so with UNSUPPORTED.
 */
export async function chatRoute(session: ChatSession | undefined, path: string, req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  if (path !== '/api/chat' && path !== '/api/chat/stop' && path !== '/api/chat/context') return false
  if (!session) {
    sendJson(res, 409, { error: { code: 'UNSUPPORTED', message: 'duet dev runs without a model; start it with --model <provider>:<model>' } })
    return true
  }
  if (!(req.headers['content-type'] ?? '').startsWith('application/json')) {
    sendJson(res, 415, { error: { code: 'INVALID_REQUEST', message: `POST ${path} needs Content-Type: application/json` } })
    return true
  }
  let body: Record<string, unknown>
  try {
    const parsed: unknown = JSON.parse(await readBody(req))
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new SyntaxError('not an object')
    body = parsed as Record<string, unknown>
  } catch (err) {
    const tooLarge = err instanceof DuetError
    sendJson(res, tooLarge ? 413 : 400, {
      error: tooLarge ? { code: err.code, message: err.message } : { code: 'INVALID_REQUEST', message: `the body of POST ${path} is not a JSON object` },
    })
    return true
  }
  if (path === '/api/chat/stop') {
    sendJson(res, 200, { stopped: session.stop() })
    return true
  }
  const from = body.from as { callId?: unknown; tool?: unknown } | undefined
  const fromOk = from === undefined || (typeof from === 'object' && from !== null && typeof from.callId === 'string' && typeof from.tool === 'string')
  if (!fromOk) {
    sendJson(res, 400, { error: { code: 'INVALID_ARGUMENT', message: 'from must be { callId, tool }: the tool call whose view sent it' } })
    return true
  }
  if (path === '/api/chat/context') {
    if (!from) {
      sendJson(res, 400, { error: { code: 'INVALID_ARGUMENT', message: 'POST /api/chat/context needs from: { callId, tool }' } })
      return true
    }
    const size = JSON.stringify(body.params ?? null).length
    if (size > MAX_TEXT) {
      sendJson(res, 413, { error: { code: 'TOO_LARGE', message: `a view's model context is limited to ${MAX_TEXT} characters of JSON, got ${size}` } })
      return true
    }
    session.setContext(from.callId as string, from.tool as string, body.params ?? null)
    sendJson(res, 200, {})
    return true
  }
  const text = body.text
  if (typeof text !== 'string' || text.trim() === '' || text.length > MAX_TEXT) {
    sendJson(res, 400, { error: { code: 'INVALID_ARGUMENT', message: `text must be a non-empty string of at most ${MAX_TEXT} characters` } })
    return true
  }
  const turn = session.send(text, from ? { callId: from.callId as string, tool: from.tool as string } : undefined)
  sendJson(res, 200, { turn })
  return true
}
