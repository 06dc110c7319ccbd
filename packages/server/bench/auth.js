// node packages/server/bench/auth.js (after npm run build) — what authorization costs a tool call over HTTP.
// Prints the p50 of a tools/call round trip (2026-07-28, per request) without auth (the anchor, measured in
// the same run), with JWT auth (RS256, checked against the issuer's JWKS, as `auth: { issuer }` does), and with
// JWT auth plus the rate limit. The client sends one token on every call, as MCP clients do, so its signature
// is checked on first use and the verification remembered until the token's exp (at most 60 s).
// Goal: auth (and auth + rate limit) add at most 1 ms to the anchor's p50.
// The issuer here is a stub serving metadata and a JWKS, so the figure is the server's own cost, not an IdP's.
import { createServer } from 'node:http'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { exportJWK, generateKeyPair, SignJWT } from 'jose'
import { createAppServer } from '../dist/index.js'

const CALLS = 600
const ROUNDS = 12
const WARMUP = 50
const GOAL_MS = 1
const p50 = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const verdict = (ok) => (ok ? 'met' : 'NOT met')
const delta = (ms) => `${ms < 0 ? '-' : '+'}${Math.abs(ms).toFixed(2)} ms`

async function stubIssuer() {
  const { publicKey, privateKey } = await generateKeyPair('RS256')
  const jwk = { ...(await exportJWK(publicKey)), kid: 'bench', alg: 'RS256', use: 'sig' }
  const server = createServer((req, res) => {
    const body =
      req.url === '/.well-known/oauth-authorization-server' ? { issuer: url, jwks_uri: `${url}/jwks` } : req.url === '/jwks' ? { keys: [jwk] } : undefined
    res.writeHead(body ? 200 : 404, { 'content-type': 'application/json' }).end(JSON.stringify(body ?? {}))
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${server.address().port}`
  const mint = (audience) =>
    new SignJWT({ scope: 'mcp', client_id: 'bench' })
      .setProtectedHeader({ alg: 'RS256', kid: 'bench', typ: 'at+jwt' })
      .setIssuer(url)
      .setSubject('bench-user')
      .setAudience(audience)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(privateKey)
  return { url, mint, close: () => new Promise((resolve) => server.close(resolve)) }
}

/** A server with one no-op tool and a client connected to it, as `options` configure it. */
async function setup(options, tokenFor) {
  const app = createAppServer({ name: 'bench', version: '1.0.0', ...options }).tool('noop', { description: 'Nothing' }, async () => ({
    content: [{ type: 'text', text: 'ok' }],
  }))
  const { url } = await app.listen({ http: { port: 0 }, handleSignals: false })
  const token = tokenFor ? await tokenFor(url) : undefined
  const client = new Client({ name: 'bench', version: '1' }, { versionNegotiation: { mode: 'auto' } })
  await client.connect(new StreamableHTTPClientTransport(new URL(url), token ? { requestInit: { headers: { authorization: `Bearer ${token}` } } } : undefined))
  return {
    times: [],
    call: () => client.callTool({ name: 'noop', arguments: {} }),
    close: async () => {
      await client.close()
      await app.close()
    },
  }
}

// The three setups take turns in short rounds, so a load change on the machine touches all of them alike.
async function measure(setups) {
  for (const s of setups) for (let i = 0; i < WARMUP; i++) await s.call()
  for (let round = 0; round < ROUNDS; round++) {
    for (const s of setups) {
      for (let i = 0; i < CALLS / ROUNDS; i++) {
        const t = performance.now()
        await s.call()
        s.times.push(performance.now() - t)
      }
    }
  }
  return setups.map((s) => p50(s.times))
}

const issuer = await stubIssuer()
try {
  const setups = [
    await setup({}),
    await setup({ auth: { issuer: issuer.url } }, issuer.mint),
    // A burst no call of the run exhausts: the cost of counting, not of refusing.
    await setup({ auth: { issuer: issuer.url }, rateLimit: { burst: 100_000, perSecond: 1_000 } }, issuer.mint),
  ]
  const [anchor, jwt, limited] = await measure(setups)
  for (const s of setups) await s.close()
  console.log(`tools/call p50 over HTTP, ${CALLS} calls each in ${ROUNDS} interleaved rounds (anchor: no auth, same run)`)
  console.log(`  no auth (anchor)           ${anchor.toFixed(2)} ms`)
  console.log(`  JWT auth                   ${jwt.toFixed(2)} ms  (${delta(jwt - anchor)}; goal ≤ +${GOAL_MS} ms: ${verdict(jwt - anchor <= GOAL_MS)})`)
  console.log(
    `  JWT auth + rate limit      ${limited.toFixed(2)} ms  (${delta(limited - anchor)}; goal ≤ +${GOAL_MS} ms: ${verdict(limited - anchor <= GOAL_MS)})`,
  )
} finally {
  await issuer.close()
}
