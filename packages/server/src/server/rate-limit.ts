// A token bucket per caller and per tool or method: a burst of `burst` calls, refilled at `perSecond`. The
// caller is the token's subject with auth, else the client address. Only calls that name something the
// server has get a bucket (a made-up tool name makes none, so a flood of them cannot push a caller's
// drained bucket out), and a drained bucket is never dropped before it has refilled. By default the
// buckets live in this process; `store` shares them (duet serve --redis-url keeps them in Redis, so N
// replicas allow the rate once, not N times). Beside the buckets per tool, one more per caller (`all`)
// counts every call of theirs, whatever it names (made-up tools too), before its body is even read:
// per-tool buckets alone let one user call ten tools at ten times the rate.
import { BoundedMap } from './bounded-map.js'
import { invalidOption } from './errors.js'

/** The rate of one bucket. */
export interface BucketRate {
  /** Calls a caller may make of one tool at once, with a full bucket. */
  burst: number
  /** Calls per second added back to each bucket (fractions allowed: `0.5` is one every two seconds). */
  perSecond: number
}

/** Where buckets live: in this process by default, or shared by replicas (Redis). */
export interface RateLimitStore {
  /**
   * Takes one token from the bucket `name` of `subject`: resolves to 0 when allowed, else the milliseconds
   * until a token is back. Rejects when the store cannot answer (the call is then refused, not let through).
   */
  take(subject: string, name: string, rate: BucketRate): Promise<number>
}

/** Options of the per-caller rate limit. */
export interface RateLimitOptions extends BucketRate {
  /**
   * One bucket per caller taken by every call (POST) of theirs, whatever tool or method it names: the
   * caller's whole rate. Default twice the per-tool rate (`{ burst: 2 × burst, perSecond: 2 × perSecond }`);
   * `false` leaves it out.
   */
  all?: BucketRate | false
  /**
   * In-memory store: buckets kept. Only refilled buckets are dropped to make room; when none is, a caller
   * who has no bucket yet waits (429) until one refills. Default 100 000 (a few MB).
   */
  maxBuckets?: number
  /** Shared buckets, e.g. in Redis; default in this process (bounded by `maxBuckets`). */
  store?: RateLimitStore
}

export interface ResolvedRateLimit extends BucketRate {
  store: RateLimitStore
  /** The caller's whole rate, if metered. */
  all?: BucketRate
}

/** The bucket every call of a caller takes (no tool or method bucket is named like it). */
export const ALL_CALLS: MeteredCall = { bucket: 'caller:all', label: 'all', kind: 'all' }

/** The methods counted besides tool calls, each a bucket of its own: a session or a read costs the server too. */
export const METERED_METHODS: ReadonlySet<string> = new Set([
  'initialize',
  // The 2026-07-28 era's counterparts: discovery instead of initialize, and its long-lived stream.
  'server/discover',
  'subscriptions/listen',
  'tools/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'resources/subscribe',
  'resources/unsubscribe',
  'prompts/list',
  'prompts/get',
  'completion/complete',
  // Polling a task is cheap but unbounded without a limit (the tasks spec asks for one against enumeration).
  'tasks/get',
  'tasks/result',
  'tasks/list',
  'tasks/cancel',
])

/** Checks `rateLimit`, naming the option at fault. */
export function resolveRateLimit(options: RateLimitOptions | undefined): ResolvedRateLimit | undefined {
  if (options === undefined) return undefined
  const where = 'createAppServer'
  if (options === null || typeof options !== 'object') invalidOption(where, 'rateLimit', 'must be { burst, perSecond }')
  const { burst, perSecond, maxBuckets = 100_000, store } = options
  if (!Number.isInteger(burst) || burst < 1) invalidOption(where, 'rateLimit.burst', `must be an integer >= 1, got ${JSON.stringify(burst)}`)
  if (typeof perSecond !== 'number' || !Number.isFinite(perSecond) || perSecond <= 0)
    invalidOption(where, 'rateLimit.perSecond', `must be a number > 0, got ${JSON.stringify(perSecond)}`)
  if (!Number.isInteger(maxBuckets) || maxBuckets < 1)
    invalidOption(where, 'rateLimit.maxBuckets', `must be an integer >= 1, got ${JSON.stringify(maxBuckets)}`)
  if (store !== undefined && (store === null || typeof store.take !== 'function'))
    invalidOption(where, 'rateLimit.store', 'must have take(subject, name, rate)')
  const all = options.all ?? { burst: 2 * burst, perSecond: 2 * perSecond }
  if (all !== false) {
    if (all === null || typeof all !== 'object') invalidOption(where, 'rateLimit.all', 'must be { burst, perSecond } or false')
    if (!Number.isInteger(all.burst) || all.burst < 1) invalidOption(where, 'rateLimit.all.burst', `must be an integer >= 1, got ${JSON.stringify(all.burst)}`)
    if (typeof all.perSecond !== 'number' || !Number.isFinite(all.perSecond) || all.perSecond <= 0)
      invalidOption(where, 'rateLimit.all.perSecond', `must be a number > 0, got ${JSON.stringify(all.perSecond)}`)
  }
  return { burst, perSecond, store: store ?? new TokenBuckets(maxBuckets), ...(all !== false && { all: { burst: all.burst, perSecond: all.perSecond } }) }
}

