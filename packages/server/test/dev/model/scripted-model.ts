import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** One message of a chat completions request, as the OpenAI-compatible provider sends it. */
export interface SentMessage {
  role: 'system' | 'user' | 'assistant' | 'tool'
  content?: string | null | { type: string; text?: string }[]
  tool_calls?: { id: string; function: { name: string; arguments: string } }[]
  tool_call_id?: string
}

/** A request the scripted model received: its body and its Authorization header. */
export interface SentRequest {
  body: { model: string; messages: SentMessage[]; tools?: { function: { name: string } }[]; stream?: boolean }
  authorization?: string
}

/** What the scripted model answers one request with. */
export type Reply =
  | {
      /** Streamed word by word. */
      text?: string
      toolCalls?: { name: string; arguments: Record<string, unknown> }[]
      /** Milliseconds between chunks (default 5): a slow stream gives a test time to press Stop. */
      delayMs?: number
      usage?: { prompt_tokens: number; completion_tokens: number }
    }
  | { status: number; error: { message: string; type?: string; code?: string } }

/** A running scripted model: a real HTTP server speaking the chat completions streaming API on loopback. */
export interface ScriptedModel {
  /** The base URL to give `--model-base-url` (ends in /v1). */
  url: string
  requests: SentRequest[]
  close(): Promise<void>
}

/** The text of a message's content, whether a string or parts. */
export function textOf(m: SentMessage | undefined): string {
  if (!m?.content) return ''
  return typeof m.content === 'string' ? m.content : m.content.map((p) => p.text ?? '').join('')
}

/**
 * Starts a model that answers each `POST /v1/chat/completions` with what `script` returns for it,
 * streamed as the OpenAI chat completions API streams (SSE `chat.completion.chunk`s: text deltas, tool
 * calls with their arguments in pieces, a usage chunk, `[DONE]`), so the AI SDK's real provider code
 * reads it. No network: it listens on 127.0.0.1.
 */
export async function startScriptedModel(script: (request: SentRequest) => Reply): Promise<ScriptedModel> {
  const requests: SentRequest[] = []
  const server = createServer((req, res) => {
    void answer(req, res).catch((err) => res.writeHead(500).end(String(err)))
  })
  let seq = 0
  const answer = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://x')
    if (req.method !== 'POST' || url.pathname !== '/v1/chat/completions') {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `no route ${req.method} ${url.pathname}` } }))
      return
    }
    const chunks: Buffer[] = []
    for await (const c of req) chunks.push(c as Buffer)
    const request: SentRequest = { body: JSON.parse(Buffer.concat(chunks).toString('utf8')), authorization: req.headers.authorization }
    requests.push(request)
    const reply = script(request)
    if ('status' in reply) {
      res.writeHead(reply.status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: reply.error }))
      return
    }
    const id = `chatcmpl-${++seq}`
    const base = { id, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model: request.body.model }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
    let closed = false
    res.on('close', () => {
      closed = true
    })
    const send = async (payload: unknown) => {
      if (closed) return
      res.write(`data: ${JSON.stringify(payload)}\n\n`)
      await new Promise((r) => setTimeout(r, reply.delayMs ?? 5))
    }
    const delta = (d: Record<string, unknown>, finish: string | null = null) => send({ ...base, choices: [{ index: 0, delta: d, finish_reason: finish }] })
    await delta({ role: 'assistant', content: '' })
    for (const word of (reply.text ?? '').match(/\S+\s*/g) ?? []) await delta({ content: word })
    for (const [i, call] of (reply.toolCalls ?? []).entries()) {
      const args = JSON.stringify(call.arguments)
      const half = Math.ceil(args.length / 2)
      await delta({ tool_calls: [{ index: i, id: `call_${seq}_${i}`, type: 'function', function: { name: call.name, arguments: args.slice(0, half) } }] })
      await delta({ tool_calls: [{ index: i, function: { arguments: args.slice(half) } }] })
    }
    await delta({}, reply.toolCalls?.length ? 'tool_calls' : 'stop')
    const usage = reply.usage ?? { prompt_tokens: 100 + requests.length, completion_tokens: 7 }
    await send({ ...base, choices: [], usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } })
    if (!closed) res.end('data: [DONE]\n\n')
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
