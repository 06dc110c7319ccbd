import { drainMax, encodeMessage, queueFullError, waitMs, type ChannelLimits } from './limits.js'
import {
  checkChannelId,
  checkDirection,
  closedError,
  mintChannelId,
  type ChannelMessage,
  type ChannelStore,
  type Direction,
  type DrainOptions,
  type OutgoingMessage,
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
}

/** A FIFO whose shift is O(1): a read index into an array compacted once half of it is consumed. */
class Queue {
  private items: StoredMessage[] = []
  private head = 0
  get length(): number {
    return this.items.length - this.head
  }
  push(item: StoredMessage): void {
    this.items.push(item)
  }
  take(max: number): StoredMessage[] {
    const out = this.items.slice(this.head, this.head + max)
    this.head += out.length
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head)
      this.head = 0
    }
    return out
  }
}

interface Channel {
  open: boolean
  touchedAt: number
  seq: number
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

  constructor(private readonly limits: ChannelLimits) {
    this.stopSweeper = startSweeper(limits.idleTtlMs, () => this.sweep())
  }

  private create(id: string, now: number): Channel {
    const channel: Channel = { open: true, touchedAt: now, seq: 0, queues: { 'app-to-agent': new Queue(), 'agent-to-app': new Queue() } }
    this.channels.set(id, channel)
    return channel
  }

  /** The channel, created on first use; throws when it is closed or has gone idle past the TTL. */
  private use(id: string, now: number, create: boolean): Channel | undefined {
    const channel = this.channels.get(id)
    if (!channel) return create ? this.create(id, now) : undefined
    if (channel.open && channel.touchedAt < now - this.limits.idleTtlMs) this.end(channel, now)
    if (!channel.open) throw closedError(id)
    return channel
  }

  private end(channel: Channel, now: number): void {
    channel.open = false
    channel.touchedAt = now
    channel.queues = { 'app-to-agent': new Queue(), 'agent-to-app': new Queue() }
  }

  async open(): Promise<string> {
    const id = mintChannelId()
    this.create(id, Date.now())
    return id
  }

  async send(id: string, direction: Direction, message: OutgoingMessage): Promise<string> {
    checkChannelId(id)
    checkDirection(direction)
    const { event, json } = encodeMessage(message, this.limits)
    const now = Date.now()
    const channel = this.use(id, now, true)!
    const queue = channel.queues[direction]
    if (queue.length >= this.limits.maxPending) throw queueFullError(id, this.limits)
    const stored = { id: String(++channel.seq), event, json, at: now }
    queue.push(stored)
    channel.touchedAt = now
    this.bell.ring(bellKey(id, direction))
    return stored.id
  }

  async drain(id: string, direction: Direction, options: DrainOptions = {}): Promise<ChannelMessage[]> {
    checkChannelId(id)
    checkDirection(direction)
    const max = drainMax(options.max)
    const found = await waitFor(
      this.bell,
      bellKey(id, direction),
      { waitMs: waitMs(options.waitMs), signal: options.signal, fallbackPollMs: FALLBACK_POLL_MS },
      () => {
        const now = Date.now()
        const channel = this.use(id, now, true)!
        channel.touchedAt = now
        const taken = channel.queues[direction].take(max)
        // Data is kept serialised so a reader can never mutate what another reader will see.
        return taken.length ? taken.map((m) => ({ id: m.id, event: m.event, data: JSON.parse(m.json), at: m.at })) : undefined
      },
    )
    return found ?? []
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
    this.end(this.channels.get(id) ?? this.create(id, now), now)
    this.bell.ringAll()
  }

  async sweep(): Promise<number> {
    const now = Date.now()
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
    this.bell.ringAll()
  }
}
