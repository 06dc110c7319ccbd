import { writeFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { RESOURCE_MIME_TYPE, type Listening } from '@duetkit/server'
import { demoApp, PAGE_V1, type DemoApp } from './demo-app.js'

let demo: DemoApp
let listening: Listening
let url: string

async function connect(era: 'legacy' | 'modern'): Promise<Client> {
  const client = new Client({ name: 'test', version: '1' }, era === 'modern' ? { versionNegotiation: { mode: 'auto' } } : {})
  await client.connect(new StreamableHTTPClientTransport(new URL(url)))
  return client
}

async function post(body: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body,
  })
}

beforeAll(async () => {
  demo = demoApp()
  listening = await demo.app.listen({ http: { port: 0 }, handleSignals: false })
  url = listening.url!
})

afterAll(async () => {
  await demo.app.close()
  demo.cleanup()
})

describe('HTTP listener', () => {
  it('binds loopback on the port it picked and reports the URL', () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/)
    expect(Number(new URL(url).port)).toBeGreaterThan(0)
  })

  for (const era of ['legacy', 'modern'] as const) {
    describe(`${era} era`, () => {
      let client: Client
      beforeAll(async () => {
        client = await connect(era)
      })
      afterAll(async () => {
        await client.close()
      })

      it('negotiates the era', () => {
        const version = client.getNegotiatedProtocolVersion()
        if (era === 'modern') expect(version).toBe('2026-07-28')
        else expect(version).not.toBe('2026-07-28')
      })

      it('lists tools with their ui metadata and visibility', async () => {
        const { tools } = await client.listTools()
        const byName = Object.fromEntries(tools.map((t) => [t.name, t]))
        expect(Object.keys(byName).sort()).toEqual(['broken', 'duet_view_state', 'echo', 'explode', 'inline', 'ping', 'refresh', 'show'])
        expect(byName.show._meta).toMatchObject({ ui: { resourceUri: 'ui://demo/show.html' }, 'ui/resourceUri': 'ui://demo/show.html' })
        expect(byName.inline._meta).toMatchObject({ ui: { resourceUri: 'ui://demo/custom/inline.html' } })
        expect(byName.refresh._meta).toEqual({ ui: { visibility: ['app'] }, 'openai/widgetAccessible': true, 'openai/visibility': 'private' })
        expect(byName.echo._meta?.ui).toBeUndefined()
        expect(byName.echo.inputSchema).toMatchObject({ type: 'object', properties: { text: { type: 'string' } }, required: ['text'] })
      })

      it('calls a tool', async () => {
        const result = await client.callTool({ name: 'echo', arguments: { text: 'hi' } })
        expect(result.content).toEqual([{ type: 'text', text: 'echo: hi' }])
        expect(await client.callTool({ name: 'ping', arguments: {} })).toMatchObject({ content: [{ type: 'text', text: 'pong' }] })
        expect(await client.callTool({ name: 'show', arguments: { city: 'Oslo' } })).toMatchObject({ structuredContent: { city: 'Oslo' } })
        expect(await client.callTool({ name: 'refresh', arguments: { n: 3 } })).toMatchObject({ structuredContent: { n: 3 } })
      })

      it('rejects wrong tool arguments with the SDK validation error, then keeps serving', async () => {
        const outcome = await client.callTool({ name: 'echo', arguments: { text: 42 } }).then(
          (r) => JSON.stringify(r),
          (e: Error) => e.message,
        )
        expect(outcome).toMatch(/Input validation error/)
        expect(outcome).toMatch(/text/)
        const tooLong = await client.callTool({ name: 'echo', arguments: { text: 'x'.repeat(21) } }).then(
          (r) => JSON.stringify(r),
          (e: Error) => e.message,
        )
        expect(tooLong).toMatch(/Input validation error/)
        expect((await client.callTool({ name: 'echo', arguments: { text: 'ok' } })).content).toEqual([{ type: 'text', text: 'echo: ok' }])
      })

      it("turns a tool's own failure into an isError result", async () => {
        const result = await client.callTool({ name: 'explode', arguments: {} })
        expect(result.isError).toBe(true)
        expect(result.content).toEqual([{ type: 'text', text: expect.stringContaining('the tool broke') }])
      })

      it('reads the view resource with its MIME type and _meta.ui on the content item', async () => {
        const { contents } = await client.readResource({ uri: 'ui://demo/show.html' })
        expect(contents).toHaveLength(1)
        expect(contents[0]).toMatchObject({ uri: 'ui://demo/show.html', mimeType: RESOURCE_MIME_TYPE, text: PAGE_V1 })
        expect(contents[0]._meta).toEqual({
          ui: {
            csp: { connectDomains: ['https://api.example.com'], resourceDomains: ['https://cdn.example.com'] },
            permissions: { clipboardWrite: {} },
            prefersBorder: false,
            domain: 'demo.example-sandbox.com',
          },
        })
        const inline = await client.readResource({ uri: 'ui://demo/custom/inline.html' })
        expect(inline.contents[0]).toMatchObject({ mimeType: 'text/html;profile=mcp-app', text: '<!doctype html><p>inline</p>' })
      })

      it('lists the view resources with their ui metadata', async () => {
        const { resources } = await client.listResources()
        const show = resources.find((r) => r.uri === 'ui://demo/show.html')
        expect(show).toMatchObject({ mimeType: RESOURCE_MIME_TYPE, _meta: { ui: { prefersBorder: false } } })
      })

      it('reports a missing view file as a clear error and keeps serving', async () => {
        await expect(client.readResource({ uri: 'ui://demo/broken.html' })).rejects.toThrow(
          /View file for ui:\/\/demo\/broken\.html does not exist \(build the view first\?\)/,
        )
        expect((await client.callTool({ name: 'broken', arguments: {} })).content).toEqual([{ type: 'text', text: 'broken view, fine result' }])
        expect((await client.readResource({ uri: 'ui://demo/show.html' })).contents[0]).toMatchObject({ text: expect.any(String) })
      })
    })
  }

  it('serves a file view edited between two reads with the new content', async () => {
    const client = await connect('legacy')
    try {
      writeFileSync(demo.viewFile, '<!doctype html><p>before</p>')
      expect((await client.readResource({ uri: 'ui://demo/show.html' })).contents[0]).toMatchObject({ text: '<!doctype html><p>before</p>' })
      writeFileSync(demo.viewFile, '<!doctype html><p>rebuilt</p>')
      expect((await client.readResource({ uri: 'ui://demo/show.html' })).contents[0]).toMatchObject({ text: '<!doctype html><p>rebuilt</p>' })
    } finally {
      writeFileSync(demo.viewFile, PAGE_V1)
      await client.close()
    }
  })

  it('answers a malformed JSON body with a JSON-RPC parse error and keeps serving', async () => {
    const res = await post('{"jsonrpc":"2.0","id":1,"method":')
    expect(res.status).toBe(400)
    const body = (await res.json()) as { error: { code: number; message: string } }
    expect(body.error.code).toBe(-32700)
    const client = await connect('modern')
    expect((await client.callTool({ name: 'ping', arguments: {} })).content).toEqual([{ type: 'text', text: 'pong' }])
    await client.close()
  })

  it('rejects bodies that are JSON but not JSON-RPC with -32600 Invalid Request', async () => {
    for (const body of ['[1, 2]', '{"id":5}']) {
      const res = await post(body)
      expect(res.status).toBe(400)
      expect(((await res.json()) as { error: { code: number } }).error.code).toBe(-32600)
    }
  })

  it('rejects a foreign Host header (DNS rebinding) and a foreign Origin with 403', async () => {
    const init = '{"jsonrpc":"2.0","id":1,"method":"ping"}'
    // fetch forbids setting Host, so speak HTTP through node:http for that one.
    const { request } = await import('node:http')
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        url,
        { method: 'POST', headers: { host: 'evil.example.com', 'content-type': 'application/json', accept: 'application/json, text/event-stream' } },
        (res) => {
          res.resume()
          resolve(res.statusCode ?? 0)
        },
      )
      req.on('error', reject)
      req.end(init)
    })
    expect(status).toBe(403)
    expect((await post(init, { origin: 'https://evil.example.com' })).status).toBe(403)
  })

  it('answers 404 outside the MCP path', async () => {
    const res = await fetch(new URL('/other', url), { method: 'POST', body: '{}' })
    expect(res.status).toBe(404)
    expect((await res.json()).error).toMatchObject({ code: 'NOT_FOUND', message: expect.stringContaining('/mcp') })
  })
})
