import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAppServer, type AppServer } from '../../src/server/index.js'

const INIT = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
})
const LIST = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} })

describe('HTTP request headers', () => {
  let app: AppServer
  let url: string
  beforeAll(async () => {
    app = createAppServer({ name: 'headers', version: '1' }).tool('ping', { description: 'pong' }, async () => ({ content: [{ type: 'text', text: 'pong' }] }))
    url = (await app.listen({ http: { port: 0 }, handleSignals: false })).url!
  })
  afterAll(() => app.close())

  const post = (body: string, headers: Record<string, string>) =>
    fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body })

  for (const [name, headers] of [
    ['Accept: */*', { accept: '*/*' }],
    ['Accept: text/html, */*;q=0.8', { accept: 'text/html, */*;q=0.8' }],
    ['no Accept header', {}],
  ] as const) {
    it(`serves a request with ${name} instead of answering 406`, async () => {
      const res = await post(LIST, headers)
      expect(res.status).toBe(200)
      expect(await res.text()).toContain('"ping"')
      expect((await post(INIT, headers)).status).toBe(200)
    })
  }

  it('still answers 406 to an Accept that names only other types', async () => {
    expect((await post(LIST, { accept: 'text/html' })).status).toBe(406)
  })

  for (const bad of ['banana', '2025/06/18', '2025-06-18, 2026-07-28', '']) {
    it(`answers a malformed MCP-Protocol-Version ${JSON.stringify(bad)} with 400 naming what came and what is supported`, async () => {
      const res = await post(LIST, { accept: 'application/json, text/event-stream', 'mcp-protocol-version': bad })
      expect(res.status).toBe(400)
      const { error } = (await res.json()) as { error: { code: number; message: string } }
      expect(error.message).toContain(`received ${JSON.stringify(bad)}`)
      expect(error.message).toMatch(/supports 2026-07-28, 2025-11-25, 2025-06-18/)
      expect(error.message).not.toMatch(/_meta|envelope/)
    })
  }

  it('leaves a well-formed but unknown version to the SDK, which names the supported ones', async () => {
    const res = await post(LIST, { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2024-01-01' })
    expect(res.status).toBe(400)
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(
      /Unsupported protocol version: 2024-01-01 \(supported versions: 2025-11-25/,
    )
  })
})
