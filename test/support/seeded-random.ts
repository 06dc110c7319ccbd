/**
 * A deterministic random source (mulberry32): numbers in [0, 1), the same run for the same seed, so a
 * randomised test that fails names a seed that can be run again.
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Whole numbers and picks drawn from `seededRandom(seed)`: one draw each. */
export interface SeededPicks {
  /** 0 to n - 1. */
  int(n: number): number
  pick<T>(items: readonly T[]): T
}

export function seededPicks(seed: number): SeededPicks {
  const next = seededRandom(seed)
  return { int: (n) => Math.floor(next() * n), pick: (items) => items[Math.floor(next() * items.length)]! }
}
