import { decodeData, drainMax, encodeMessage, queueFullError, quotaError, waitMs, type ChannelLimits } from './limits.js'
import { SetAsideListeners } from './set-aside.js'
import {
  afterTooLarge,
  checkAfter,
  checkChannelId,
  checkDirection,
  closedError,
  DIRECTIONS,
  isMintedId,
  mintChannelId,
  ownerOf,
  unknownChannelError,
  type ChannelMessage,
  type ChannelStats,
  type ChannelStore,
  type Direction,
  type DrainOptions,
  type OutgoingMessage,
  type ReadOptions,
  type SetAsideEvent,
} from './store.js'
import { startSweeper, TOMBSTONE_TTL_FACTOR } from './sweeper.js'
import { Bell, bellKey, waitFor, waitForPending } from './wake.js'

// Nothing outside this process can write, so every change rings the bell; the poll is only a safety net.
const FALLBACK_POLL_MS = 5_000

interface StoredMessage {
  id: string
  event: string
  json: string
  at: number
  bytes: number
}

/** A FIFO whose shift is O(1): a read index into an array compacted once half of it is consumed. */
class Queue {
  private items: StoredMessage[] = []
  private head = 0
  /** Bytes held; every change is reported to the store's total, so the byte quota costs nothing to check. */
  bytes = 0
  constructor(private readonly account: (delta: number) => void) {}
  get length(): number {
    return this.items.length - this.head
  }
  push(item: StoredMessage): void {
    this.items.push(item)
    this.change(item.bytes)
  }
  remove(item: StoredMessage): void {
    const at = this.items.indexOf(item, this.head)
    if (at >= 0) {
      this.items.splice(at, 1)
      this.change(-item.bytes)
    }
  }
  /** Empties the queue (close, expiry), giving its bytes back. */
  clear(): void {
    this.items = []
    this.head = 0
    this.change(-this.bytes)
  }
  private change(delta: number): void {
    this.bytes += delta
    this.account(delta)
  }
  /** The oldest `max` messages with ids above `since`, left in place. */
  first(max: number, since = 0): StoredMessage[] {
    let from = this.head
    while (from < this.items.length && Number(this.items[from].id) <= since) from++
    return this.items.slice(from, from + max)
  }
  /** Removes every message whose id is at most `upTo`; returns how many. Ids grow, so they sit at the front. */
  ackUpTo(upTo: number): number {
    const start = this.head
    while (this.head < this.items.length && Number(this.items[this.head].id) <= upTo) this.change(-this.items[this.head++].bytes)
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head)
      this.head = 0
    }
    return this.head - start
  }
}

/** What one owner holds now, against the per-subject quotas. */
interface Usage {
  bytes: number
  channels: number
  setAside: number
}

interface Channel {
  /** Whose quotas it counts against ('' for the store-wide ones only). */
  owner: string
  open: boolean
  touchedAt: number
  seq: number
  /** An app-side call used it, or `open` minted it. */
  appSeen: boolean
  queues: Record<Direction, Queue>
}

/** Opens a channel store that lives in this process only (tests, single-process servers). */
export function openMemoryStore(limits: ChannelLimits): ChannelStore {
  return new MemoryChannelStore(limits)
}

class MemoryChannelStore implements ChannelStore {
  readonly backend = 'memory' as const
  private readonly channels = new Map<string, Channel>()
  private readonly bell = new Bell()
  private readonly stopSweeper: () => void
  private setAside = 0
  private readonly setAsideListeners = new SetAsideListeners()
  // Store-wide and per-owner use, kept current on every change so a quota check is one comparison.
  private bytes = 0
  private openChannels = 0
  private readonly usage = new Map<string, Usage>()

  constructor(private readonly limits: ChannelLimits) {
    this.stopSweeper = startSweeper(limits.idleTtlMs, () => this.sweep())
  }

  /** An owner's use, created at zero; owners holding nothing are dropped again (see `settle`). */
  private usageOf(owner: string): Usage {
    let usage = this.usage.get(owner)
    if (!usage) this.usage.set(owner, (usage = { bytes: 0, channels: 0, setAside: 0 }))
    return usage
  }

  private settle(owner: string): void {
    const usage = this.usage.get(owner)
    if (usage && usage.bytes === 0 && usage.channels === 0 && usage.setAside === 0) this.usage.delete(owner)
  }

  private queues(owner: string): Record<Direction, Queue> {
    const account = (delta: number) => {
      this.bytes += delta
      if (owner === '') return
      this.usageOf(owner).bytes += delta
      if (delta < 0) this.settle(owner)
    }
    return { 'app-to-agent': new Queue(account), 'agent-to-app': new Queue(account) }
  }

