import { randomBytes } from 'node:crypto'
import type { EventId, EventStore, JSONRPCMessage, StreamId } from '@modelcontextprotocol/server'
import { BoundedMap } from './bounded-map.js'

/** Bounds of the session mode's event store. */
export interface EventStoreLimits {
  /** Events kept over all sessions. Default 10 000. */
  maxEvents: number
  /** Events kept for one subject (over all its sessions). Default 1 000. */
  maxEventsPerSubject: number
}

export const DEFAULT_EVENT_LIMITS: EventStoreLimits = { maxEvents: 10_000, maxEventsPerSubject: 1_000 }

interface StoredEvent {
  session: string
  /** The SDK's stream id inside the session (its standalone stream has the same id in every session). */
  streamId: StreamId
  message: JSONRPCMessage
}

/** One session's view of the store: what the SDK transport of that session is given. */
export interface SessionEventStore extends EventStore {
  getStreamIdForEventId(eventId: EventId): Promise<StreamId | undefined>
  /** Whether `eventId` is an event of this session still kept (the same answer for another session's id as for a made-up one). */
  has(eventId: EventId): boolean
  /** Forgets the session's events, when it closes. */
  clear(): void
}

/**
 * The session mode's event store: each SSE message is kept, so a client whose stream broke reconnects with
 * `Last-Event-ID` and gets what it missed. Events are filed under their session: the SDK gives every
 * session's standalone stream the same id, so a store keyed by stream id alone would replay one user's
 * messages to another. A session sees only its own events, and another session's event id is as unknown
 * to it as one never issued. Bounded in memory per subject and in total (see {@link BoundedMap}): a
 * subject's flood of events drops its own oldest, and a client away for longer starts over.
 */
export class MemoryEventStore {
  readonly #events: BoundedMap<string, StoredEvent>

  constructor(limits: EventStoreLimits = DEFAULT_EVENT_LIMITS) {
    this.#events = new BoundedMap({ maxEntries: limits.maxEvents, maxPerGroup: limits.maxEventsPerSubject })
  }

  /** Events kept, over all sessions. */
  get size(): number {
    return this.#events.size
  }

  /** The store of one session of `subject` (the caller key: token subject, else client address). */
  forSession(session: string, subject: string): SessionEventStore {
    const events = this.#events
    // The key carries the session, so a lookup from another session never finds the event.
    const key = (eventId: EventId) => `${session}\u0000${eventId}`
    const mine = (eventId: EventId) => {
      const event = events.peek(key(eventId))
      return event?.session === session ? event : undefined
    }
    // A random tag per session (not its id) and a counter: ids are unique across sessions and tell
    // nothing about other sessions' traffic.
    const tag = randomBytes(6).toString('base64url')
    const idOf = (n: number) => `${tag}.${n}`
    const seqOf = (eventId: EventId) => Number(eventId.slice(tag.length + 1))
    let seq = 0
    return {
      async storeEvent(streamId, message) {
        const eventId = idOf(++seq)
        events.set(key(eventId), { session, streamId, message }, subject)
        return eventId
      },
      async getStreamIdForEventId(eventId) {
        return mine(eventId)?.streamId
      },
      has: (eventId) => mine(eventId) !== undefined,
      async replayEventsAfter(lastEventId, { send }) {
        const last = mine(lastEventId)
        if (!last) throw new Error('Unknown or expired event id; open a new stream without Last-Event-ID')
        const after = seqOf(lastEventId)
        const later: Array<[number, StoredEvent]> = []
        for (const [k, event] of events.entriesOf(subject)) {
          if (event.session !== session || event.streamId !== last.streamId) continue
          const n = seqOf(k.slice(session.length + 1))
          if (n > after) later.push([n, event])
        }
        later.sort((a, b) => a[0] - b[0])
        for (const [n, event] of later) await send(idOf(n), event.message)
        return last.streamId
      },
      clear() {
        for (const [k, event] of events.entriesOf(subject)) if (event.session === session) events.delete(k)
      },
    }
  }
}
