// The HTTP listener's requests in flight, bounded per caller and in total. A user's requests past their
// share wait in their own line (before their body is read, so a waiting request costs a socket and
// nothing else); lines are served in turn, one request each, so a user with fifty requests waiting delays
// another user's one by a turn, not by fifty. Past the lines' bounds a request is answered BUSY at once.
// Why: Node serves every request in flight a slice at a time, so each one of a flooding user's in-flight
// requests adds to every other user's latency; capping them caps what one user takes from the others.
import { invalidOption } from './errors.js'
import { FairQueue, type Refusal } from './fair-queue.js'

/** Bounds of the requests in flight (HTTP POSTs: calls; long-lived GET streams are not counted). */
export interface RequestLineLimits {
  /** Requests served at once, over all callers; past it they wait in the callers' lines, served in turn. Default 256. */
  maxInFlight: number
  /**
   * Requests one caller (token subject, else client address) has served at once; past it theirs wait. Default 16.
   * A long poll holds one, and a tool that asks the client back (elicitation, sampling) holds one while the
   * answer, a POST too, needs another: keep it at 2 or more.
   */
  maxInFlightPerSubject: number
  /** Requests waiting, over all callers; past it, BUSY (503). Default 1024. */
  maxQueuedRequests: number
  /** Requests one caller may have waiting; past it, BUSY (429) for that caller only. Default 64. */
  maxQueuedRequestsPerSubject: number
}

export const DEFAULT_REQUEST_LINE: Readonly<RequestLineLimits> = Object.freeze({
  maxInFlight: 256,
  // An agent's turn is one call at a time, and each of its long polls holds one: room for several chats and views.
  maxInFlightPerSubject: 16,
  maxQueuedRequests: 1024,
  maxQueuedRequestsPerSubject: 64,
})

/** The limits of `options` (the `http` listen options), each checked and named. */
export function resolveRequestLine(options: Partial<RequestLineLimits>): RequestLineLimits {
  const limits = { ...DEFAULT_REQUEST_LINE }
  for (const name of Object.keys(DEFAULT_REQUEST_LINE) as Array<keyof RequestLineLimits>) {
    const value = options[name]
    if (value === undefined) continue
    if (!Number.isSafeInteger(value) || value < 1) invalidOption('listen', `http.${name}`, `must be an integer >= 1, got ${JSON.stringify(value)}`)
    limits[name] = value
  }
  if (limits.maxInFlightPerSubject > limits.maxInFlight)
    invalidOption('listen', 'http.maxInFlightPerSubject', `must be at most http.maxInFlight (${limits.maxInFlight}), got ${limits.maxInFlightPerSubject}`)
  return limits
}

/** Why a request was not admitted, and when to try again. */
export interface LineRefusal {
  refusal: Refusal
  limit: number
  retryAfterSeconds: number
}

interface Waiter {
  admit(): void
}

/** The line: `enter` resolves once the caller may be served, with the function that frees its slot. */
export class RequestLine {
  readonly #queue: FairQueue<Waiter>
  #inFlight = 0
  // A running mean of how long a request holds its slot, for the retry hint.
  #meanMs = 100

  constructor(readonly limits: Readonly<RequestLineLimits>) {
    this.#queue = new FairQueue({
      maxQueued: limits.maxQueuedRequests,
      maxQueuedPerSubject: limits.maxQueuedRequestsPerSubject,
      maxRunningPerSubject: limits.maxInFlightPerSubject,
    })
  }

  /** Requests being served now. */
  get inFlight(): number {
    return this.#inFlight
  }

  /** Requests waiting now. */
  get queued(): number {
    return this.#queue.size
  }

  /**
   * Waits for a slot of `caller`: resolves with `leave` (call it once the response is done), or with a
   * refusal when the caller's line or the whole line is full. `gone` resolves when the client has gone
   * away: a request still waiting then leaves the line without being served (`undefined`).
   */
  enter(caller: string, gone: Promise<void>): Promise<(() => void) | LineRefusal | undefined> {
    return new Promise((resolve) => {
      const waiter: Waiter = {
        admit: () => {
          const started = Date.now()
          let left = false
          resolve(() => {
            if (left) return
            left = true
            this.#meanMs = this.#meanMs * 0.9 + (Date.now() - started) * 0.1
            this.#inFlight--
            this.#queue.done(caller)
            this.#pump()
          })
        },
      }
      const refusal = this.#queue.push(caller, waiter)
      if (refusal) return resolve(this.#refusal(refusal, caller))
      void gone.then(() => {
        if (this.#queue.remove(caller, waiter)) resolve(undefined)
      })
      this.#pump()
    })
  }

  #pump(): void {
    while (this.#inFlight < this.limits.maxInFlight) {
      const next = this.#queue.take()
      if (!next) return
      this.#inFlight++
      next.item.admit()
    }
  }

  #refusal(refusal: Refusal, caller: string): LineRefusal {
    const own = refusal === 'subject'
    const ahead = own ? this.#queue.waitingOf(caller) : this.#queue.size
    const lanes = own ? this.limits.maxInFlightPerSubject : this.limits.maxInFlight
    return {
      refusal,
      limit: own ? this.limits.maxQueuedRequestsPerSubject : this.limits.maxQueuedRequests,
      retryAfterSeconds: Math.max(1, Math.ceil(((ahead + 1) * this.#meanMs) / lanes / 1000)),
    }
  }
}

/** The BUSY answer: 429 when the caller's own line is full, 503 when the whole line is; `Retry-After` in seconds. */
export function lineBusyBody(refused: LineRefusal): { status: number; headers: Record<string, string>; body: string } {
  const own = refused.refusal === 'subject'
  const message = own
    ? `Too many requests of this caller in flight and waiting (at most ${refused.limit} wait); try again in ${refused.retryAfterSeconds} s`
    : `The server has too many requests waiting (at most ${refused.limit}); try again in ${refused.retryAfterSeconds} s`
  const data = { code: 'BUSY', queue: own ? 'subject' : 'all', limit: refused.limit, retryAfterSeconds: refused.retryAfterSeconds }
  return {
    status: own ? 429 : 503,
    headers: { 'content-type': 'application/json', 'retry-after': String(refused.retryAfterSeconds) },
    body: JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message, data } }),
  }
}
