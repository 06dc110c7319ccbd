// Remembers JWT access tokens that verified, so a client sending the same token on every request pays the
// signature check (about half a millisecond of RSA on a small machine) once, not per call. A signed token
// stays valid until its `exp` whatever the server does, so remembering it changes no answer while the token
// lives; an entry is dropped at the token's `exp` (the clock tolerance is not stretched by the cache) and at
// the latest `ttlMs` after it was verified, so a key the issuer withdraws stops working within that time.
// Bounded per subject as well as in all: a user who mints many tokens pushes out only their own.
import { BoundedMap } from './bounded-map.js'

interface Entry<T> {
  value: T
  until: number
}

/** Bounds of {@link VerifiedTokens}. */
export interface VerifiedTokensLimits {
  /** Tokens remembered in all. Default 1000. */
  maxEntries?: number
  /** Tokens remembered for one subject. Default 20. */
  maxPerSubject?: number
  /** The longest a token is remembered after it verified. Default 60 000 ms. */
  ttlMs?: number
}

/** A bounded map of verified tokens to what verifying them gave, each entry with a deadline. */
export class VerifiedTokens<T> {
  private readonly entries: BoundedMap<string, Entry<T>>
  private readonly ttlMs: number

  constructor({ maxEntries = 1_000, maxPerSubject = 20, ttlMs = 60_000 }: VerifiedTokensLimits = {}) {
    this.entries = new BoundedMap({ maxEntries, maxPerGroup: maxPerSubject })
    this.ttlMs = ttlMs
  }

  /** What `token` verified to, while its entry lives; undefined otherwise. */
  get(token: string, now = Date.now()): T | undefined {
    const entry = this.entries.get(token)
    if (!entry) return undefined
    if (entry.until <= now) {
      this.entries.delete(token)
      return undefined
    }
    return entry.value
  }

  /** Keeps `value` for `token` of `subject` until `expiresAtMs` (its `exp`) or `ttlMs` from now, whichever is first. */
  set(token: string, value: T, expiresAtMs: number, subject: string, now = Date.now()): void {
    const until = Math.min(expiresAtMs, now + this.ttlMs)
    if (!(until > now)) return
    this.entries.set(token, { value, until }, subject)
  }

  get size(): number {
    return this.entries.size
  }
}
