import { describe, expect, it } from 'vitest'
import { BoundedMap } from '../../src/server/bounded-map.js'

describe('BoundedMap (bounded in total and per group)', () => {
  it('past a group cap, drops that group’s least recently used entry and no other group’s', () => {
    const evicted: string[] = []
    const map = new BoundedMap<string, number>({ maxEntries: 100, maxPerGroup: 2, onEvict: (key) => evicted.push(key) })
    map.set('b1', 1, 'bob')
    map.set('a1', 1, 'alice')
    map.set('a2', 2, 'alice')
    map.get('a1')
    map.set('a3', 3, 'alice')
    expect(evicted).toEqual(['a2'])
    expect([...map.entriesOf('alice')].map(([k]) => k)).toEqual(['a1', 'a3'])
    expect(map.has('b1')).toBe(true)
  })

  it('when full, the largest group pays, never a smaller one: a flood evicts only the flooder', () => {
    const map = new BoundedMap<string, number>({ maxEntries: 4, maxPerGroup: 4 })
    map.set('v1', 1, 'victim')
    for (let i = 0; i < 50; i++) map.set(`f${i}`, i, 'flooder')
    expect(map.size).toBe(4)
    expect(map.has('v1')).toBe(true)
    expect(map.sizeOf('flooder')).toBe(3)
    // A newcomer below the fair share takes its room from the largest group.
    map.set('n1', 1, 'newcomer')
    expect(map.sizeOf('flooder')).toBe(2)
    expect(map.has('v1')).toBe(true)
  })

  it('never drops an entry that may not be dropped, and refuses the write instead', () => {
    const map = new BoundedMap<string, { drained: boolean }>({ maxEntries: 2, maxPerGroup: 2, evictable: (v) => !v.drained })
    map.set('a', { drained: true }, 'g')
    map.set('b', { drained: true }, 'g')
    expect(map.set('c', { drained: false }, 'g')).toBe(false)
    expect(map.set('d', { drained: false }, 'other')).toBe(false)
    expect([...map.entries()].map(([k]) => k)).toEqual(['a', 'b'])
  })

  it('keeps its counts right through deletes and regrouping', () => {
    const map = new BoundedMap<string, number>({ maxEntries: 3, maxPerGroup: 3 })
    map.set('x', 1, 'g1')
    map.set('x', 2, 'g2')
    expect(map.groupOf('x')).toBe('g2')
    expect(map.sizeOf('g1')).toBe(0)
    map.delete('x')
    expect(map.size).toBe(0)
    expect(() => new BoundedMap({ maxEntries: 0, maxPerGroup: 1 })).toThrow(/maxEntries/)
  })
})
