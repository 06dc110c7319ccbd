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
}

export const DEFAULT_LIMITS: Readonly<ChannelLimits> = Object.freeze({
  maxPayloadBytes: 1024 * 1024,
  maxPending: 10_000,
  idleTtlMs: 24 * 60 * 60 * 1000,
})

const MAX_EVENT_LENGTH = 256
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
  return { event, json }
}

/** The error for a direction that already holds `maxPending` messages. */
export function queueFullError(id: string, limits: ChannelLimits): DuetError {
  return new DuetError(
    'QUEUE_FULL',
    `Channel '${id}' already has ${limits.maxPending} unread messages in this direction. The reader has stopped draining; wait for it or open a new channel.`,
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
