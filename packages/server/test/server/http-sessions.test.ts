import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import * as z from 'zod'
import { createAppServer, type AppServer, type Listening } from '../../src/server/index.js'

// A server whose tools need the client: they ask it for a completion, for input, and log to it.
function askingServer(): AppServer {
  return createAppServer({ name: 'asking', version: '1' })
    .configure((mcp) => mcp.server.registerCapabilities({ logging: {} }))
    .tool('ask_model', { description: 'Samples', inputSchema: { prompt: z.string() } }, async ({ prompt }, extra) => {
      const reply = await extra.mcpReq.requestSampling({ messages: [{ role: 'user', content: { type: 'text', text: prompt } }], maxTokens: 10 })
      const content = Array.isArray(reply.content) ? reply.content[0] : reply.content
      return { content: [{ type: 'text', text: `model said: ${content?.type === 'text' ? content.text : '?'}` }] }
    })
    .tool('ask_user', { description: 'Elicits' }, async (_args, extra) => {
      const answer = await extra.mcpReq.elicitInput({
        message: 'Your name?',
        requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
      })
      return { content: [{ type: 'text', text: `${answer.action}: ${JSON.stringify(answer.content ?? {})}` }] }
    })
    .tool('log_twice', { description: 'Logs' }, async (_args, extra) => {
      await extra.mcpReq.log('info', 'first')
      await extra.mcpReq.log('warning', 'second')
      return { content: [{ type: 'text', text: 'logged' }] }
    })
    .configure((mcp) => {
      mcp.registerTool('unlock', { description: 'Adds a tool' }, async () => {
        if (!mcp.isConnected()) throw new Error('not connected')
        mcp.registerTool('secret', { description: 'Added by unlock' }, async () => ({ content: [{ type: 'text', text: 'secret' }] }))
        return { content: [{ type: 'text', text: 'unlocked' }] }
      })
    })
}

async function legacyClient(url: string): Promise<{ client: Client; logs: string[]; transport: StreamableHTTPClientTransport }> {
  const client = new Client({ name: 'legacy', version: '1' }, { capabilities: { sampling: {}, elicitation: { form: {} } } })
  client.setRequestHandler('sampling/createMessage', async () => ({ role: 'assistant', content: { type: 'text', text: 'hello' }, model: 'fake' }))
  client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { name: 'Ada' } }))
  const logs: string[] = []
  client.setNotificationHandler('notifications/message', (n) => {
    logs.push(`${n.params.level}:${String(n.params.data)}`)
  })
  const transport = new StreamableHTTPClientTransport(new URL(url))
  await client.connect(transport)
  return { client, logs, transport }
}

const text = (result: { content?: unknown }) => (result.content as Array<{ text: string }>)[0]?.text

describe('HTTP session mode (sessions: true)', () => {
  let app: AppServer
  let listening: Listening
  let url: string
  beforeAll(async () => {
    app = askingServer()
    listening = await app.listen({ http: { port: 0, sessions: true }, handleSignals: false })
    url = listening.url!
  })
  afterAll(() => app.close())

  it('gives a 2025-era client a session id', async () => {
    const { client, transport } = await legacyClient(url)
    expect(client.getNegotiatedProtocolVersion()).not.toBe('2026-07-28')
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/)
    await client.close()
  })

  it('lets a tool ask the client for sampling', async () => {
    const { client } = await legacyClient(url)
    expect(text(await client.callTool({ name: 'ask_model', arguments: { prompt: 'hi' } }))).toBe('model said: hello')
    await client.close()
  })

  it('lets a tool elicit input from the client', async () => {
    const { client } = await legacyClient(url)
    expect(text(await client.callTool({ name: 'ask_user', arguments: {} }))).toBe('accept: {"name":"Ada"}')
    await client.close()
  })

  it('delivers log notifications to the client', async () => {
    const { client, logs } = await legacyClient(url)
    await client.setLoggingLevel('debug')
    expect(text(await client.callTool({ name: 'log_twice', arguments: {} }))).toBe('logged')
    expect(logs).toEqual(['info:first', 'warning:second'])
    await client.close()
  })

  it('delivers a tools list-changed notification on the standalone stream', async () => {
    const { client } = await legacyClient(url)
    const changed = new Promise<string>((resolve) => client.setNotificationHandler('notifications/tools/list_changed', (n) => resolve(n.method)))
    // `unlock` adds a tool to the server instance bound to this session, which tells its client outside any request.
    expect(text(await client.callTool({ name: 'unlock', arguments: {} }))).toBe('unlocked')
    expect(await changed).toBe('notifications/tools/list_changed')
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('secret')
    await client.close()
  })

  it('answers an unknown session id with 404 and a message saying to initialize', async () => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': 'nope' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    })
    expect(res.status).toBe(404)
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/Session not found: 'nope'.*initialize/)
  })

  it('answers a request with no session and no initialize with 400 naming the header', async () => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    })
    expect(res.status).toBe(400)
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/Mcp-Session-Id/)
  })

  it('still serves 2026-07-28 clients per request, with no session', async () => {
    const client = new Client({ name: 'modern', version: '1' }, { versionNegotiation: { mode: 'auto' } })
    const transport = new StreamableHTTPClientTransport(new URL(url))
    await client.connect(transport)
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28')
    expect(transport.sessionId).toBeUndefined()
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('ask_model')
    await client.close()
  })

  it('ends a session on DELETE', async () => {
    const { client, transport } = await legacyClient(url)
    const id = transport.sessionId!
    await transport.terminateSession()
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': id },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    })
    expect(res.status).toBe(404)
    await client.close()
  })
})

describe('HTTP stateless mode (the default)', () => {
  it('gives no session, so a tool cannot reach back to a 2025-era client', async () => {
    const app = askingServer()
    const { url } = await app.listen({ http: { port: 0 }, handleSignals: false })
    try {
      const { client, transport } = await legacyClient(url!)
      expect(transport.sessionId).toBeUndefined()
      const outcome = await client.callTool({ name: 'ask_user', arguments: {} }, { timeout: 3000 }).then(
        (r) => text(r),
        (e: Error) => e.message,
      )
      expect(outcome).not.toBe('accept: {"name":"Ada"}')
      await client.close()
    } finally {
      await app.close()
    }
  })

  it('refuses a sessions option that is not a boolean, naming it', async () => {
    const app = askingServer()
    await expect(app.listen({ http: { port: 0, sessions: 'yes' as unknown as boolean }, handleSignals: false })).rejects.toMatchObject({
      code: 'INVALID_OPTION',
      data: { option: 'http.sessions' },
    })
    await app.close()
  })
})
