// A caller's whole rate (`rateLimit.all`): one bucket per caller that every call of theirs takes, checked
// before the call's body is read. A call past the rate waits for its token (at most MAX_WAIT_MS) instead
// of being refused at once: a client that floods in a loop is then slowed to the rate, rather than
// answered 429 as fast as it can ask (each answer costing the server more than the wait does). Calls
// waiting are bounded like the request line's (per caller and in total); past that, or past the longest
// wait, 429 with Retry-After.
import { ALL_CALLS, rateLimitedResponse, takeToken, type BucketRate, type ResolvedRateLimit } from './rate-limit.js'
import type { RequestLineLimits } from './request-line.js'

/** The longest a call waits for its caller's token before it is refused. */
export const MAX_WAIT_MS = 1000

export class CallerRate {
  readonly #waiting = new Map<string, number>()
  #total = 0

  constructor(
    readonly limit: ResolvedRateLimit,
    readonly rate: BucketRate,
    readonly bounds: Pick<RequestLineLimits, 'maxQueuedRequests' | 'maxQueuedRequestsPerSubject'>,
  ) {}

  /**
   * Takes a token of `who`'s bucket, waiting for one if need be: resolves `undefined` once taken, with the
   * answer to send when refused (429, or 503 when a shared store cannot answer), or `'gone'` when the
   * client went away while waiting.
   */
  async pass(who: string, gone: Promise<void>): Promise<Response | 'gone' | undefined> {
    let left = false
    void gone.then(() => {
      left = true
    })
    let waited = 0
    for (;;) {
      const waitMs = await takeToken(this.limit, this.rate, who, ALL_CALLS, null)
      if (waitMs instanceof Response) return waitMs
      if (waitMs === 0) return undefined
      const mine = this.#waiting.get(who) ?? 0
      if (waited + waitMs > MAX_WAIT_MS || mine >= this.bounds.maxQueuedRequestsPerSubject || this.#total >= this.bounds.maxQueuedRequests)
        return rateLimitedResponse(ALL_CALLS, waitMs, null)
      this.#waiting.set(who, mine + 1)
      this.#total++
      try {
        await new Promise((resolve) => setTimeout(resolve, waitMs))
      } finally {
        const now = (this.#waiting.get(who) ?? 1) - 1
        if (now > 0) this.#waiting.set(who, now)
        else this.#waiting.delete(who)
        this.#total--
      }
      waited += waitMs
      if (left) return 'gone'
    }
  }
}
