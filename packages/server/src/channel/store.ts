import { randomBytes } from 'node:crypto'
import { DuetError, isChannelId, MINTED_CHANNEL_PREFIX } from 'duetkit/protocol'
import { TYPO_HINT } from './untouched-hint.js'

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

/**
 * Channel store API (issue 11, acknowledged delivery) — the contract every backend (memory, SQLite, Redis) keeps:
 *
 * - `read(id, direction, { after, max, waitMs, signal })` returns the oldest pending messages WITHOUT removing
 *   them. With `after` (a message id this queue handed out, or '0'), it first acknowledges — removes — every
 *   message with an id up to and including `after`, then returns messages with ids above it. A reader that
 *   passes the last id it received gets each message exactly once; one whose reply was lost simply passes its
 *   old `after` again and gets the batch redelivered (at-least-once on the wire, no loss).
 * - `ack(id, direction, upTo)` acknowledges without reading (returns how many it removed).
 * - `drain(...)` atomically returns and removes a batch (concurrent drains never share a message): at-most-once if
 *   the caller then loses the result. Its `accept` hook runs before the removal; if it throws, the batch stays.
 * - Message ids are decimal strings, unique and increasing per queue (compare them as numbers), and never
 *   repeat, even after a Redis restart that lost its data (Redis ids follow the server clock). A cursor (`after`,
 *   `upTo`) past the newest id the channel handed out is INVALID_OPTION on every backend, and refused before a
 *   first use makes the channel. Ids count per channel (memory, SQLite) or follow the clock (Redis), never across
 *   channels: a user's ids tell nothing of how much others send.
 * - Rows that cannot be parsed (corruption) are set aside by `read`: removed from the queue, counted in
 *   `stats().setAside`, reported through `onSetAside`; their neighbours are delivered.
 * - A server-minted id (`ch_…`) that this store never minted fails with UNKNOWN_CHANNEL; agent-picked ids still
 *   open on first use.
 * - `read(..., { since })` returns only messages above that id and acknowledges nothing: a follower's view.
 * - `peek`/`waitForMail` count unacknowledged messages (what `read` would return without `after`).
 * - Quotas (`limits.maxStoreBytes`, `limits.maxChannels`) are store-wide, and each has a per-subject twin
 *   (`maxStoreBytesPerSubject`, `maxChannelsPerSubject`) charged to the channel's owner: the subject whose scope
 *   the key carries, else the `owner` the creating call passed (a client address's space without auth). A send
 *   past a byte quota, or a new channel past a channel quota, fails with LIMIT_REACHED naming the quota, its
 *   limit and the current use (idle channels past their TTL are expired first, so they never hold room), and
 *   nothing stored is lost; the refused send leaves nothing behind either (no channel made, no app mark). A
 *   full queue (QUEUE_FULL) is reported before the byte quotas. Acknowledging, closing and expiry free room.
 *   Calls with no owner on an unscoped key (a library or stdio caller) count against the store-wide quotas only.
 * - App-side calls (sending `app-to-agent`, reading or acknowledging `agent-to-app`) and `open` mark the
 *   channel as seen by an app (`appSeen`), so agent-side tools can flag an id no app has touched.
 */
export interface DrainOptions {
  /** At most this many messages (default 100). */
  max?: number
  /** Wait up to this long for mail when the queue is empty (default 0: return at once). */
  waitMs?: number
  /** Ends a wait early (returns what is there, usually nothing). */
  signal?: AbortSignal
  /** Whose quota a channel this call creates on first use is charged to (see {@link ownerOf}); ignored for scoped keys. */
  owner?: string
  /**
   * `drain` only: runs on the batch before it is removed; if it throws (e.g. the reply cannot be serialised),
   * the batch stays queued and the error propagates.
   */
  accept?: (messages: ChannelMessage[]) => void
}

