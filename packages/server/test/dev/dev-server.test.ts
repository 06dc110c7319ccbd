import { mkdtempSync, rmSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_CSP } from '../../src/dev/csp.js'
import { startDevServer, type DevServer } from '../../src/dev/dev-server.js'
import { startFixtureServer, type FixtureServer } from './fixtures/app-server.mjs'
import { writeView } from './fixtures/build-view.js'

interface Reply {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
  json: any
}

// node:http rather than fetch, because the tests need to forge the Host header.
function raw(base: string, method: string, path: string, headers: Record<string, string> = {}, body?: string | Buffer): Promise<Reply> {
  const url = new URL(path, base)
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: url.port, method, path: url.pathname + url.search, headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8')
        let json: unknown
        try {
          json = JSON.parse(text)
        } catch {
          json = undefined
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text, json })
      })
    })
    req.on('error', (err: NodeJS.ErrnoException) =>
      err.code === 'ECONNRESET' || err.code === 'EPIPE' ? resolve({ status: 413, headers: {}, body: '', json: undefined }) : reject(err),
    )
    req.end(body)
  })
}

describe('duet dev server API', () => {
  let dir: string
  let fixture: FixtureServer
  let dev: DevServer
  const rpc = (payload: unknown, headers: Record<string, string> = {}) =>
    raw(dev.url, 'POST', '/api/rpc', { 'content-type': 'application/json', ...headers }, typeof payload === 'string' ? payload : JSON.stringify(payload))

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'duet-dev-api-'))
    const viewPath = join(dir, 'view.html')
    await writeView(viewPath, 'v1')
    fixture = await startFixtureServer({ viewPath })
    dev = await startDevServer({ servers: [{ kind: 'http', url: fixture.url }], port: 0, pollMs: 200 })
  })

  afterAll(async () => {
    await dev?.close()
    await fixture?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('answers on loopback and refuses other Host names (DNS rebinding)', async () => {
    const ok = await raw(dev.url, 'GET', '/')
    expect(ok.status).toBe(200)
    expect(ok.body).toContain('/host.js')
    const evil = await raw(dev.url, 'GET', '/api/state', { host: `evil.example:${new URL(dev.url).port}` })
    expect(evil.status).toBe(403)
    expect(evil.json.error).toEqual({ code: 'FORBIDDEN', message: expect.stringMatching(/^Host 'evil.example:\d+' is not allowed; open http:\/\/127.0.0.1:/) })
  })

  it('refuses API calls from other origins and non-JSON posts', async () => {
    const foreign = await rpc({ server: 's1', method: 'tools/call', params: { name: 'echo', arguments: { text: 'x' } } }, { origin: 'http://evil.example' })
    expect(foreign.status).toBe(403)
    expect(foreign.json.error).toEqual({ code: 'FORBIDDEN', message: "Origin 'http://evil.example' may not use the duet dev API" })
    const form = await raw(dev.url, 'POST', '/api/rpc', { 'content-type': 'text/plain' }, '{}')
    expect(form.status).toBe(415)
    expect(form.json.error.code).toBe('INVALID_REQUEST')
  })

  it('reports malformed, oversized and misaddressed requests clearly', async () => {
    expect((await rpc('{not json')).json.error).toEqual({ code: 'INVALID_REQUEST', message: expect.stringMatching(/^the request body is not JSON/) })
    const big = await rpc(JSON.stringify({ server: 's1', method: 'tools/call', params: { name: 'echo', arguments: { text: 'x'.repeat(2 * 1024 * 1024) } } }))
    expect(big.status).toBe(413)
    const unknown = await rpc({ server: 's9', method: 'tools/call', params: {} })
    expect(unknown.status).toBe(404)
    expect(unknown.json.error).toEqual({ code: 'NOT_FOUND', message: expect.stringContaining('known: s1') })
    const method = await rpc({ server: 's1', method: 'sampling/createMessage', params: {} })
    expect(method.json.error).toEqual({ code: 'UNSUPPORTED', message: expect.stringMatching(/^method "sampling\/createMessage" is not forwarded; allowed: /) })
    const params = await rpc({ server: 's1', method: 'tools/call', params: ['echo'] })
    expect(params.json.error).toEqual({ code: 'INVALID_REQUEST', message: 'params must be an object' })
  })

  it('forwards tool calls, passes a tool error back, and stays connected', async () => {
    const ok = await rpc({ server: 's1', method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } }, caller: 'user' })
    expect(ok.json.result.content[0].text).toBe('hi')
    const wrong = await rpc({ server: 's1', method: 'tools/call', params: { name: 'echo', arguments: { text: 42 } }, caller: 'user' })
    const failed = wrong.json.error ?? (wrong.json.result?.isError ? wrong.json.result : undefined)
    expect(failed).toBeDefined()
    const state = await raw(dev.url, 'GET', '/api/state')
    expect(state.json.servers[0].status).toBe('connected')
  })

  it('lets the app call app-visible tools only', async () => {
    const allowed = await rpc({ server: 's1', method: 'tools/call', params: { name: 'bump', arguments: { count: 1 } }, caller: 'app' })
    expect(allowed.json.result.structuredContent).toEqual({ count: 2 })
    const denied = await rpc({ server: 's1', method: 'tools/call', params: { name: 'model_only_peek', arguments: {} }, caller: 'app' })
    expect(denied.json.error.code).toBe(-32602)
    const missing = await rpc({ server: 's1', method: 'tools/call', params: { name: 'no_such_tool', arguments: {} }, caller: 'app' })
    expect(missing.json.error.code).toBe(-32602)
  })

  it('serves the sandbox on its own origin with the CSP as a header, refusing bad policies', async () => {
    expect(dev.sandboxOrigin).not.toBe(new URL(dev.url).origin)
    const plain = await raw(dev.sandboxOrigin, 'GET', '/sandbox.html')
    // The view's policy (the spec's default here), and only the dev page may frame the proxy.
    const page = new URL(dev.url).origin
    expect(plain.headers['content-security-policy']).toBe(`${DEFAULT_CSP}; frame-ancestors ${page} ${page.replace('127.0.0.1', 'localhost')}`)
    const declared = await raw(
      dev.sandboxOrigin,
      'GET',
      `/sandbox.html?csp=${encodeURIComponent(JSON.stringify({ connectDomains: ['https://api.example.com'] }))}`,
    )
    expect(declared.headers['content-security-policy']).toContain('connect-src https://api.example.com')
    const injected = await raw(dev.sandboxOrigin, 'GET', `/sandbox.html?csp=${encodeURIComponent(JSON.stringify({ connectDomains: ["* 'unsafe-eval'"] }))}`)
    expect(injected.status).toBe(400)
    expect(injected.body).toMatch(/^INVALID_CSP: _meta.ui.csp.connectDomains has /)
    const evil = await raw(dev.sandboxOrigin, 'GET', '/sandbox.html', { host: 'evil.example' })
    expect(evil.status).toBe(403)
  })

  it('checks its options and a busy port', async () => {
    await expect(startDevServer({ servers: [] })).rejects.toThrow(/options.servers/)
    await expect(startDevServer({ servers: [{ kind: 'http', url: fixture.url }], pollMs: 1 })).rejects.toThrow(/pollMs/)
    await expect(startDevServer({ servers: [{ kind: 'http', url: fixture.url }], port: Number(new URL(dev.url).port), sandboxPort: 0 })).rejects.toThrow(
      /in use/,
    )
  })
})

