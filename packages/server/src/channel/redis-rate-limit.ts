// The rate limit's buckets in Redis, so every `duet serve --redis-url` replica counts the same calls: a
// caller spread over N replicas by a load balancer gets the rate once, not N times. One Lua script reads,
// refills and takes atomically, on Redis's clock (replicas' clocks may differ); a bucket expires once it
// would be full again, so Redis holds only buckets that still limit someone.
import { createHash } from 'node:crypto'
import type { BucketRate, RateLimitStore } from '../server/rate-limit.js'
import { connectRedis, redisUnavailable, type RedisClient } from './redis-connection.js'

// KEYS[1] the bucket; ARGV burst, perSecond. Returns the wait in ms (0: taken). A field that is not a
// number (written by hand, or by another program) is read as a full bucket and rewritten, never fatal.
const TAKE = `
local burst = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local stored = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(stored[1])
local at = tonumber(stored[2])
if tokens == nil or at == nil or tokens ~= tokens then
  tokens = burst
else
  tokens = math.min(burst, tokens + math.max(0, now - at) / 1000 * rate)
end
local wait = 0
if tokens >= 1 then tokens = tokens - 1 else wait = math.ceil((1 - tokens) / rate * 1000) end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil((burst - tokens) / rate * 1000) + 1000)
return wait
`

/** Buckets shared through Redis at `url`; `close` ends its connection. */
export interface RedisRateLimit extends RateLimitStore {
  close(): Promise<void>
}

/** Connects to Redis for the rate limit (its own connection, closed with the server). */
export async function openRedisRateLimit(url: string, prefix = 'duet:ratelimit:'): Promise<RedisRateLimit> {
  const client: RedisClient = await connectRedis(url, 'rate limit')
  return {
    async take(subject: string, name: string, rate: BucketRate): Promise<number> {
      // Hashed: a subject can be long or hold any character, a key should not.
      const key = `${prefix}${createHash('sha256').update(subject).update('\u0000').update(name).digest('base64url')}`
      try {
        return Number(await client.eval(TAKE, { keys: [key], arguments: [String(rate.burst), String(rate.perSecond)] }))
      } catch (err) {
        throw redisUnavailable('rate limit', url, err)
      }
    },
    async close() {
      if (client.isOpen) await client.quit().catch(() => client.destroy())
    },
  }
}
