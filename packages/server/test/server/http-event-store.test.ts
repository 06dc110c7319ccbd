import { describe, expect, it } from 'vitest'
import type { JSONRPCMessage } from '@modelcontextprotocol/server'
import { MemoryEventStore } from '../../src/server/event-store.js'

const note = (n: number): JSONRPCMessage => ({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: n } })

async function replay(store: MemoryEventStore, after: string): Promise<{ stream: string; sent: unknown[] }> {
  const sent: unknown[] = []
  const stream = await store.replayEventsAfter(after, {
    send: async (_id, message) => void sent.push((message as unknown as { params: { data: number } }).params.data),
  })
  return { stream, sent }
}

describe('the session mode event store (resumable SSE)', () => {
  it('replays what a stream sent after the last event the client saw, and only that stream', async () => {
    const store = new MemoryEventStore()
    const a1 = await store.storeEvent('a', note(1))
    await store.storeEvent('b', note(100))
    await store.storeEvent('a', note(2))
    await store.storeEvent('a', note(3))
    expect(await store.getStreamIdForEventId(a1)).toBe('a')
    expect(await replay(store, a1)).toEqual({ stream: 'a', sent: [2, 3] })
  })

  it('stays bounded: past its limit the oldest events go, and resuming from one of them fails clearly', async () => {
    const store = new MemoryEventStore(3)
    const first = await store.storeEvent('a', note(1))
    for (const n of [2, 3, 4]) await store.storeEvent('a', note(n))
    expect(await store.getStreamIdForEventId(first)).toBeUndefined()
    await expect(replay(store, first)).rejects.toThrow(/Unknown or expired event id/)
  })
})