describe('duet dev over stdio', () => {
  it('spawns the configured command without a shell and talks to it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'duet-dev-stdio-'))
    const viewPath = join(dir, 'view.html')
    await writeView(viewPath, 'stdio')
    const script = fileURLToPath(new URL('./fixtures/app-server.mjs', import.meta.url))
    const dev = await startDevServer({
      servers: [{ kind: 'stdio', command: process.execPath, args: [script, '--stdio', viewPath], line: `node ${script} --stdio` }],
      port: 0,
    })
    try {
      const state = await raw(dev.url, 'GET', '/api/state')
      expect(state.json.servers[0].status).toBe('connected')
      expect(state.json.servers[0].tools.map((t: { name: string }) => t.name)).toContain('show_counter')
      const read = await raw(
        dev.url,
        'POST',
        '/api/rpc',
        { 'content-type': 'application/json' },
        JSON.stringify({ server: 's1', method: 'resources/read', params: { uri: 'ui://fixture/counter.html' } }),
      )
      expect(read.json.result.contents[0].text).toContain('<h1 id="version">stdio</h1>')
    } finally {
      await dev.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('shows a command that cannot start as an error instead of crashing', async () => {
    const dev = await startDevServer({
      servers: [{ kind: 'stdio', command: '/nonexistent/duet-test-server', args: [], line: '/nonexistent/duet-test-server' }],
      port: 0,
    })
    try {
      const state = await raw(dev.url, 'GET', '/api/state')
      expect(state.json.servers[0].status).toBe('error')
      expect(state.json.servers[0].error).toMatch(/ENOENT|not found|closed/i)
    } finally {
      await dev.close()
    }
  })
})
