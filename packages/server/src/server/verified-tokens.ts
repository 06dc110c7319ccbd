// Remembers JWT access tokens that verified, so a client sending the same token on every request pays the
// signature check (about half a millisecond of RSA on a small machine) once, not per call. A signed token
// stays valid until its `exp` whatever the server does, so remembering it changes no answer while the token
// lives; an entry is dropped at the token's `exp` (the clock tolerance is not stretched by the cache) and at
// the latest `ttlMs` after it was verified, so a key the issuer withdraws stops working within that time.

interface Entry<T> {
  value: T
  until: number
}

/** A bounded map of verified tokens to what verifying them gave, each entry with a deadline. */
export class VerifiedTokens<T> {
  private readonly entries = new Map<string, Entry<T>>()

  constructor(
    private readonly maxEntries = 1_000,
    private readonly ttlMs = 60_000,
  ) {}

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

  /** Keeps `value` for `token` until `expiresAtMs` (its `exp`) or `ttlMs` from now, whichever is first. */
  set(token: string, value: T, expiresAtMs: number, now = Date.now()): void {
    const until = Math.min(expiresAtMs, now + this.ttlMs)
    if (!(until > now)) return
    // The oldest entry makes room: a Map iterates in insertion order.
    if (!this.entries.has(token) && this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string)
    this.entries.set(token, { value, until })
  }

  get size(): number {
    return this.entries.size
  }
}
