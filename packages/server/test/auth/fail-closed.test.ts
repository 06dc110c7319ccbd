// Authorization fails closed, with two real subjects of the test issuer over real HTTP: a custom verifier
// whose answer names no subject is refused (401) unless anonymous access is configured on purpose, and a
// JWT whose `typ` is not an access token's (RFC 9068 `at+jwt`) is refused unless the issuer is known to send it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { importJWK, jwtVerify, SignJWT, createLocalJWKSet } from 'jose'
import { OAuthError, OAuthErrorCode, type AuthInfo } from '@modelcontextprotocol/server'
import { createAppServer, type DuetError, subjectOf, type AppServer, type AuthOptions } from '../../src/server/index.js'
import { startIssuer, type TestIssuer } from './oidc-issuer.js'

const MODERN = '2026-07-28'
let issuer: TestIssuer
const apps: AppServer[] = []

async function serve(auth: AuthOptions): Promise<string> {
  const app = createAppServer({ name: 'closed', version: '1', auth }).tool('whoami', { description: 'Who calls' }, async (_args, ctx) => ({
    content: [{ type: 'text', text: String(subjectOf(ctx)) }],
  }))
  apps.push(app)
  return (await app.listen({ http: { port: 0 }, handleSignals: false })).url!
}

/** A modern tool call of `whoami`: the status and the text it answered. */
async function whoami(url: string, token: string): Promise<{ status: number; text: string }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${token}`,
      'mcp-protocol-version': MODERN,
      'mcp-method': 'tools/call',
      'mcp-name': 'whoami',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: 'whoami',
        arguments: {},
        _meta: {
          'io.modelcontextprotocol/protocolVersion': MODERN,
          'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' },
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    }),
  })
  const body = await res.text()
  const match = body.match(/"text":"([^"]*)"/)
  return { status: res.status, text: match?.[1] ?? res.headers.get('www-authenticate') ?? body }
}

/**
 * A custom verifier that checks the issuer's signature itself but, as a careless one might, leaves the
 * subject out of what it returns.
 */
function subjectlessVerifier(audience: () => string) {
  return async (token: string): Promise<AuthInfo> => {
    const { kid: _kid, d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...publicKey } = issuer.signingKey
    try {
      const { payload } = await jwtVerify(token, createLocalJWKSet({ keys: [{ ...publicKey, kid: issuer.signingKey.kid }] }), { audience: audience() })
      return { token, clientId: String(payload.client_id ?? ''), scopes: [], expiresAt: payload.exp!, extra: {} }
    } catch (err) {
      throw new OAuthError(OAuthErrorCode.InvalidToken, (err as Error).message)
    }
  }
}

/** The issuer's real token for `subject`, re-signed by the issuer's key with another `typ` header ('' for none). */
async function withTyp(subject: string, audience: string, typ: string): Promise<string> {
  const real = await issuer.tokenFor(subject, { audience })
  const [header, payload] = real
    .split('.')
    .slice(0, 2)
    .map((part) => JSON.parse(Buffer.from(part, 'base64url').toString()) as Record<string, unknown>)
  const key = await importJWK(issuer.signingKey, 'RS256')
  return new SignJWT(payload!).setProtectedHeader({ alg: String(header!.alg), kid: issuer.signingKey.kid!, ...(typ !== '' && { typ }) }).sign(key)
}

beforeAll(async () => {
  issuer = await startIssuer()
})
afterAll(async () => {
  for (const app of apps) await app.close()
  await issuer?.close()
})

describe('a verifier that returns no subject', () => {
  it('is refused with 401 by default, so two users never share one anonymous space', async () => {
    let url = ''
    url = await serve({ verifier: subjectlessVerifier(() => url) })
    for (const subject of ['alice', 'bob']) {
      const answer = await whoami(url, await issuer.tokenFor(subject, { audience: url }))
      expect(answer.status, subject).toBe(401)
      expect(answer.text).toContain('invalid_token')
    }
  })

  it('is served as anonymous when auth.allowAnonymous says so on purpose', async () => {
    let url = ''
    url = await serve({ verifier: subjectlessVerifier(() => url), allowAnonymous: true })
    expect(await whoami(url, await issuer.tokenFor('alice', { audience: url }))).toEqual({ status: 200, text: 'undefined' })
  })

  it('refuses an allowAnonymous that is not a boolean, or given with an issuer, naming it', () => {
    for (const auth of [
      { verifier: async () => ({}) as AuthInfo, allowAnonymous: 'yes' },
      { issuer: 'https://id.example.com', allowAnonymous: true },
    ]) {
      let caught: unknown
      try {
        createAppServer({ name: 'x', version: '1', auth: auth as AuthOptions })
      } catch (err) {
        caught = err
      }
      expect((caught as DuetError).code).toBe('INVALID_OPTION')
      expect((caught as DuetError).data).toEqual({ option: 'auth.allowAnonymous' })
    }
  })
})

describe('the JWT typ header (RFC 9068)', () => {
  it('accepts the issuer’s at+jwt tokens and application/at+jwt, and refuses typ JWT or none', async () => {
    const url = await serve({ issuer: issuer.url })
    expect(await whoami(url, await issuer.tokenFor('alice', { audience: url }))).toEqual({ status: 200, text: 'alice' })
    expect(await whoami(url, await withTyp('bob', url, 'application/at+jwt'))).toEqual({ status: 200, text: 'bob' })
    for (const typ of ['JWT', 'jwt', 'application/jwt', '']) {
      const answer = await whoami(url, await withTyp('bob', url, typ))
      expect(answer.status, typ).toBe(401)
      expect(answer.text, typ).toContain('typ')
    }
  })

  it('accepts typ JWT where auth.jwtTypes names it, for issuers that send it', async () => {
    const url = await serve({ issuer: issuer.url, jwtTypes: ['at+jwt', 'JWT'] })
    expect(await whoami(url, await withTyp('bob', url, 'JWT'))).toEqual({ status: 200, text: 'bob' })
    expect(await whoami(url, await withTyp('bob', url, 'id+jwt'))).toMatchObject({ status: 401 })
  })

  it('refuses a jwtTypes that is not a non-empty list of names, naming it', () => {
    for (const jwtTypes of [[], ['at jwt'], 'at+jwt']) {
      let caught: unknown
      try {
        createAppServer({ name: 'x', version: '1', auth: { issuer: 'https://id.example.com', jwtTypes: jwtTypes as string[] } })
      } catch (err) {
        caught = err
      }
      expect((caught as DuetError).data).toEqual({ option: 'auth.jwtTypes' })
    }
  })
})
