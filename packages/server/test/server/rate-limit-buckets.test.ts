import { describe, expect, it } from 'vitest'
import { meteredCalls, TokenBuckets } from '../../src/server/rate-limit.js'

const rate = { burst: 2, perSecond: 1 }

describe('in-memory token buckets', () => {
  it('drops a bucket to make room only once it has refilled', () => {
    const buckets = new TokenBuckets(1)
    expect(buckets.takeNow('sub:alice', 'tool:a', rate, 0)).toBe(0)
    // Alice's bucket holds 1 of 2 until t = 1000: Bob has to wait, Alice keeps her count.
    expect(buckets.takeNow('sub:bob', 'tool:a', rate, 500)).toBeGreaterThan(0)
    expect(buckets.takeNow('sub:alice', 'tool:a', rate, 500)).toBe(0)
    expect(buckets.takeNow('sub:alice', 'tool:a', rate, 600)).toBeGreaterThan(0)
    // Refilled at t = 2000 (0.6 tokens at 600, +1 a second, capped at 2): then it may make room for Bob.
    expect(buckets.takeNow('sub:bob', 'tool:a', rate, 1900)).toBeGreaterThan(0)
    expect(buckets.takeNow('sub:bob', 'tool:a', rate, 2000)).toBe(0)
    expect(buckets.size).toBe(1)
  })

  it('names the wait until the next token', () => {
    const buckets = new TokenBuckets(10)
    buckets.takeNow('sub:alice', 'tool:a', rate, 0)
    buckets.takeNow('sub:alice', 'tool:a', rate, 0)
    expect(buckets.takeNow('sub:alice', 'tool:a', rate, 250)).toBe(750)
  })
})

describe('meteredCalls', () => {
  it('counts known tools and the metered methods, and nothing for made-up tools or other methods', () => {
    const known = (name: string) => name === 'echo'
    const body = [
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo' } },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'nope' } },
      { jsonrpc: '2.0', id: 3, method: 'initialize', params: {} },
      { jsonrpc: '2.0', id: 4, method: 'resources/read', params: { uri: 'ui://x' } },
      { jsonrpc: '2.0', id: 5, method: 'ping' },
      { jsonrpc: '2.0', id: 6, method: 'resources/made-up' },
      'not a message',
    ]
    expect(meteredCalls(body, known).map((c) => c.bucket)).toEqual(['tool:echo', 'initialize', 'resources/read'])
  })
})
