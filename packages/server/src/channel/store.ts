import { randomBytes } from 'node:crypto'
import { DuetError, isChannelId, MINTED_CHANNEL_PREFIX } from 'duetkit/protocol'

/** Which queue of a channel: what the app sends the agent, or what the agent sends the app. */
export type Direction = 'app-to-agent' | 'agent-to-app'

/** The two directions, in a fixed order, for code that walks both. */
export const DIRECTIONS: readonly Direction[] = ['app-to-agent', 'agent-to-app']

/** One stored message. `id` is unique within its queue and grows with send order. */
export interface ChannelMessage {
  id: string
  event: string
  data: unknown
  /** Milliseconds since the epoch when the store accepted it. */
  at: number
}

/** What a sender hands to `send`. `data` must survive `JSON.stringify`. */
export interface OutgoingMessage {
  event: string
  data?: unknown
}

export interface DrainOptions {
  /** At most this many messages (default 100). */
  max?: number
  /** Wait up to this long for mail when the queue is empty (default 0: return at once). */
  waitMs?: number
  /** Ends a wait early (returns what is there, usually nothing). */
  signal?: AbortSignal
}

/** Two ordered queues per channel, shared by every process that opens the same store. */
export interface ChannelStore {
  /** Which backend this is, for messages and diagnostics. */
  readonly backend: 'sqlite' | 'memory' | 'redis'
  /** Mints a new channel with an unguessable id and returns the id. */
  open(): Promise<string>
  /** Appends a message; resolves with its id once it is durably stored. */
  send(id: string, direction: Direction, message: OutgoingMessage): Promise<string>
  /** Removes and returns the oldest messages, each exactly once, oldest first. */
  drain(id: string, direction: Direction, options?: DrainOptions): Promise<ChannelMessage[]>
  /** Counts pending messages without consuming any. */
  peek(id: string, direction: Direction): Promise<number>
  /**
   * Resolves with the pending count as soon as it is above zero, or with 0 when `waitMs` runs out.
   * Never consumes anything: this is what `duet wait` is built on.
   */
  waitForMail(id: string, direction: Direction, waitMs: number, signal?: AbortSignal): Promise<number>
  /** Closes a channel for good: its messages are dropped and later calls fail with CHANNEL_CLOSED. */
  close(id: string): Promise<void>
  /** Removes channels idle for longer than the TTL; returns how many. Runs by itself too. */
  sweep(): Promise<number>
  /** Releases connections, watchers and timers. */
  dispose(): Promise<void>
}

/** Throws BAD_CHANNEL_ID unless `id` is 1–64 letters, digits, `-` or `_`. */
export function checkChannelId(id: unknown): string {
  if (typeof id !== 'string' || !isChannelId(id)) {
    const shown = typeof id === 'string' ? JSON.stringify(id.length > 80 ? `${id.slice(0, 80)}…` : id) : typeof id
    throw new DuetError(
      'BAD_CHANNEL_ID',
      `Invalid channel id ${shown}: use 1-64 letters, digits, '-' or '_' (for example one returned by open(), or 'ch-1749312345678').`,
      { field: 'channel_id' },
    )
  }
  return id
}

/** Throws BAD_DIRECTION unless `direction` is one of the two queue names. */
export function checkDirection(direction: unknown): Direction {
  if (direction !== 'app-to-agent' && direction !== 'agent-to-app') {
    throw new DuetError('BAD_DIRECTION', `Invalid direction ${JSON.stringify(direction)}: use 'app-to-agent' or 'agent-to-app'.`)
  }
  return direction
}

/** A new channel id: `ch_` and 144 random bits in URL-safe base64 (27 characters). */
export function mintChannelId(): string {
  return `${MINTED_CHANNEL_PREFIX}${randomBytes(18).toString('base64url')}`
}

/** The error for a channel that was closed or expired. */
export function closedError(id: string): DuetError {
  return new DuetError('CHANNEL_CLOSED', `Channel '${id}' is closed or expired. Open a new channel (or pick a fresh id) and render the app again with it.`)
}
