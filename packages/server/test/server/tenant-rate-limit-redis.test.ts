// The rate limit shared by two `duet serve --http --redis-url` replicas on one real redis-server, with
// two real subjects of the test issuer: a caller who spreads calls over both replicas gets the rate
// once, not twice, and another subject keeps its own buckets; the same holds for the whole-caller
// bucket (--rate-limit-all), which counts calls of every tool together.
import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createClient } from 'redis'
import { openRedisRateLimit } from '../../src/channel/redis-rate-limit.js'
import { startIssuer, type TestIssuer } from '../auth/oidc-issuer.js'
import { startRedis } from '../channel/redis-server.js'
import { bundle } from './build-fixture.js'
import { modernRequest } from './modern-request.js'

const AUDIENCE = 'http://duet.test/mcp'

let bin: string
let redis: Awaited<ReturnType<typeof startRedis>>
let issuer: TestIssuer
const children: ChildProcess[] = []

function startReplica(args: string[]): Promise<string> {
  const child = spawn(process.execPath, [bin, 'serve', '--http', '--port', '0', '--redis-url', redis.url, ...args], { stdio: ['ignore', 'ignore', 'pipe'] })
  children.push(child)
  return new Promise((resolve, reject) => {
    let stderr = ''
    child.stderr!.on('data', (chunk) => {
      stderr += chunk
      const match = stderr.match(/listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/)
      if (match) resolve(match[1]!)
    })
    child.once('exit', (code) => reject(new Error(`duet serve exited ${code}: ${stderr}`)))
  })
}

/** One modern (per-request) tool call; the answer's status. */
async function callTool(url: string, token: string, name: string): Promise<number> {
  const res = await modernRequest(url, 'tools/call', { name, arguments: {} }, { token })
  await res.body?.cancel()
  return res.status
}

beforeAll(async () => {
  bin = await bundle(fileURLToPath(new URL('../../src/cli/bin.ts', import.meta.url)), 'duet-bin-rate-limit')
  redis = await startRedis()
  issuer = await startIssuer()
}, 60_000)

afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  await issuer?.close()
  await redis?.stop()
})

describe('the rate limit shared by replicas (Redis)', () => {
  it('counts a subject once over two replicas, and keeps another subject apart', async () => {
    const flags = ['--auth-issuer', issuer.url, '--auth-audience', AUDIENCE, '--rate-limit', '3:0.01', '--rate-limit-all', 'off']
    const [a, b] = await Promise.all([startReplica(flags), startReplica(flags)])
    const alice = await issuer.tokenFor('alice', { audience: AUDIENCE })
    const bob = await issuer.tokenFor('bob', { audience: AUDIENCE })
    const statuses = [await callTool(a!, alice, 'list_recipes'), await callTool(b!, alice, 'list_recipes'), await callTool(a!, alice, 'list_recipes')]
    expect(statuses).toEqual([200, 200, 200])
    // Each replica has seen at most two of Alice's calls; the shared bucket has seen three.
    expect(await callTool(b!, alice, 'list_recipes')).toBe(429)
    expect(await callTool(a!, alice, 'list_recipes')).toBe(429)
    expect(await callTool(b!, bob, 'list_recipes')).toBe(200)
    // A made-up tool name makes no bucket in Redis either.
    const before = await keys()
    for (let i = 0; i < 5; i++) await callTool(a!, bob, `made_up_${i}`)
    expect(await keys()).toEqual(before)
  }, 60_000)

  it("shares the whole-caller bucket: calls of different tools over two replicas count together, another subject's apart", async () => {
    const flags = ['--auth-issuer', issuer.url, '--auth-audience', AUDIENCE, '--rate-limit', '100:0.01', '--rate-limit-all', '3:0.01']
    const [a, b] = await Promise.all([startReplica(flags), startReplica(flags)])
    const carol = await issuer.tokenFor('carol', { audience: AUDIENCE })
    const dave = await issuer.tokenFor('dave', { audience: AUDIENCE })
    // Three tools, each far under its own bucket of 100, spread over both replicas.
    expect([await callTool(a!, carol, 'list_recipes'), await callTool(b!, carol, 'channel_stats'), await callTool(a!, carol, 'tail_server_log')]).toEqual([
      200, 200, 200,
    ])
    // Neither replica has seen three of her calls; the shared bucket has.
    expect(await callTool(b!, carol, 'list_saved_apps')).toBe(429)
    expect(await callTool(a!, carol, 'list_recipes')).toBe(429)
    expect(await callTool(b!, dave, 'list_recipes')).toBe(200)
    expect(await callTool(a!, dave, 'channel_stats')).toBe(200)
  }, 60_000)

  it('reads a bucket whose fields are not numbers as full and rewrites it, instead of failing every call', async () => {
    const store = await openRedisRateLimit(redis.url, 'test:corrupt:')
    try {
      expect(await store.take('alice', 'tool:x', { burst: 1, perSecond: 0.01 })).toBe(0)
      expect(await store.take('alice', 'tool:x', { burst: 1, perSecond: 0.01 })).toBeGreaterThan(0)
      const client = createClient({ url: redis.url })
      await client.connect()
      const [key] = await client.keys('test:corrupt:*')
      await client.hSet(key!, { tokens: 'lots', at: 'yesterday' })
      await client.quit()
      expect(await store.take('alice', 'tool:x', { burst: 1, perSecond: 0.01 })).toBe(0)
      expect(await store.take('alice', 'tool:x', { burst: 1, perSecond: 0.01 })).toBeGreaterThan(0)
    } finally {
      await store.close()
    }
  })

  it('names Redis when it cannot be reached', async () => {
    const store = await openRedisRateLimit(redis.url, 'test:down:')
    await store.close()
    await expect(store.take('alice', 'tool:x', { burst: 1, perSecond: 1 })).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE' })
  })
})

async function keys(): Promise<string[]> {
  const client = createClient({ url: redis.url })
  await client.connect()
  try {
    return (await client.keys('duet:ratelimit:*')).sort()
  } finally {
    await client.quit()
  }
}
