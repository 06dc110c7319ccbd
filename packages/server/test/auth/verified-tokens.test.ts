import { describe, expect, it } from 'vitest'
import { VerifiedTokens } from '../../src/server/verified-tokens.js'

describe('verified tokens remembered', () => {
  it('keeps a token until its exp, and not a millisecond past it', () => {
    const tokens = new VerifiedTokens<string>({ maxEntries: 10 })
    tokens.set('t', 'alice', 5_000, 'alice', 1_000)
    expect(tokens.get('t', 4_999)).toBe('alice')
    expect(tokens.get('t', 5_000)).toBeUndefined()
    expect(tokens.size).toBe(0)
  })

  it('keeps a long-lived token at most ttlMs after it was verified', () => {
    const tokens = new VerifiedTokens<string>({ maxEntries: 10, ttlMs: 60_000 })
    tokens.set('t', 'alice', 3_600_000, 'alice', 0)
    expect(tokens.get('t', 59_999)).toBe('alice')
    expect(tokens.get('t', 60_000)).toBeUndefined()
  })

  it('does not keep a token already past its exp', () => {
    const tokens = new VerifiedTokens<string>({ maxEntries: 10 })
    tokens.set('t', 'alice', 1_000, 'alice', 1_000)
    expect(tokens.get('t', 1_000)).toBeUndefined()
    expect(tokens.size).toBe(0)
  })

  it('drops the oldest entry to make room, never more than maxEntries', () => {
    const tokens = new VerifiedTokens<number>({ maxEntries: 3, maxPerSubject: 3 })
    for (let i = 0; i < 5; i++) tokens.set(`t${i}`, i, 10_000, 'alice', 0)
    expect(tokens.size).toBe(3)
    expect([0, 1, 2, 3, 4].map((i) => tokens.get(`t${i}`, 1))).toEqual([undefined, undefined, 2, 3, 4])
  })

  it("a subject minting many tokens pushes out only its own, never another subject's", () => {
    const tokens = new VerifiedTokens<string>({ maxEntries: 4, maxPerSubject: 2 })
    tokens.set('bob-token', 'bob', 10_000, 'bob', 0)
    for (let i = 0; i < 50; i++) tokens.set(`mallory-${i}`, 'mallory', 10_000, 'mallory', 0)
    expect(tokens.get('bob-token', 1)).toBe('bob')
    expect(tokens.get('mallory-49', 1)).toBe('mallory')
    expect(tokens.get('mallory-0', 1)).toBeUndefined()
  })
})
