import { DuetError } from 'duetkit/protocol'
import type { OutgoingMessage } from './store.js'

/** Bounds every store enforces. */
export interface ChannelLimits {
  /** Largest `event` + JSON-encoded `data`, in bytes (default 1 MiB). */
  maxPayloadBytes: number
  /** Most messages waiting in one direction of one channel (default 10,000). */
  maxPending: number
  /** A channel untouched for this long expires and its messages are removed (default 24 h). */
  idleTtlMs: number
  /**
   * Most bytes of unacknowledged messages the whole store holds, every channel and direction together
   * (default 1 GiB). Acknowledged, closed and expired messages free their bytes.
   */
  maxStoreBytes: number
  /** Most open channels the store holds (default 100,000); closed and expired channels do not count. */
  maxChannels: number
  /**
   * Most bytes of unacknowledged messages the channels of one subject hold (default 64 MiB, 1/16 of the default
   * store): one user's unread mail cannot fill the store for the others.
   */
  maxStoreBytesPerSubject: number
  /** Most open channels one subject holds (default 1,000, 1/100 of the default store). */
  maxChannelsPerSubject: number
}

export const DEFAULT_LIMITS: Readonly<ChannelLimits> = Object.freeze({
  maxPayloadBytes: 1024 * 1024,
  maxPending: 10_000,
  idleTtlMs: 24 * 60 * 60 * 1000,
  maxStoreBytes: 1024 * 1024 * 1024,
  maxChannels: 100_000,
  maxStoreBytesPerSubject: 64 * 1024 * 1024,
  maxChannelsPerSubject: 1_000,
})

const MAX_EVENT_LENGTH = 256
// With the u flag a surrogate pair is one code point, so only an unpaired half matches.
const LONE_SURROGATE = /\p{Cs}/u
/** Default and ceiling for one drain, so a single poll result stays a sane size. */
export const DEFAULT_DRAIN_MAX = 100
export const DRAIN_MAX_CEILING = 100_000

/** Fills in defaults and checks each limit once, naming the bad option. */
export function resolveLimits(factory: string, partial: Partial<ChannelLimits> = {}): ChannelLimits {
  const limits = { ...DEFAULT_LIMITS, ...partial }
  for (const key of Object.keys(DEFAULT_LIMITS) as Array<keyof ChannelLimits>) {
    const value = limits[key]
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
      throw new DuetError('INVALID_OPTION', `${factory}: limits.${key} must be a positive integer, got ${String(value)}.`, { option: `limits.${key}` })
    }
  }
  return limits
}

/** A message checked against the limits, with `data` already serialised for storage. */
export interface EncodedMessage {
  event: string
  json: string
  /** UTF-8 bytes of `event` and `json` together: what the message costs against `maxStoreBytes`. */
  bytes: number
}

/** Validates and serialises a message; throws BAD_MESSAGE or TOO_LARGE. */
export function encodeMessage(message: OutgoingMessage, limits: ChannelLimits): EncodedMessage {
  if (message === null || typeof message !== 'object') {
    throw new DuetError('BAD_MESSAGE', 'A message must be an object { event, data }.')
  }
  const { event } = message
  if (typeof event !== 'string' || event.length === 0 || event.length > MAX_EVENT_LENGTH) {
    throw new DuetError('BAD_MESSAGE', `The event name must be a non-empty string of at most ${MAX_EVENT_LENGTH} characters.`)
  }
  // A lone surrogate has no UTF-8 form: stored, it would come back as U+FFFD, a different name than was sent.
  if (LONE_SURROGATE.test(event)) {
    throw new DuetError('BAD_MESSAGE', 'The event name contains a lone UTF-16 surrogate (half of a character); send well-formed text.', { field: 'event' })
  }
  checkDepth(message.data)
  let json: string | undefined
  try {
    json = JSON.stringify(message.data ?? null)
  } catch (err) {
    throw new DuetError(
      'BAD_MESSAGE',
      `The data is not JSON-serialisable (${(err as Error).message}); send plain objects, arrays, strings, numbers, booleans or null.`,
      undefined,
      { cause: err },
    )
  }
  if (json === undefined) {
    throw new DuetError('BAD_MESSAGE', 'The data is not JSON-serialisable (a function or symbol); send plain JSON values.')
  }
  const bytes = Buffer.byteLength(json) + Buffer.byteLength(event)
  if (bytes > limits.maxPayloadBytes) {
    throw new DuetError(
      'TOO_LARGE',
      `The message is ${bytes} bytes, over the ${limits.maxPayloadBytes}-byte limit. Split it into smaller messages or send a reference (a file path or URL) instead.`,
      { field: 'message', size: bytes, limit: limits.maxPayloadBytes },
    )
  }
  return { event, json, bytes }
}