  /** Throws when a new channel of `owner` would go past a channel quota (idle channels are expired first so they hold no room). */
  private checkNewChannel(owner: string, now: number): void {
    if (this.openChannels >= this.limits.maxChannels) this.expireIdle(now)
    if (this.openChannels >= this.limits.maxChannels) throw quotaError('maxChannels', this.limits.maxChannels, this.openChannels)
    if (owner !== '') {
      if ((this.usage.get(owner)?.channels ?? 0) >= this.limits.maxChannelsPerSubject) this.expireIdle(now)
      const mine = this.usage.get(owner)?.channels ?? 0
      if (mine >= this.limits.maxChannelsPerSubject) throw quotaError('maxChannelsPerSubject', this.limits.maxChannelsPerSubject, mine)
    }
  }

  /** A new open channel, within the channel quotas. */
  private create(id: string, now: number, appSeen: boolean, owner: string): Channel {
    this.checkNewChannel(owner, now)
    return this.add(id, now, appSeen, owner)
  }

  /** Adds a channel whose room was checked. */
  private add(id: string, now: number, appSeen: boolean, owner: string): Channel {
    if (owner !== '') this.usageOf(owner).channels++
    const channel: Channel = { owner, open: true, touchedAt: now, seq: 0, appSeen, queues: this.queues(owner) }
    this.channels.set(id, channel)
    this.openChannels++
    return channel
  }

  /**
   * The channel, created on first use (charged to `owner`, see `ownerOf`); throws when it is closed or has gone
   * idle past the TTL. `app` marks an app-side call.
   */
  private use(id: string, now: number, create: boolean, app = false, owner?: string): Channel | undefined {
    const channel = this.channels.get(id)
    if (!channel && isMintedId(id)) throw unknownChannelError(id, this.backend)
    if (!channel) return create ? this.create(id, now, app, ownerOf(id, owner)) : undefined
    if (channel.open && channel.touchedAt < now - this.limits.idleTtlMs) this.end(channel, now)
    if (!channel.open) throw closedError(id)
    if (app) channel.appSeen = true
    return channel
  }

  private end(channel: Channel, now: number): void {
    if (channel.open) {
      this.openChannels--
      if (channel.owner !== '') {
        this.usageOf(channel.owner).channels--
        this.settle(channel.owner)
      }
    }
    channel.open = false
    channel.touchedAt = now
    for (const direction of DIRECTIONS) channel.queues[direction].clear()
  }

  async open(scope?: string, owner?: string): Promise<string> {
    const id = mintChannelId(scope)
    this.create(id, Date.now(), true, ownerOf(id, owner))
    return id
  }

  async send(id: string, direction: Direction, message: OutgoingMessage, owner?: string): Promise<string> {
    checkChannelId(id)
    checkDirection(direction)
    const encoded = encodeMessage(message, this.limits)
    const { event, json, bytes } = encoded
    const now = Date.now()
    // Everything is checked before anything changes, as in SQLite's transaction: a refused send makes no
    // channel and marks none as an app's.
    const existing = this.use(id, now, false)
    const charged = existing ? existing.owner : ownerOf(id, owner)
    if (!existing) this.checkNewChannel(charged, now)
    this.checkRoom(existing?.queues[direction].length ?? 0, charged, id, bytes, now)
    const app = direction === 'app-to-agent'
    const channel = existing ?? this.add(id, now, app, charged)
    if (app) channel.appSeen = true
    const queue = channel.queues[direction]
    const stored = { id: String(++channel.seq), event, json, at: now, bytes }
    queue.push(stored)
    channel.touchedAt = now
    this.bell.ring(bellKey(id, direction))
    return stored.id
  }

  /** Throws when a message of `bytes` does not fit: a queue of `pending` first, then the byte quotas. */
  private checkRoom(pending: number, owner: string, id: string, bytes: number, now: number): void {
    if (pending >= this.limits.maxPending) throw queueFullError(id, this.limits)
    if (this.bytes + bytes > this.limits.maxStoreBytes) this.expireIdle(now)
    if (this.bytes + bytes > this.limits.maxStoreBytes) throw quotaError('maxStoreBytes', this.limits.maxStoreBytes, this.bytes, bytes)
    if (owner !== '') {
      const limit = this.limits.maxStoreBytesPerSubject
      if ((this.usage.get(owner)?.bytes ?? 0) + bytes > limit) this.expireIdle(now)
      const mine = this.usage.get(owner)?.bytes ?? 0
      if (mine + bytes > limit) throw quotaError('maxStoreBytesPerSubject', limit, mine, bytes)
    }
  }

  async drain(id: string, direction: Direction, options: DrainOptions = {}): Promise<ChannelMessage[]> {
    return this.read(id, direction, { ...options, after: undefined, since: undefined }, true)
  }

