// One in-memory map for every cache and table the server keeps on behalf of its users (sessions, events,
// rate-limit buckets, verified tokens, view states). Each entry belongs to a group (the user, i.e. the
// subject, or the client address without auth), and the map is bounded twice: in total and per group.
// Making room never takes from a user who is not the cause: a group at its own cap loses its own least
// recently used entry; when the whole map is full, the entry goes from the group holding the most (the
// writer's own group when it holds as many), so a user below the fair share never loses an entry to a
// heavier one.

/** Options of a {@link BoundedMap}. */
export interface BoundedMapOptions<K, V> {
  /** Entries kept in all, over every group. */
  maxEntries: number
  /** Entries one group may hold. */
  maxPerGroup: number
  /**
   * May this entry be dropped to make room? Default: any entry may. An entry that may not (a drained
   * rate-limit bucket, say) stays; when a group has none to give, {@link BoundedMap.set} refuses.
   */
  evictable?: (value: V, key: K) => boolean
  /** Told about each entry dropped to make room (not about `delete` or `clear`). */
  onEvict?: (key: K, value: V, group: string) => void
}

interface Slot<V> {
  value: V
  group: string
}

/** A map bounded in total and per group; least recently used first within a group. */
export class BoundedMap<K, V> {
  readonly #slots = new Map<K, Slot<V>>()
  /** Each group's keys, least recently used first (a Map keeps insertion order). */
  readonly #groups = new Map<string, Map<K, true>>()
  /** Groups by how many entries they hold, so the largest is found without a scan. */
  readonly #bySize = new Map<number, Set<string>>()
  #largest = 0
  readonly #options: BoundedMapOptions<K, V>

  constructor(options: BoundedMapOptions<K, V>) {
    for (const name of ['maxEntries', 'maxPerGroup'] as const) {
      const n = options[name]
      if (!Number.isInteger(n) || n < 1) throw new RangeError(`BoundedMap: ${name} must be an integer >= 1, got ${JSON.stringify(n)}`)
    }
    this.#options = options
  }

  get size(): number {
    return this.#slots.size
  }

  /** How many entries `group` holds. */
  sizeOf(group: string): number {
    return this.#groups.get(group)?.size ?? 0
  }

  has(key: K): boolean {
    return this.#slots.has(key)
  }

  /** The value, marking the entry as just used. */
  get(key: K): V | undefined {
    const slot = this.#slots.get(key)
    if (!slot) return undefined
    const keys = this.#groups.get(slot.group)!
    keys.delete(key)
    keys.set(key, true)
    return slot.value
  }

  /** The value, leaving the order as it is. */
  peek(key: K): V | undefined {
    return this.#slots.get(key)?.value
  }

  /** The group an entry belongs to. */
  groupOf(key: K): string | undefined {
    return this.#slots.get(key)?.group
  }

  /**
   * Keeps `value` under `key` in `group`, as the most recently used, making room first if needed.
   * Returns false, keeping nothing, when no entry may be dropped for it (see `evictable`).
   */
  set(key: K, value: V, group: string): boolean {
    const slot = this.#slots.get(key)
    if (slot && slot.group === group) {
      slot.value = value
      this.get(key)
      return true
    }
    if (slot) this.delete(key)
    if (this.sizeOf(group) >= this.#options.maxPerGroup) {
      if (!this.#evictFrom(group)) return false
    } else if (this.#slots.size >= this.#options.maxEntries) {
      // The writer's group pays when it is among the largest; otherwise the largest group does.
      const from = this.sizeOf(group) >= this.#largest ? group : this.#aLargestGroup()
      if (!this.#evictFrom(from) && (from === group || !this.#evictFrom(group))) return false
    }
    this.#slots.set(key, { value, group })
    let keys = this.#groups.get(group)
    if (!keys) {
      keys = new Map()
      this.#groups.set(group, keys)
    }
    keys.set(key, true)
    this.#resized(group, keys.size - 1, keys.size)
    return true
  }

  delete(key: K): boolean {
    const slot = this.#slots.get(key)
    if (!slot) return false
    this.#slots.delete(key)
    const keys = this.#groups.get(slot.group)!
    keys.delete(key)
    if (keys.size === 0) this.#groups.delete(slot.group)
    this.#resized(slot.group, keys.size + 1, keys.size)
    return true
  }

  clear(): void {
    this.#slots.clear()
    this.#groups.clear()
    this.#bySize.clear()
    this.#largest = 0
  }

  /** Every entry, group by group, each group least recently used first. */
  *entries(): IterableIterator<[K, V]> {
    for (const group of [...this.#groups.keys()]) yield* this.entriesOf(group)
  }

  /** One group's entries, least recently used first. */
  *entriesOf(group: string): IterableIterator<[K, V]> {
    const keys = this.#groups.get(group)
    if (!keys) return
    for (const key of [...keys.keys()]) {
      const slot = this.#slots.get(key)
      if (slot) yield [key, slot.value]
    }
  }

  /** Drops the least recently used entry of `group` that may be dropped; false when there is none. */
  #evictFrom(group: string): boolean {
    const keys = this.#groups.get(group)
    if (!keys) return false
    const { evictable, onEvict } = this.#options
    for (const key of keys.keys()) {
      const value = this.#slots.get(key)!.value
      if (evictable && !evictable(value, key)) continue
      this.delete(key)
      onEvict?.(key, value, group)
      return true
    }
    return false
  }

  #aLargestGroup(): string {
    return this.#bySize.get(this.#largest)!.values().next().value as string
  }

  /** Keeps the groups-by-size index: sizes change by one at a time, so the largest moves by at most one. */
  #resized(group: string, from: number, to: number): void {
    if (from > 0) {
      const set = this.#bySize.get(from)!
      set.delete(group)
      if (set.size === 0) this.#bySize.delete(from)
    }
    if (to > 0) {
      let set = this.#bySize.get(to)
      if (!set) {
        set = new Set()
        this.#bySize.set(to, set)
      }
      set.add(group)
    }
    if (to > this.#largest) this.#largest = to
    else if (from === this.#largest && !this.#bySize.has(from)) this.#largest = to
  }
}