/**
 * Deepest nesting of arrays and objects a message may have. The reply that delivers a message is serialised
 * deep inside the SDK's call stack, so a payload that `JSON.stringify` accepts here could still overflow there:
 * a fixed bound far below any stack limit keeps "accepted at send" meaning "deliverable".
 */
export const MAX_DEPTH = 64

/** Throws BAD_MESSAGE when `value` nests deeper than MAX_DEPTH; iterative, so hostile depth cannot overflow it. */
export function checkDepth(value: unknown): void {
  if (depthOver(value, MAX_DEPTH)) {
    throw new DuetError('BAD_MESSAGE', `The data nests more than ${MAX_DEPTH} levels of arrays or objects; flatten it.`, { field: 'data', limit: MAX_DEPTH })
  }
}

/** True when `value` has more than `limit` levels of nesting (checked without recursion). */
export function depthOver(value: unknown, limit: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]]
  // Shared objects are walked again only when reached deeper, so a cycle ends at the limit and a DAG stays cheap.
  const deepest = new Map<object, number>()
  while (stack.length) {
    const [v, d] = stack.pop()!
    if (v === null || typeof v !== 'object') continue
    if (d >= limit) return true
    if ((deepest.get(v) ?? -1) >= d) continue
    deepest.set(v, d)
    const children = Array.isArray(v) ? v : Object.values(v)
    for (const child of children) if (child !== null && typeof child === 'object') stack.push([child, d + 1])
  }
  return false
}

/**
 * Parses one stored message's data, or returns undefined when the row is unusable (corrupt bytes, or nesting
 * no reply could carry): such rows are set aside instead of failing the whole read.
 */
export function decodeData(json: unknown): { ok: true; data: unknown } | { ok: false } {
  if (typeof json !== 'string') return { ok: false }
  try {
    const data: unknown = JSON.parse(json)
    return depthOver(data, MAX_DEPTH) ? { ok: false } : { ok: true, data }
  } catch {
    return { ok: false }
  }
}

/** The error for a direction that already holds `maxPending` messages. */
export function queueFullError(id: string, limits: ChannelLimits): DuetError {
  return new DuetError(
    'QUEUE_FULL',
    `Channel '${id}' already has ${limits.maxPending} unread messages in this direction. The reader has stopped draining; wait for it or open a new channel.`,
  )
}

/** The quotas a channel store keeps: store-wide, and the same per subject. */
export type ChannelQuota = 'maxStoreBytes' | 'maxChannels' | 'maxStoreBytesPerSubject' | 'maxChannelsPerSubject'

const FLAG: Record<ChannelQuota, string> = {
  maxStoreBytes: '--max-store-bytes',
  maxChannels: '--max-channels',
  maxStoreBytesPerSubject: '--max-store-bytes-per-subject',
  maxChannelsPerSubject: '--max-channels-per-subject',
}

/**
 * LIMIT_REACHED for a store at one of its quotas, naming the quota, its limit and the current use, so the
 * operator knows which flag to raise and the caller knows what would free room.
 */
export function quotaError(quota: ChannelQuota, limit: number, used: number, adding?: number): DuetError {
  const whose = quota.endsWith('PerSubject') ? 'Your channels are' : 'The channel store is'
  const raise = `raise the limit (duet serve ${FLAG[quota]})`
  if (quota === 'maxChannels' || quota === 'maxChannelsPerSubject') {
    return new DuetError(
      'LIMIT_REACHED',
      `${whose} at the channel quota: ${used} open channels, limit ${limit} (${quota}). Close channels you no longer need with close_channel (idle ones expire by themselves), or ${raise}.`,
      { quota, limit, used },
    )
  }
  return new DuetError(
    'LIMIT_REACHED',
    `${whose} at the storage quota: unread messages take ${used} bytes and this one needs ${adding ?? 0} more, limit ${limit} bytes (${quota}). Readers free room by acknowledging what they read (poll with after) and closing channels they are done with; or ${raise}.`,
    { quota, limit, used, ...(adding !== undefined && { size: adding }) },
  )
}

/** Clamps a drain's `max` into [1, ceiling]; throws on nonsense. */
export function drainMax(max: number | undefined): number {
  if (max === undefined) return DEFAULT_DRAIN_MAX
  if (!Number.isInteger(max) || max < 1) throw new DuetError('INVALID_OPTION', `drain: max must be a positive integer, got ${String(max)}.`, { option: 'max' })
  return Math.min(max, DRAIN_MAX_CEILING)
}

/** Checks a wait in milliseconds; throws on nonsense. */
export function waitMs(value: number | undefined, what = 'waitMs'): number {
  if (value === undefined) return 0
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new DuetError('INVALID_OPTION', `${what} must be a non-negative number of milliseconds, got ${String(value)}.`, { option: what })
  }
  return value
}
