import { describe, expect, it } from 'vitest'
import type { JSONRPCMessage } from '@modelcontextprotocol/server'
import { MemoryEventStore, type SessionEventStore } from '../../src/server/event-store.js'

const note = (n: number): JSONRPCMessage => ({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: n } })

async function replay(store: SessionEventStore, after: string): Promise<{ stream: string; sent: unknown[] }> {
  const sent: unknown[] = []
  const stream = await store.replayEventsAfter(after, {
    send: async (_id, message) => void sent.push((message as unknown as { params: { data: number } }).params.data),
  })
  return { stream, sent }
}

describe('the session mode event store (resumable SSE)', () => {
  it('replays what a stream sent after the last event the client saw, and only that stream', async () => {
    const store = new MemoryEventStore().forSession('s1', 'sub:alice')
    const a1 = await store.storeEvent('a', note(1))
    await store.storeEvent('b', note(100))
    await store.storeEvent('a', note(2))
    await store.storeEvent('a', note(3))
    expect(await store.getStreamIdForEventId(a1)).toBe('a')
    expect(await replay(store, a1)).toEqual({ stream: 'a', sent: [2, 3] })
  })

  it("keeps sessions apart: the same stream id in two sessions are two streams, and one session's event id is unknown to the other", async () => {
    const shared = new MemoryEventStore()
    const alice = shared.forSession('s1', 'sub:alice')
    const bob = shared.forSession('s2', 'sub:bob')
    const b1 = await bob.storeEvent('_GET_stream', note(1))
    const a1 = await alice.storeEvent('_GET_stream', note(50))
    await bob.storeEvent('_GET_stream', note(2))
    expect(await replay(bob, b1)).toEqual({ stream: '_GET_stream', sent: [2] })
    expect(bob.has(a1)).toBe(false)
    expect(await bob.getStreamIdForEventId(a1)).toBeUndefined()
    await expect(replay(bob, a1)).rejects.toThrow(/Unknown or expired event id/)
  })

  it("stays bounded per subject: a subject's flood drops its own oldest events, not another subject's", async () => {
    const shared = new MemoryEventStore({ maxEvents: 4, maxEventsPerSubject: 3 })
    const alice = shared.forSession('s1', 'sub:alice')
    const bob = shared.forSession('s2', 'sub:bob')
    const kept = await alice.storeEvent('a', note(1))
    const first = await bob.storeEvent('b', note(1))
    for (const n of [2, 3, 4, 5]) await bob.storeEvent('b', note(n))
    expect(shared.size).toBe(4)
    expect(alice.has(kept)).toBe(true)
    expect(bob.has(first)).toBe(false)
    await expect(replay(bob, first)).rejects.toThrow(/Unknown or expired event id/)
  })

  it('forgets a session’s events when it closes', async () => {
    const shared = new MemoryEventStore()
    const alice = shared.forSession('s1', 'sub:alice')
    const id = await alice.storeEvent('a', note(1))
    alice.clear()
    expect(alice.has(id)).toBe(false)
    expect(shared.size).toBe(0)
  })
})
