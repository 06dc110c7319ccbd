// A token bucket per caller and per tool: a burst of `burst` calls, refilled at `perSecond`. The caller is
// the token's subject with auth, else the client address. Buckets live in this process: each replica
// counts its own callers (a load balancer spreading one caller over N replicas allows up to N times the rate).
import { invalidOption } from './errors.js'

/** Options of the per-caller, per-tool rate limit. */
export interface RateLimitOptions {
  /** Calls a caller may make of one tool at once, with a full bucket. */
  burst: number
  /** Calls per second added back to each bucket (fractions allowed: `0.5` is one every two seconds). */
  perSecond: number
  /** Buckets kept before full ones are dropped (a full bucket is the same as none). Default 10000. */
  maxBuckets?: number
}

export type ResolvedRateLimit = Required<RateLimitOptions>

/** Checks `rateLimit`, naming the option at fault. */
export function resolveRateLimit(options: RateLimitOptions | undefined): ResolvedRateLimit | undefined {
  if (options === undefined) return undefined
  const where = 'createAppServer'
  if (options === null || typeof options !== 'object') invalidOption(where, 'rateLimit', 'must be { burst, perSecond }')
  const { burst, perSecond, maxBuckets = 10_000 } = options
  if (!Number.isInteger(burst) || burst < 1) invalidOption(where, 'rateLimit.burst', `must be an integer >= 1, got ${JSON.stringify(burst)}`)
  if (typeof perSecond !== 'number' || !Number.isFinite(perSecond) || perSecond <= 0)
    invalidOption(where, 'rateLimit.perSecond', `must be a number > 0, got ${JSON.stringify(perSecond)}`)
  if (!Number.isInteger(maxBuckets) || maxBuckets < 1)
    invalidOption(where, 'rateLimit.maxBuckets', `must be an integer >= 1, got ${JSON.stringify(maxBuckets)}`)
  return { burst, perSecond, maxBuckets }
}

interface Bucket {
  tokens: number
  at: number
}

/** Token buckets by key. */
export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>()

  constructor(private readonly limit: ResolvedRateLimit) {}

  /** Takes one token for `key`: 0 when allowed, else the milliseconds until a token is there. */
  take(key: string, now = Date.now()): number {
    const bucket = this.refill(key, now)
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1
      return 0
    }
    return Math.ceil(((1 - bucket.tokens) / this.limit.perSecond) * 1000)
  }

  private refill(key: string, now: number): Bucket {
    let bucket = this.buckets.get(key)
    if (!bucket) {
      if (this.buckets.size >= this.limit.maxBuckets) this.prune(now)
      bucket = { tokens: this.limit.burst, at: now }
      this.buckets.set(key, bucket)
      return bucket
    }
    bucket.tokens = Math.min(this.limit.burst, bucket.tokens + ((now - bucket.at) / 1000) * this.limit.perSecond)
    bucket.at = now
    return bucket
  }

  /** Drops buckets that have refilled (they hold nothing a new one would not); if none, the oldest. */
  private prune(now: number): void {
    const fullAfterMs = (this.limit.burst / this.limit.perSecond) * 1000
    for (const [key, bucket] of this.buckets) if (now - bucket.at >= fullAfterMs) this.buckets.delete(key)
    if (this.buckets.size >= this.limit.maxBuckets) this.buckets.delete(this.buckets.keys().next().value as string)
  }
}

/** The tool names a JSON-RPC body calls (`tools/call`), a single message or a batch. */
export function toolCallsOf(body: unknown): string[] {
  const messages = Array.isArray(body) ? body : [body]
  const names: string[] = []
  for (const message of messages) {
    if (!message || typeof message !== 'object') continue
    const { method, params } = message as { method?: unknown; params?: { name?: unknown } }
    if (method === 'tools/call') names.push(typeof params?.name === 'string' ? params.name : '')
  }
  return names
}

/** The 429 answer: a JSON-RPC error with the wait, and `Retry-After` in whole seconds. */
export function rateLimitedResponse(tool: string, waitMs: number, id: unknown): Response {
  const retryAfter = Math.max(1, Math.ceil(waitMs / 1000))
  const message = `Too many calls of tool '${tool}': this caller may call it again in ${retryAfter} s (rate limit per caller and tool)`
  return Response.json(
    { jsonrpc: '2.0', id: id ?? null, error: { code: -32000, message, data: { code: 'RATE_LIMITED', tool, retryAfterSeconds: retryAfter } } },
    { status: 429, headers: { 'Retry-After': String(retryAfter) } },
  )
}