interface Bucket {
  tokens: number
  at: number
  /** When the bucket is full again, at the rate it was last taken at: until then it may not be dropped. */
  fullAt: number
}

/** The in-memory store: buckets grouped by subject, bounded; only full (refilled) buckets make room. */
export class TokenBuckets implements RateLimitStore {
  private readonly buckets: BoundedMap<string, Bucket>
  /** The time of the take in progress, which decides which buckets have refilled. */
  private now = 0

  constructor(maxBuckets: number) {
    // A subject has one bucket per tool and metered method, so the per-subject bound is the total one.
    this.buckets = new BoundedMap({ maxEntries: maxBuckets, maxPerGroup: maxBuckets, evictable: (bucket) => bucket.fullAt <= this.now })
  }

  async take(subject: string, name: string, rate: BucketRate): Promise<number> {
    return this.takeNow(subject, name, rate, Date.now())
  }

  /** {@link take} at a given time (tests). */
  takeNow(subject: string, name: string, rate: BucketRate, now: number): number {
    this.now = now
    const key = `${subject}\u0000${name}`
    const old = this.buckets.get(key)
    const tokens = old ? Math.min(rate.burst, old.tokens + ((now - old.at) / 1000) * rate.perSecond) : rate.burst
    const left = tokens >= 1 ? tokens - 1 : tokens
    const bucket = { tokens: left, at: now, fullAt: now + ((rate.burst - left) / rate.perSecond) * 1000 }
    // No room without dropping a bucket that has not refilled: this caller waits, one token's time.
    if (!this.buckets.set(key, bucket, subject)) return Math.ceil(1000 / rate.perSecond)
    return tokens >= 1 ? 0 : Math.ceil(((1 - tokens) / rate.perSecond) * 1000)
  }

  get size(): number {
    return this.buckets.size
  }
}

/** One call a JSON-RPC body makes that is counted: its bucket name and what a 429 names. */
export interface MeteredCall {
  bucket: string
  /** The tool (`tools/call`) or the method. */
  label: string
  /** A tool's bucket, a method's, or the caller's whole rate ({@link ALL_CALLS}). */
  kind: 'tool' | 'method' | 'all'
}

/**
 * The counted calls of a JSON-RPC body (a single message or a batch): tool calls of tools the server has
 * (`knownTool`), and the {@link METERED_METHODS}. Anything else makes no bucket: the server answers it
 * as unknown, at no cost worth counting.
 */
export function meteredCalls(body: unknown, knownTool: (name: string) => boolean): MeteredCall[] {
  const messages = Array.isArray(body) ? body : [body]
  const calls: MeteredCall[] = []
  for (const message of messages) {
    if (!message || typeof message !== 'object') continue
    const { method, params } = message as { method?: unknown; params?: { name?: unknown } }
    if (method === 'tools/call') {
      const name = params?.name
      if (typeof name === 'string' && knownTool(name)) calls.push({ bucket: `tool:${name}`, label: name, kind: 'tool' })
    } else if (typeof method === 'string' && METERED_METHODS.has(method)) calls.push({ bucket: method, label: method, kind: 'method' })
  }
  return calls
}

/** Takes a token of `call`'s bucket: the wait in ms (0: taken), or the 503 answer when a shared store cannot answer. */
export async function takeToken(limit: ResolvedRateLimit, rate: BucketRate, who: string, call: MeteredCall, id: unknown): Promise<number | Response> {
  try {
    return await limit.store.take(who, call.bucket, rate)
  } catch (err) {
    // Fail closed: a limit that cannot be checked does not let the call through.
    const message = `The rate limit cannot be checked right now (${err instanceof Error ? err.message : String(err)}); try again shortly`
    return Response.json(
      { jsonrpc: '2.0', id, error: { code: -32000, message, data: { code: 'STORE_UNAVAILABLE' } } },
      { status: 503, headers: { 'Retry-After': '1' } },
    )
  }
}

/** The 429 answer: a JSON-RPC error with the wait, and `Retry-After` in whole seconds. */
export function rateLimitedResponse(call: MeteredCall, waitMs: number, id: unknown): Response {
  const retryAfter = Math.max(1, Math.ceil(waitMs / 1000))
  const what = call.kind === 'tool' ? `calls of tool '${call.label}'` : call.kind === 'all' ? 'calls' : `'${call.label}' requests`
  const scope = call.kind === 'all' ? 'all of its calls together' : call.kind
  const message = `Too many ${what}: this caller may try again in ${retryAfter} s (rate limit per caller and ${scope})`
  const data = { code: 'RATE_LIMITED', [call.kind]: call.label, retryAfterSeconds: retryAfter }
  return Response.json(
    { jsonrpc: '2.0', id: id ?? null, error: { code: -32000, message, data } },
    { status: 429, headers: { 'Retry-After': String(retryAfter) } },
  )
}
