// Every HTTP answer of Duet that is not JSON-RPC fails with one body: { error: { code, message, data? } },
// the code from the one vocabulary. The /mcp server's 404 and 405, duet dev's API, duet check's host page.
import type { AuthInfo } from '@modelcontextprotocol/server'
import { ErrorCodes } from 'duetkit/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startCheckHost, type CheckHost } from '../../src/check/host-server.js'
import { startDevServer, type DevServer } from '../../src/dev/dev-server.js'
import { createAppServer, type Listening } from '../../src/index.js'

/** Reads a failed answer and checks it has the one shape; returns its error for the case's own checks. */
async function errorOf(res: Response, status: number): Promise<{ code: string; message: string; data?: Record<string, unknown> }> {
  expect(res.status).toBe(status)
  expect(res.headers.get('content-type')).toMatch(/^application\/json/)
  const body = (await res.json()) as { error: { code: string; message: string; data?: Record<string, unknown> } }
  expect(Object.keys(body)).toEqual(['error'])
  expect(Object.keys(body.error).filter((key) => !['code', 'message', 'data'].includes(key))).toEqual([])
  expect(Object.hasOwn(ErrorCodes, body.error.code), body.error.code).toBe(true)
  expect(typeof body.error.message).toBe('string')
  if ('data' in body.error) expect(body.error.data).toBeTypeOf('object')
  return body.error
}

async function verifier(token: string): Promise<AuthInfo> {
  return { token, clientId: 'c', scopes: [], extra: { sub: 'alice' } }
}

let mcp: Listening
let close: () => Promise<void>
let dev: DevServer
let check: CheckHost
beforeAll(async () => {
  const app = createAppServer({ name: 'shape', version: '1.0.0', auth: { verifier, resource: 'http://127.0.0.1/mcp' } })
  mcp = await app.listen({ http: { port: 0 } })
  close = () => app.close()
  dev = await startDevServer({ servers: [{ kind: 'http', url: mcp.url! }], port: 0, pollMs: 60_000 })
  check = await startCheckHost(null)
})
afterAll(async () => {
  await check?.close()
  await dev?.close()
  await close?.()
})

describe('one HTTP error body', () => {
  it('the MCP server answers a path beside its endpoint with 404 NOT_FOUND naming the endpoint', async () => {
    const error = await errorOf(await fetch(new URL('/other', mcp.url), { method: 'POST', body: '{}' }), 404)
    expect(error).toEqual({ code: 'NOT_FOUND', message: expect.stringContaining('the MCP endpoint is /mcp'), data: { kind: 'route', name: '/other' } })
  })

  it('the resource metadata answers a POST with 405 UNSUPPORTED', async () => {
    const res = await fetch(new URL('/.well-known/oauth-protected-resource/mcp', mcp.url), { method: 'POST' })
    expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS')
    expect(await errorOf(res, 405)).toMatchObject({ code: 'UNSUPPORTED', data: { method: 'POST' } })
  })

  it('duet dev answers an unknown route, a wrong content type and a foreign Origin in the same shape', async () => {
    expect(await errorOf(await fetch(new URL('/nope', dev.url)), 404)).toMatchObject({ code: 'NOT_FOUND' })
    const wrongType = await fetch(new URL('/api/rpc', dev.url), { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' })
    expect(await errorOf(wrongType, 415)).toMatchObject({ code: 'INVALID_REQUEST' })
    const foreign = await fetch(new URL('/api/state', dev.url), { headers: { origin: 'https://evil.example.com' } })
    expect(await errorOf(foreign, 403)).toMatchObject({ code: 'FORBIDDEN' })
  })

  it("duet check's host page answers an unknown route in the same shape", async () => {
    expect(await errorOf(await fetch(new URL('/nope', check.hostUrl)), 404)).toEqual({
      code: 'NOT_FOUND',
      message: 'no route GET /nope',
      data: { kind: 'route', name: '/nope' },
    })
  })
})
