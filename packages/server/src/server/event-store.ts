import type { EventId, EventStore, JSONRPCMessage, StreamId } from '@modelcontextprotocol/server'

/**
 * The session mode's event store: each SSE message is kept, so a client whose stream broke reconnects with
 * `Last-Event-ID` and gets what it missed. In memory and bounded: the oldest events go first once `limit`
 * are held, so a client away for longer than that starts over instead of the server growing without end.
 */
export class MemoryEventStore implements EventStore {
  readonly #events = new Map<EventId, { streamId: StreamId; message: JSONRPCMessage }>()
  readonly #limit: number
  #seq = 0

  constructor(limit = 10_000) {
    this.#limit = limit
  }

  async storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    // The counter keeps ids in order and unique; the stream id in front lets a lookup work after eviction.
    const id = `${streamId}_${++this.#seq}`
    this.#events.set(id, { streamId, message })
    if (this.#events.size > this.#limit) this.#events.delete(this.#events.keys().next().value as EventId)
    return id
  }

  async getStreamIdForEventId(eventId: EventId): Promise<StreamId | undefined> {
    return this.#events.get(eventId)?.streamId
  }

  async replayEventsAfter(lastEventId: EventId, { send }: { send: (eventId: EventId, message: JSONRPCMessage) => Promise<void> }): Promise<StreamId> {
    const last = this.#events.get(lastEventId)
    if (!last) throw new Error(`Unknown or expired event id '${lastEventId}'; start a new stream`)
    let after = false
    for (const [id, event] of this.#events) {
      if (id === lastEventId) after = true
      else if (after && event.streamId === last.streamId) await send(id, event.message)
    }
    return last.streamId
  }
}
