import { RpcError } from 'duetkit/mcp'
import { DuetError, type ErrorCode } from 'duetkit/protocol'
// Type-only: the page shares the node side's description of a server, and no node code comes with it.
import type { ServerState } from '../server-state.js'
import type { ChatInfo } from '../model/chat-events.js'

/** A server as `/api/state` and the `state` event describe it. */
export type ServerView = ServerState

/** Reads the dev server's state: the sandbox port, every configured server, and the chat's model (null without --model). */
export async function fetchState(): Promise<{ sandboxPort: number; servers: ServerView[]; chat: ChatInfo | null }> {
  const res = await fetch('/api/state')
  return res.json()
}

/**
 * Forwards one MCP request to a server through the dev server. `caller` says who asks: the person
 * playing the model (`user`), or the rendered app (`app`), whose tool calls the dev server limits.
 */
export async function rpc<T = unknown>(
  server: string,
  method: string,
  params: Record<string, unknown>,
  caller: 'user' | 'app',
  signal?: AbortSignal,
): Promise<T> {
  const res = await fetch('/api/rpc', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ server, method, params, caller }),
    signal,
  })
  const body = (await res.json()) as { result?: T; error?: { code: number | ErrorCode; message: string } }
  // A server answers with a JSON-RPC code, the dev server itself with a Duet code.
  if (body.error)
    throw typeof body.error.code === 'number' ? new RpcError(body.error.code, body.error.message) : new DuetError(body.error.code, body.error.message)
  return body.result as T
}

/** Subscribes to the dev server's events; the browser's EventSource reconnects on its own. */
export function subscribe(handlers: Record<string, (data: any) => void>): EventSource {
  const source = new EventSource('/api/events')
  for (const [type, fn] of Object.entries(handlers)) source.addEventListener(type, (e) => fn(JSON.parse((e as MessageEvent).data)))
  return source
}