  async read(id: string, direction: Direction, options: ReadOptions = {}, consume = false): Promise<ChannelMessage[]> {
    checkChannelId(id)
    checkDirection(direction)
    const max = drainMax(options.max)
    const wait = waitMs(options.waitMs)
    if (options.after !== undefined) await this.ack(id, direction, options.after, options.owner)
    const since = options.since === undefined ? 0 : checkAfter(options.since)
    const found = await waitFor(this.bell, bellKey(id, direction), { waitMs: wait, signal: options.signal, fallbackPollMs: FALLBACK_POLL_MS }, () => {
      const now = Date.now()
      const channel = this.use(id, now, true, direction === 'agent-to-app', options.owner)!
      channel.touchedAt = now
      const queue = channel.queues[direction]
      for (;;) {
        const rows = queue.first(max, since)
        if (rows.length === 0) return undefined
        // Data is kept serialised so a reader can never mutate what another reader will see; a row that will
        // not parse is taken out of the queue (and counted) so it cannot block its neighbours.
        const out: ChannelMessage[] = []
        let bad = 0
        for (const m of rows) {
          const decoded = decodeData(m.json)
          if (decoded.ok) out.push({ id: m.id, event: m.event, data: decoded.data, at: m.at })
          else {
            queue.remove(m)
            bad++
          }
        }
        this.setAside += bad
        if (bad > 0 && channel.owner !== '') this.usageOf(channel.owner).setAside += bad
        this.setAsideListeners.emit({ channelId: id, direction, count: bad })
        if (out.length === 0) continue
        // Taking the batch happens in this same synchronous step, so two drains never share a message.
        if (consume) {
          options.accept?.(out)
          queue.ackUpTo(Number(out[out.length - 1].id))
        }
        return out
      }
    })
    return found ?? []
  }

  async ack(id: string, direction: Direction, upTo: string, owner?: string): Promise<number> {
    checkChannelId(id)
    checkDirection(direction)
    const n = checkAfter(upTo)
    const now = Date.now()
    // A cursor past the newest id is refused before anything changes: no channel made, no app mark.
    const existing = this.use(id, now, false)
    if (n > (existing?.seq ?? 0)) throw afterTooLarge(upTo)
    const channel = this.use(id, now, true, direction === 'agent-to-app', owner)!
    return channel.queues[direction].ackUpTo(n)
  }

  async stats(owner?: string): Promise<ChannelStats> {
    // No owner, or '' (no one in particular): the store's own counters.
    if (owner === undefined || ownerOf('', owner) === '') {
      const limits = { bytes: this.limits.maxStoreBytes, channels: this.limits.maxChannels }
      return { backend: this.backend, setAside: this.setAside, bytes: this.bytes, channels: this.openChannels, limits }
    }
    const mine = this.usage.get(owner) ?? { bytes: 0, channels: 0, setAside: 0 }
    const limits = { bytes: this.limits.maxStoreBytesPerSubject, channels: this.limits.maxChannelsPerSubject }
    return { backend: this.backend, setAside: mine.setAside, bytes: mine.bytes, channels: mine.channels, limits }
  }

  async appSeen(id: string): Promise<boolean> {
    checkChannelId(id)
    return this.channels.get(id)?.appSeen ?? false
  }

  onSetAside(listener: (event: SetAsideEvent) => void): () => void {
    return this.setAsideListeners.add(listener)
  }

  async peek(id: string, direction: Direction): Promise<number> {
    checkChannelId(id)
    checkDirection(direction)
    return this.use(id, Date.now(), false)?.queues[direction].length ?? 0
  }

  async waitForMail(id: string, direction: Direction, wait: number, signal?: AbortSignal): Promise<number> {
    return waitForPending(this.bell, { id, direction, wait, signal }, FALLBACK_POLL_MS, () => this.peek(id, direction))
  }

  async close(id: string): Promise<void> {
    checkChannelId(id)
    const now = Date.now()
    const channel = this.channels.get(id)
    if (channel) this.end(channel, now)
    // A tombstone, so the id keeps refusing calls; it is not an open channel and takes no quota.
    else this.channels.set(id, { owner: '', open: false, touchedAt: now, seq: 0, appSeen: false, queues: this.queues('') })
    for (const direction of DIRECTIONS) this.bell.ring(bellKey(id, direction))
  }

  async sweep(): Promise<number> {
    return this.expireIdle(Date.now())
  }

  private expireIdle(now: number): number {
    let expired = 0
    for (const [id, channel] of this.channels) {
      if (channel.open && channel.touchedAt < now - this.limits.idleTtlMs) {
        this.end(channel, now)
        expired++
      } else if (!channel.open && channel.touchedAt < now - this.limits.idleTtlMs * TOMBSTONE_TTL_FACTOR) this.channels.delete(id)
    }
    return expired
  }

  async dispose(): Promise<void> {
    this.stopSweeper()
    this.channels.clear()
    this.usage.clear()
    this.bell.ringAll()
  }
}