/** Options of `read`: a drain's options plus the acknowledgement cursor. */
export interface ReadOptions extends DrainOptions {
  /** Acknowledge every message up to this id (inclusive) and return only later ones; '0' acknowledges nothing. */
  after?: string
  /** Return only messages with ids above this one, acknowledging nothing (for followers such as `duet wait --follow`). */
  since?: string
}

/**
 * Counters a store keeps, for the `channel_stats` tool: the whole store's, or with an owner only that owner's
 * (what one subject may see of a shared store).
 */
export interface ChannelStats {
  backend: 'sqlite' | 'memory' | 'redis'
  /** Stored messages that could not be parsed and were taken out of their queue (since the store was created). */
  setAside: number
  /** Bytes of unacknowledged messages held now (Redis counts each stored entry with its envelope). */
  bytes: number
  /** Open channels now. */
  channels: number
  /** The quotas these counts are measured against: store-wide, or the per-subject ones for an owner. */
  limits: { bytes: number; channels: number }
}

/** What a store reports when it sets a row aside: which queue lost how many unreadable messages. */
export interface SetAsideEvent {
  channelId: string
  direction: Direction
  count: number
}

/** Two ordered queues per channel, shared by every process that opens the same store. */
export interface ChannelStore {
  /** Which backend this is, for messages and diagnostics. */
  readonly backend: 'sqlite' | 'memory' | 'redis'
  /**
   * Mints a new channel with an unguessable id and returns the id. `scope` (from `scopeChannelStore`) mints it
   * in a subject's space: the id returned is then that space's store key.
   */
  open(scope?: string, owner?: string): Promise<string>
  /** Appends a message; resolves with its id once it is durably stored. `owner`: see {@link DrainOptions.owner}. */
  send(id: string, direction: Direction, message: OutgoingMessage, owner?: string): Promise<string>
  /** Removes and returns the oldest messages, oldest first (`read` then `ack` at once: at-most-once). */
  drain(id: string, direction: Direction, options?: DrainOptions): Promise<ChannelMessage[]>
  /** Returns the oldest pending messages without removing them; `after` acknowledges up to that id first. */
  read(id: string, direction: Direction, options?: ReadOptions): Promise<ChannelMessage[]>
  /** Removes every message up to and including `upTo`; returns how many. */
  ack(id: string, direction: Direction, upTo: string, owner?: string): Promise<number>
  /** Counters for diagnostics: the store's (no owner, or ''), or with `owner` (from {@link ownerOf}) only that owner's. */
  stats(owner?: string): Promise<ChannelStats>
  /**
   * True once an app-side call used the channel (a send to the agent, a read of the agent's messages) or the
   * store minted it (open_channel, a display tool); false for an id only the agent has used, often a typo.
   */
  appSeen(id: string): Promise<boolean>
  /** Calls `listener` whenever this store sets unreadable rows aside; returns the unsubscribe function. */
  onSetAside(listener: (event: SetAsideEvent) => void): () => void
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

/**
 * A subject's store key: `s` + 22 URL-safe characters, a dot, and the id its owner uses. Public ids never
 * contain a dot, so no caller can name a key of someone else's space (see `subject-scope.ts`).
 */
const SCOPED_KEY = /^s[A-Za-z0-9_-]{22}\./

/** An owner as stores keep it: '' (no one in particular), or `s`/`a` and 22 URL-safe characters (a subject's or an address's space). */
const OWNER = /^(|[sa][A-Za-z0-9_-]{22})$/

/**
 * Whose quota a channel is charged to: the subject whose scope its key carries, else `given` (a client
 * address's space, from `addressScope`), else '' (counted against the store-wide quotas only).
 */
export function ownerOf(key: string, given?: string): string {
  if (SCOPED_KEY.test(key)) return key.slice(0, 23)
  if (given === undefined) return ''
  if (typeof given !== 'string' || !OWNER.test(given)) {
    throw new DuetError('INVALID_OPTION', `owner must be a scope from subjectScope() or addressScope(), got ${JSON.stringify(given)}.`, { option: 'owner' })
  }
  return given
}

/** The id a store key stands for: the key itself, or the part after a subject's scope. */
export function publicPart(key: string): string {
  return SCOPED_KEY.test(key) ? key.slice(24) : key
}

/**
 * Throws BAD_CHANNEL_ID unless `id` is 1–64 letters, digits, `-` or `_` — or such an id in a subject's
 * scope, as `scopeChannelStore` hands the backends (tools never pass a caller's id through unscoped).
 */
export function checkChannelId(id: unknown): string {
  return typeof id === 'string' && isChannelId(publicPart(id)) ? id : checkPublicChannelId(id)
}

/** Throws BAD_CHANNEL_ID unless `id` is 1–64 letters, digits, `-` or `_`: an id a caller may pass (never a store key). */
export function checkPublicChannelId(id: unknown): string {
  if (typeof id !== 'string' || !isChannelId(id)) {
    const shown = typeof id === 'string' ? JSON.stringify(id.length > 80 ? `${id.slice(0, 80)}…` : id) : typeof id
    throw new DuetError(
      'BAD_CHANNEL_ID',
      `Invalid channel id ${shown}: use 1-64 letters, digits, '-' or '_' (for example the channel_id that open_channel or a display tool returned, or 'ch-1749312345678').`,
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

/** A new channel id: `ch_` and 144 random bits in URL-safe base64 (27 characters), in `scope` when given. */
export function mintChannelId(scope?: string): string {
  const id = `${MINTED_CHANNEL_PREFIX}${randomBytes(18).toString('base64url')}`
  if (scope === undefined) return id
  if (typeof scope !== 'string' || !SCOPED_KEY.test(`${scope}.`)) {
    throw new DuetError('INVALID_OPTION', `open: scope must be a subject scope from subjectScope(), got ${JSON.stringify(scope)}.`, { option: 'scope' })
  }
  return `${scope}.${id}`
}

/** The error for a channel that was closed or expired. */
export function closedError(id: string): DuetError {
  return new DuetError(
    'CHANNEL_CLOSED',
    `Channel '${id}' is closed or expired. Open a new channel with open_channel (or pick a fresh id) and give that id to the view: render it again with a display tool that returns a channel_id, or build the id into the view's code.`,
  )
}

/** True for ids only a store mints (`ch_…`): those must never be created on first use. */
export function isMintedId(id: string): boolean {
  return publicPart(id).startsWith(MINTED_CHANNEL_PREFIX)
}

/** The error for a minted id this store never minted. */
export function unknownChannelError(id: string, backend: string): DuetError {
  return new DuetError(
    'UNKNOWN_CHANNEL',
    // A typo in a real id looks the same as an id from another store; the typo is the likelier, so it comes first.
    `Channel '${id}' looks minted by a Duet channel store, but this store (${backend}) has no such channel. The likeliest cause: ${TYPO_HINT} If the id is exactly the one returned, the agent and the app are using different stores: another data folder (--data-dir, DUET_DATA_DIR) or another Redis, or the Redis that minted it lost its data. Point both at the same store, or open a new channel.`,
    { field: 'channel_id' },
  )
}

/** Checks an acknowledgement cursor: a decimal message id, or '0' for none. Returns it as a number. */
export function checkAfter(after: unknown): number {
  if (typeof after !== 'string' || !/^(0|[1-9][0-9]{0,15})$/.test(after) || !Number.isSafeInteger(Number(after))) {
    throw new DuetError('INVALID_OPTION', `after must be a message id (a decimal string such as "42", or "0"), got ${JSON.stringify(after)}.`, {
      option: 'after',
    })
  }
  return Number(after)
}

/** The error for an acknowledgement past the newest id the queue has minted (it would drop unread mail). */
export function afterTooLarge(after: string): DuetError {
  return new DuetError(
    'INVALID_OPTION',
    `after "${after}" is beyond the newest message id of this queue: pass the id of the last message you received (or leave after out).`,
    { option: 'after' },
  )
}
