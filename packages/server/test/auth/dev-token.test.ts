// `duet dev` against a protected server: its connection sends the --token as a bearer and shows the
// server's 401 (with the challenge) in the trace when the token is missing or wrong.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { OAuthError, OAuthErrorCode, type AuthInfo } from '@modelcontextprotocol/server'
import { createAppServer, DuetError, subjectOf } from '@duetkit/server'
import * as z from 'zod'
import { ServerConnection, type ConnectionEvent } from '../../src/dev/connections.js'
import { parseDevArgs } from '../../src/dev/options.js'

async function verifier(token: string): Promise<AuthInfo> {
  if (token !== 'alice-token') throw new OAuthError(OAuthErrorCode.InvalidToken, 'Unknown token')
  return { token, clientId: 'dev', scopes: [], expiresAt: Math.floor(Date.now() / 1000) + 3600, extra: { sub: 'alice' } }
}

const app = createAppServer({ name: 'guarded', version: '1.0.0', auth: { verifier } }).tool(
  'whoami',
  { description: 'Who calls', outputSchema: { sub: z.string().nullable() } },
  async (_args, ctx) => ({ content: [{ type: 'text', text: 'me' }], structuredContent: { sub: subjectOf(ctx) ?? null } }),
)
let url: string
let connection: ServerConnection | undefined
beforeAll(async () => {
  url = (await app.listen({ http: { port: 0 }, handleSignals: false })).url!
})
afterEach(async () => {
  await connection?.close()
  connection = undefined
})
afterAll(() => app.close())

function connect(token: string | undefined): { events: ConnectionEvent[]; ready: Promise<void> } {
  const events: ConnectionEvent[] = []
  connection = new ServerConnection('s1', { kind: 'http', url, ...(token !== undefined && { token }) }, { pollMs: 60_000, emit: (e) => events.push(e) })
  return { events, ready: connection.start() }
}

describe('duet dev and a protected server', () => {
  it('connects with the token as a bearer, and its calls act for the token subject', async () => {
    const { ready } = connect('alice-token')
    await ready
    expect(connection!.snapshot().status).toBe('connected')
    const result = (await connection!.request('tools/call', { name: 'whoami', arguments: {} })) as { structuredContent: unknown }
    expect(result.structuredContent).toEqual({ sub: 'alice' })
  })

  for (const [title, token] of [
    ['without a token', undefined],
    ['with a wrong token', 'mallory-token'],
  ] as const) {
    it(`${title}: shows the 401 and its challenge in the trace, and the server as not connected`, async () => {
      const { events, ready } = connect(token)
      await ready
      expect(connection!.snapshot().status).toBe('error')
      const refusal = events.find((e) => e.type === 'trace' && (e.message as { http?: unknown }).http !== undefined)
      expect(refusal).toBeDefined()
      const http = (refusal as { message: { http: { status: number; headers: Record<string, string>; body: unknown } } }).message.http
      expect(http.status).toBe(401)
      expect(http.headers['www-authenticate']).toContain('error="invalid_token"')
      expect(http.headers['www-authenticate']).toContain('resource_metadata=')
    })
  }
})

describe('duet dev --token', () => {
  it('belongs to the --server before it', () => {
    const options = parseDevArgs(['--server', 'http://127.0.0.1:1/mcp', '--token', 'abc', '--server', 'http://127.0.0.1:2/mcp'])
    expect(options.servers).toEqual([
      { kind: 'http', url: 'http://127.0.0.1:1/mcp', token: 'abc' },
      { kind: 'http', url: 'http://127.0.0.1:2/mcp' },
    ])
  })

  it('is refused without a --server before it, or twice for one', () => {
    for (const argv of [
      ['--token', 'abc', '--server', 'http://127.0.0.1:1/mcp'],
      ['--server', 'http://127.0.0.1:1/mcp', '--token', 'a', '--token', 'b'],
      ['--server', 'http://127.0.0.1:1/mcp', '--token', 'two words'],
    ]) {
      let caught: unknown
      try {
        parseDevArgs(argv)
      } catch (err) {
        caught = err
      }
      expect(caught).toBeInstanceOf(DuetError)
      expect((caught as DuetError).code).toBe('USAGE')
      expect((caught as DuetError).message).toContain('--token')
    }
  })
})
