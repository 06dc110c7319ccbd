import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAppServer, type AppServer } from '../../src/server/index.js'

const INIT = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
})

function pingServer(): AppServer {
  return createAppServer({ name: 'cors', version: '1' }).tool('ping', { description: 'pong' }, async () => ({ content: [{ type: 'text', text: 'pong' }] }))
}

const preflight = (url: string, origin: string, headers = 'content-type, mcp-protocol-version, mcp-param-city') =>
  fetch(url, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': headers } })

const postInit = (url: string, origin?: string) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(origin && { origin }) },
    body: INIT,
  })

describe('CORS on the HTTP listener', () => {
  let app: AppServer
  let url: string
  beforeAll(async () => {
    app = pingServer()
    url = (await app.listen({ http: { port: 0, allowedOrigins: ['https://app.example.com', 'studio.example.org'] }, handleSignals: false })).url!
  })
  afterAll(() => app.close())

  for (const origin of ['http://localhost:8080', 'http://127.0.0.1:5173', 'http://[::1]:9000', 'https://localhost']) {
    it(`answers a preflight from loopback origin ${origin} with 204 and the CORS headers`, async () => {
      const res = await preflight(url, origin)
      expect(res.status).toBe(204)
      expect(res.headers.get('access-control-allow-origin')).toBe(origin)
      expect(res.headers.get('access-control-allow-methods')).toBe('GET, POST, DELETE, OPTIONS')
      const allowed = res.headers.get('access-control-allow-headers')?.toLowerCase().split(/,\s*/) ?? []
      expect(allowed).toEqual(expect.arrayContaining(['content-type', 'mcp-protocol-version', 'mcp-session-id', 'last-event-id', 'mcp-param-city']))
      expect(Number(res.headers.get('access-control-max-age'))).toBeGreaterThan(0)
    })
  }

  it('lets a browser read the session and protocol-version headers of an answer', async () => {
    const res = await postInit(url, 'http://localhost:8080')
    expect(res.status).toBe(200)
    expect(res.headers.get('access-control-allow-origin')).toBe('http://localhost:8080')
    expect(res.headers.get('access-control-expose-headers')).toMatch(/Mcp-Session-Id/)
    expect(res.headers.get('access-control-expose-headers')).toMatch(/Mcp-Protocol-Version/)
    expect(res.headers.get('vary')).toMatch(/Origin/)
  })

  it('allows a listed full origin, and only with its scheme and port', async () => {
    expect((await preflight(url, 'https://app.example.com')).status).toBe(204)
    expect((await postInit(url, 'https://app.example.com')).headers.get('access-control-allow-origin')).toBe('https://app.example.com')
    expect((await preflight(url, 'http://app.example.com')).status).toBe(403)
    expect((await preflight(url, 'https://app.example.com:8443')).status).toBe(403)
  })

  it('allows a listed hostname on any scheme and port', async () => {
    expect((await preflight(url, 'http://studio.example.org:3000')).status).toBe(204)
    expect((await preflight(url, 'https://studio.example.org')).status).toBe(204)
  })

  it('refuses a foreign origin with 403 and no CORS headers, for preflights and requests alike', async () => {
    for (const res of [await preflight(url, 'http://evil.example:3000'), await postInit(url, 'http://evil.example:3000'), await postInit(url, 'null')]) {
      expect(res.status).toBe(403)
      expect(res.headers.get('access-control-allow-origin')).toBeNull()
      expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/Origin .* may not call this server.*allowedOrigins/)
    }
  })

  it('still refuses a foreign Host header (DNS rebinding) even from a loopback origin', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(url, { method: 'OPTIONS', headers: { host: 'evil.example:80', origin: 'http://localhost:8080' } }, (res) => {
        res.resume()
        resolve(res.statusCode ?? 0)
      })
      req.on('error', reject)
      req.end()
    })
    expect(status).toBe(403)
  })

  it('answers OPTIONS without an Origin (not a browser) with 204 and Allow, no CORS headers', async () => {
    const res = await fetch(url, { method: 'OPTIONS' })
    expect(res.status).toBe(204)
    expect(res.headers.get('allow')).toBe('GET, POST, DELETE, OPTIONS')
    expect(res.headers.get('access-control-allow-origin')).toBeNull()
  })

  it('serves requests with no Origin as before', async () => {
    expect((await postInit(url)).status).toBe(200)
  })
})

describe('allowedOrigins validation', () => {
  for (const [bad, pattern] of [
    ['https://app.example.com/path', /not an origin/],
    ['ftp://files.example.com', /not an origin/],
    ['not a host!', /neither an origin/],
    ['', /non-empty/],
  ] as const) {
    it(`refuses ${JSON.stringify(bad)} up front, naming the option`, async () => {
      const app = pingServer()
      await expect(app.listen({ http: { port: 0, allowedOrigins: [bad] }, handleSignals: false })).rejects.toMatchObject({
        code: 'INVALID_OPTION',
        data: { option: 'http.allowedOrigins' },
        message: expect.stringMatching(pattern),
      })
      await app.close()
    })
  }
})
