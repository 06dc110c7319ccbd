import { setMaxListeners } from 'node:events'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { DuetError } from 'duetkit/protocol'
import type { ChannelLimits, ChannelStore } from '../../src/channel/index.js'
import { Bell, bellKey } from '../../src/channel/wake.js'
import { addressScope, scopeChannelStore } from '../../src/channel/subject-scope.js'

/**
 * Opens a store on the backend under test. Every call in one suite must reach the same shared data
 * (same folder, same Redis), so two stores behave like two server processes.
 */
export type StoreFactory = (limits?: Partial<ChannelLimits>) => Promise<ChannelStore>

let counter = 0
/** A fresh agent-style channel id, unique across the run. */
export const freshId = (prefix = 'ch') => `${prefix}-${Date.now()}-${process.pid}-${counter++}`

/** Awaits `promise` and returns the DuetError it rejects with (fails if it resolves). */
export async function channelError(promise: Promise<unknown>): Promise<DuetError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(err, 'expected a DuetError').toBeInstanceOf(DuetError)
  return err as DuetError
}

const BAD_IDS: unknown[] = ['', '../etc/passwd', 'a/b', 'a b', 'ch.1', 'x'.repeat(65), 'é', '..', 'a\u0000b', 42, null, undefined]

/** The behaviour every ChannelStore backend must share. */
export function describeChannelStore(name: string, factory: StoreFactory) {
  describe(`ChannelStore conformance: ${name}`, () => {
    const opened: ChannelStore[] = []
    const make: StoreFactory = async (limits) => {
      const store = await factory(limits)
      opened.push(store)
      return store
    }
    afterAll(async () => {
      await Promise.all(opened.map((s) => s.dispose()))
    })

    it('mints distinct, URL-safe ids of at least 128 random bits', async () => {
      const store = await make()
      const ids = await Promise.all(Array.from({ length: 200 }, () => store.open()))
      expect(new Set(ids).size).toBe(200)
      for (const id of ids) {
        expect(id).toMatch(/^[A-Za-z0-9_-]+$/)
        expect(id.length * 6).toBeGreaterThanOrEqual(128)
      }
      expect(await store.peek(ids[0], 'app-to-agent')).toBe(0)
    })

    it('hands out each message once, in order, with id, event, data and at', async () => {
      const store = await make()
      const id = await store.open()
      const before = Date.now()
      const ids: string[] = []
      for (let i = 0; i < 5; i++) ids.push(await store.send(id, 'app-to-agent', { event: 'ask', data: { i, text: `q${i}` } }))
      expect(new Set(ids).size).toBe(5)
      const got = await store.drain(id, 'app-to-agent')
      expect(got.map((m) => m.data)).toEqual([0, 1, 2, 3, 4].map((i) => ({ i, text: `q${i}` })))
      expect(got.map((m) => m.id)).toEqual(ids)
      for (const m of got) {
        expect(m.event).toBe('ask')
        expect(m.at).toBeGreaterThanOrEqual(before - 1000)
        expect(m.at).toBeLessThanOrEqual(Date.now() + 1000)
      }
      expect(await store.drain(id, 'app-to-agent')).toEqual([])
    })

    it('keeps every JSON shape of data, and null for missing data', async () => {
      const store = await make()
      const id = await store.open()
      const values = [{ a: [1, { b: 'c' }] }, [1, 2], 'a "quoted" string\n', 3.5, true, null]
      for (const data of values) await store.send(id, 'agent-to-app', { event: 'v', data })
      await store.send(id, 'agent-to-app', { event: 'none' })
      const got = await store.drain(id, 'agent-to-app')
      expect(got.map((m) => m.data)).toEqual([...values, null])
    })

    it('keeps directions and channels apart', async () => {
      const store = await make()
      const [a, b] = [await store.open(), await store.open()]
      await store.send(a, 'app-to-agent', { event: 'a-up' })
      await store.send(a, 'agent-to-app', { event: 'a-down' })
      await store.send(b, 'app-to-agent', { event: 'b-up' })
      expect((await store.drain(a, 'agent-to-app')).map((m) => m.event)).toEqual(['a-down'])
      expect(await store.peek(a, 'app-to-agent')).toBe(1)
      expect(await store.peek(b, 'app-to-agent')).toBe(1)
      expect((await store.drain(a, 'app-to-agent')).map((m) => m.event)).toEqual(['a-up'])
      expect((await store.drain(b, 'app-to-agent')).map((m) => m.event)).toEqual(['b-up'])
    })

    it('drains at most max, leaving the rest in order', async () => {
      const store = await make()
      const id = await store.open()
      for (let i = 0; i < 7; i++) await store.send(id, 'app-to-agent', { event: 'n', data: i })
      expect((await store.drain(id, 'app-to-agent', { max: 3 })).map((m) => m.data)).toEqual([0, 1, 2])
      expect(await store.peek(id, 'app-to-agent')).toBe(4)
      expect((await store.drain(id, 'app-to-agent', { max: 10 })).map((m) => m.data)).toEqual([3, 4, 5, 6])
      await expect(store.drain(id, 'app-to-agent', { max: 0 })).rejects.toMatchObject({ code: 'INVALID_OPTION', data: { option: 'max' } })
    })

    it('opens an id the agent picked on first use', async () => {
      const store = await make()
      const id = `ch-${Date.now()}${counter++}`
      expect(await store.peek(id, 'app-to-agent')).toBe(0)
      await store.send(id, 'agent-to-app', { event: 'hello' })
      expect((await store.drain(id, 'agent-to-app')).map((m) => m.event)).toEqual(['hello'])
      const longest = 'A_z-9'.repeat(12) + `${counter++}`.padStart(4, '0')
      expect(longest.length).toBe(64)
      await store.send(longest, 'app-to-agent', { event: 'ok' })
      expect(await store.peek(longest, 'app-to-agent')).toBe(1)
    })

    it('refuses malformed ids on every call with BAD_CHANNEL_ID', async () => {
      const store = await make()
      for (const bad of BAD_IDS) {
        const id = bad as string
        expect((await channelError(store.send(id, 'app-to-agent', { event: 'x' }))).code).toBe('BAD_CHANNEL_ID')
        expect((await channelError(store.drain(id, 'app-to-agent'))).code).toBe('BAD_CHANNEL_ID')
        expect((await channelError(store.peek(id, 'agent-to-app'))).code).toBe('BAD_CHANNEL_ID')
        expect((await channelError(store.close(id))).code).toBe('BAD_CHANNEL_ID')
      }
      const err = await channelError(store.send('../../x', 'app-to-agent', { event: 'x' }))
      expect(err.message).toMatch(/letters, digits/)
      expect((await channelError(store.send('ok', 'sideways' as never, { event: 'x' }))).code).toBe('BAD_DIRECTION')
    })

    it('counts with peek without consuming', async () => {
      const store = await make()
      const id = await store.open()
      await store.send(id, 'app-to-agent', { event: 'a' })
      await store.send(id, 'app-to-agent', { event: 'b' })
      expect(await store.peek(id, 'app-to-agent')).toBe(2)
      expect(await store.peek(id, 'app-to-agent')).toBe(2)
      expect(await store.drain(id, 'app-to-agent')).toHaveLength(2)
      expect(await store.peek(id, 'app-to-agent')).toBe(0)
    })

    it('fails every call on a closed channel with CHANNEL_CLOSED and drops its messages', async () => {
      const store = await make()
      const other = await make()
      const id = await store.open()
      await store.send(id, 'app-to-agent', { event: 'left behind' })
      await store.close(id)
      for (const call of [
        () => store.send(id, 'agent-to-app', { event: 'x' }),
        () => store.drain(id, 'app-to-agent'),
        () => store.peek(id, 'app-to-agent'),
        () => other.drain(id, 'app-to-agent'),
        () => other.send(id, 'app-to-agent', { event: 'x' }),
      ]) {
        const err = await channelError(call())
        expect(err.code).toBe('CHANNEL_CLOSED')
        expect(err.message).toMatch(/new channel/)
      }
      // An agent-picked id that gets closed stays closed too.
      const picked = freshId()
      await store.send(picked, 'app-to-agent', { event: 'x' })
      await store.close(picked)
      expect((await channelError(store.send(picked, 'app-to-agent', { event: 'x' }))).code).toBe('CHANNEL_CLOSED')
    })

    it('refuses a payload over the limit with TOO_LARGE and keeps the channel working', async () => {
      const store = await make()
      const id = await store.open()
      const limit = 1024 * 1024
      // JSON of a string is the string plus two quotes; the event name counts too.
      const fits = 'x'.repeat(limit - 2 - 1)
      await store.send(id, 'app-to-agent', { event: 'e', data: fits })
      const err = await channelError(store.send(id, 'app-to-agent', { event: 'e', data: `${fits}x` }))
      expect(err.code).toBe('TOO_LARGE')
      expect(err.data).toEqual({ field: 'message', size: 1048577, limit: 1048576 })
      expect(err.message).toMatch(/1048577 bytes.*1048576/)
      const got = await store.drain(id, 'app-to-agent')
      expect(got).toHaveLength(1)
      expect((got[0].data as string).length).toBe(fits.length)
      const small = await make({ maxPayloadBytes: 100 })
      const smallId = await small.open()
      expect((await channelError(small.send(smallId, 'app-to-agent', { event: 'e', data: 'y'.repeat(100) }))).code).toBe('TOO_LARGE')
      await small.send(smallId, 'app-to-agent', { event: 'e', data: 'ok' })
      expect(await small.peek(smallId, 'app-to-agent')).toBe(1)
    })

    it('read leaves messages queued until acknowledged: a reader whose reply was lost gets the batch again', async () => {
      const store = await make()
      const other = await make()
      const id = await store.open()
      const sent: string[] = []
      for (let i = 0; i < 5; i++) sent.push(await store.send(id, 'app-to-agent', { event: 'm', data: i }))
      const first = await store.read(id, 'app-to-agent', { max: 3 })
      expect(first.map((m) => m.data)).toEqual([0, 1, 2])
      // The reply carrying `first` never arrived: the reader asks again from where it was ('0').
      const again = await other.read(id, 'app-to-agent', { max: 3, after: '0' })
      expect(again.map((m) => m.id)).toEqual(first.map((m) => m.id))
      expect(await store.peek(id, 'app-to-agent')).toBe(5)
      // Now it has them and acknowledges by passing the last id: it sees only later ones, never one twice.
      const next = await store.read(id, 'app-to-agent', { after: again[2].id })
      expect(next.map((m) => m.data)).toEqual([3, 4])
      expect(await other.peek(id, 'app-to-agent')).toBe(2)
      expect(await store.read(id, 'app-to-agent', { after: next[1].id })).toEqual([])
      expect(await store.peek(id, 'app-to-agent')).toBe(0)
      expect(sent.map(Number)).toEqual([...sent.map(Number)].sort((a, b) => a - b))
    })

    it('ack removes up to an id, and refuses a cursor past the newest id or not an id with INVALID_OPTION', async () => {
      const store = await make()
      const id = await store.open()
      const ids: string[] = []
      for (let i = 0; i < 4; i++) ids.push(await store.send(id, 'agent-to-app', { event: 'm', data: i }))
      expect(await store.ack(id, 'agent-to-app', ids[1])).toBe(2)
      expect(await store.ack(id, 'agent-to-app', ids[1])).toBe(0)
      for (const bad of [String(Number(ids[3]) + 1000), '-1', '1.5', 'abc', '', '01']) {
        const err = await channelError(store.ack(id, 'agent-to-app', bad))
        expect(err.code).toBe('INVALID_OPTION')
        expect(err.message).toMatch(/after/)
        expect((await channelError(store.read(id, 'agent-to-app', { after: bad }))).code).toBe('INVALID_OPTION')
      }
      // Nothing was lost to the refused cursors.
      expect((await store.drain(id, 'agent-to-app')).map((m) => m.data)).toEqual([2, 3])
      // Message ids keep growing after the queue emptied.
      const later = await store.send(id, 'agent-to-app', { event: 'm' })
      expect(Number(later)).toBeGreaterThan(Number(ids[3]))
    })

    it("refuses as a cursor an id past this channel's newest, even one another channel handed out since", async () => {
      const store = await make()
      const mine = await store.open()
      const busy = await store.open()
      await store.send(mine, 'agent-to-app', { event: 'm', data: 'keep me' })
      let theirs = ''
      for (let i = 0; i < 3; i++) theirs = await store.send(busy, 'agent-to-app', { event: 'm', data: i })
      // An agent that mixed up its channels: the other channel's newest id is no cursor of this one.
      expect((await channelError(store.ack(mine, 'agent-to-app', theirs))).code).toBe('INVALID_OPTION')
      expect((await channelError(store.read(mine, 'agent-to-app', { after: theirs }))).code).toBe('INVALID_OPTION')
      expect((await store.read(mine, 'agent-to-app')).map((m) => m.data)).toEqual(['keep me'])
    })

    it('read with since follows by id and acknowledges nothing; a waiting follower wakes on the next send', async () => {
      const store = await make()
      const other = await make()
      const id = await store.open()
      const a = await store.send(id, 'app-to-agent', { event: 'a' })
      const b = await store.send(id, 'app-to-agent', { event: 'b' })
      expect((await store.read(id, 'app-to-agent', { since: '0' })).map((m) => m.event)).toEqual(['a', 'b'])
      expect((await store.read(id, 'app-to-agent', { since: a })).map((m) => m.event)).toEqual(['b'])
      expect(await store.read(id, 'app-to-agent', { since: b })).toEqual([])
      const waiting = store.read(id, 'app-to-agent', { since: b, waitMs: 5_000 })
      // Lets the read start waiting, so the send wakes it (were it sent first, the read would still find it).
      await new Promise((r) => setTimeout(r, 50))
      await other.send(id, 'app-to-agent', { event: 'c' })
      expect((await waiting).map((m) => m.event)).toEqual(['c'])
      expect(await store.peek(id, 'app-to-agent')).toBe(3)
    })

    it('waitForMail and peek count unacknowledged mail, including mail already read', async () => {
      const store = await make()
      const id = await store.open()
      await store.send(id, 'app-to-agent', { event: 'm' })
      const got = await store.read(id, 'app-to-agent')
      expect(got).toHaveLength(1)
      expect(await store.waitForMail(id, 'app-to-agent', 0)).toBe(1)
      await store.ack(id, 'app-to-agent', got[0].id)
      expect(await store.waitForMail(id, 'app-to-agent', 0)).toBe(0)
    })

    it('refuses data nested deeper than its delivery can carry with BAD_MESSAGE, and keeps the neighbours', async () => {
      const store = await make()
      const id = await store.open()
      const nest = (depth: number) => {
        let v: unknown = 1
        for (let i = 0; i < depth; i++) v = [v]
        return v
      }
      await store.send(id, 'agent-to-app', { event: 'before' })
      const err = await channelError(store.send(id, 'agent-to-app', { event: 'poison', data: nest(4100) }))
      expect(err.code).toBe('BAD_MESSAGE')
      expect(err.message).toMatch(/nests more than \d+ levels/)
      await store.send(id, 'agent-to-app', { event: 'ok', data: nest(60) })
      await store.send(id, 'agent-to-app', { event: 'after' })
      expect((await store.drain(id, 'agent-to-app')).map((m) => m.event)).toEqual(['before', 'ok', 'after'])
    })

    it('refuses a minted id this store never minted with UNKNOWN_CHANNEL, on every call', async () => {
      const store = await make()
      const foreign = 'ch_AAAAAAAAAAAAAAAAAAAAAAAAAAA'
      for (const call of [
        () => store.send(foreign, 'agent-to-app', { event: 'x' }),
        () => store.read(foreign, 'app-to-agent'),
        () => store.drain(foreign, 'app-to-agent'),
        () => store.peek(foreign, 'app-to-agent'),
        () => store.waitForMail(foreign, 'app-to-agent', 0),
        () => store.ack(foreign, 'app-to-agent', '0'),
      ]) {
        const err = await channelError(call())
        expect(err.code).toBe('UNKNOWN_CHANNEL')
        expect(err.message).toMatch(/data folder|another Redis|different stores/)
      }
      // An agent-picked id still opens on first use.
      const picked = freshId()
      await store.send(picked, 'agent-to-app', { event: 'x' })
      expect(await store.peek(picked, 'agent-to-app')).toBe(1)
    })

    it('refuses data that is not JSON and bad event names with BAD_MESSAGE', async () => {
      const store = await make()
      const id = await store.open()
      const circular: Record<string, unknown> = {}
      circular.self = circular
      for (const data of [circular, { n: 10n }, () => 1, Symbol('s')]) {
        expect((await channelError(store.send(id, 'app-to-agent', { event: 'e', data }))).code).toBe('BAD_MESSAGE')
      }
      for (const event of ['', 42, undefined, 'e'.repeat(257)]) {
        expect((await channelError(store.send(id, 'app-to-agent', { event: event as string, data: 1 }))).code).toBe('BAD_MESSAGE')
      }
      expect((await channelError(store.send(id, 'app-to-agent', null as never))).code).toBe('BAD_MESSAGE')
      expect(await store.peek(id, 'app-to-agent')).toBe(0)
    })

    it('refuses sends past maxPending with QUEUE_FULL until the reader drains', async () => {
      const store = await make({ maxPending: 5 })
      const id = await store.open()
      for (let i = 0; i < 5; i++) await store.send(id, 'app-to-agent', { event: 'n', data: i })
      const err = await channelError(store.send(id, 'app-to-agent', { event: 'n', data: 5 }))
      expect(err.code).toBe('QUEUE_FULL')
      await store.send(id, 'agent-to-app', { event: 'other direction is separate' })
      expect(await store.drain(id, 'app-to-agent', { max: 2 })).toHaveLength(2)
      await store.send(id, 'app-to-agent', { event: 'n', data: 5 })
      expect((await store.drain(id, 'app-to-agent')).map((m) => m.data)).toEqual([2, 3, 4, 5])
    })

    it('long-polls: a waiting drain wakes when another store instance sends', async () => {
      const reader = await make()
      const writer = await make()
      const id = await reader.open()
      const started = Date.now()
      const waiting = reader.drain(id, 'agent-to-app', { waitMs: 20_000 })
      setTimeout(() => void writer.send(id, 'agent-to-app', { event: 'late', data: 1 }), 50)
      const got = await waiting
      expect(got.map((m) => m.event)).toEqual(['late'])
      expect(Date.now() - started).toBeLessThan(15_000)
      expect(await reader.peek(id, 'agent-to-app')).toBe(0)
    })

    it('a send from another store instance wakes only the waiters of the queue it touched, none of 200 idle ones', async () => {
      const reader = await make()
      const writer = await make()
      const id = await reader.open()
      const idle = new AbortController()
      setMaxListeners(250, idle.signal)
      const others = Array.from({ length: 200 }, () => reader.drain(freshId('idle'), 'app-to-agent', { waitMs: 20_000, signal: idle.signal }))
      const waiting = reader.drain(id, 'agent-to-app', { waitMs: 20_000 })
      // Lets the 201 reads register their waits (nothing outside the store shows it) before the send.
      await new Promise((r) => setTimeout(r, 300))
      // Rings are the wake-ups: each one makes its waiters query the store again, so idle waiters must get none.
      const ring = vi.spyOn(Bell.prototype, 'ring')
      const ringAll = vi.spyOn(Bell.prototype, 'ringAll')
      try {
        await writer.send(id, 'agent-to-app', { event: 'only-this-queue' })
        expect((await waiting).map((m) => m.event)).toEqual(['only-this-queue'])
        // Past the SQLite store's change poll too, so a late ring would be seen.
        await new Promise((r) => setTimeout(r, 600))
        expect(ringAll).not.toHaveBeenCalled()
        expect(new Set(ring.mock.calls.map(([key]) => key))).toEqual(new Set([bellKey(id, 'agent-to-app')]))
      } finally {
        ring.mockRestore()
        ringAll.mockRestore()
        idle.abort()
      }
      expect((await Promise.all(others)).flat()).toEqual([])
    })

    it('returns an empty list when the wait runs out, and when the signal aborts', async () => {
      const store = await make()
      const id = await store.open()
      const started = Date.now()
      expect(await store.drain(id, 'app-to-agent', { waitMs: 150 })).toEqual([])
      expect(Date.now() - started).toBeGreaterThanOrEqual(140)
      const abort = new AbortController()
      const waiting = store.drain(id, 'app-to-agent', { waitMs: 60_000, signal: abort.signal })
      abort.abort()
      expect(await waiting).toEqual([])
      await expect(store.drain(id, 'app-to-agent', { waitMs: -1 })).rejects.toMatchObject({ code: 'INVALID_OPTION', data: { option: 'waitMs' } })
    })

    it('waitForMail reports the count as soon as mail arrives and consumes nothing', async () => {
      const watcher = await make()
      const writer = await make()
      const id = await watcher.open()
      const waiting = watcher.waitForMail(id, 'app-to-agent', 20_000)
      setTimeout(() => void writer.send(id, 'app-to-agent', { event: 'ask' }), 50)
      expect(await waiting).toBe(1)
      expect(await writer.peek(id, 'app-to-agent')).toBe(1)
      expect(await watcher.waitForMail(id, 'agent-to-app', 100)).toBe(0)
      expect(await writer.drain(id, 'app-to-agent')).toHaveLength(1)
    })

    it('a waiting drain fails with CHANNEL_CLOSED when the channel is closed under it', async () => {
      const store = await make()
      const other = await make()
      const id = await store.open()
      const waiting = store.drain(id, 'app-to-agent', { waitMs: 20_000 }).catch((e: unknown) => e)
      setTimeout(() => void other.close(id), 50)
      expect(await waiting).toMatchObject({ code: 'CHANNEL_CLOSED' })
    })

    it('never loses or repeats a message under concurrent sends and drains', async () => {
      const stores = [await make(), await make(), await make()]
      const id = await stores[0].open()
      const total = 300
      const sends = Array.from({ length: total }, (_, i) => stores[i % 3].send(id, 'app-to-agent', { event: 'n', data: i }))
      const seen: unknown[] = []
      const drains = (async () => {
        while (seen.length < total) {
          const got = await stores[seen.length % 3].drain(id, 'app-to-agent', { waitMs: 5_000, max: 17 })
          seen.push(...got.map((m) => m.data))
          if (got.length === 0) break
        }
      })()
      await Promise.all(sends)
      await drains
      expect(seen.length).toBe(total)
      expect(new Set(seen).size).toBe(total)
    })

    it('expires idle channels: their messages go and later calls fail with CHANNEL_CLOSED', async () => {
      const store = await make({ idleTtlMs: 300 })
      const id = await store.open()
      await store.send(id, 'app-to-agent', { event: 'stale' })
      // Expiry is about wall-clock time, so this test has to let time pass.
      await new Promise((r) => setTimeout(r, 700))
      await store.sweep()
      expect((await channelError(store.peek(id, 'app-to-agent'))).code).toBe('CHANNEL_CLOSED')
      expect((await channelError(store.send(id, 'app-to-agent', { event: 'x' }))).code).toBe('CHANNEL_CLOSED')
      const live = await store.open()
      expect(await store.peek(live, 'app-to-agent')).toBe(0)
    })

    it('byte quota: a send past maxStoreBytes is LIMIT_REACHED naming quota, limit and use, losing nothing; acknowledging and closing free room', async () => {
      // The quota is store-wide and the suite's stores share their data (memory stores with limits do not), so the
      // limit sits just above the use a store opened the same way sees.
      const used = (await (await make({ maxPending: 10_000 })).stats()).bytes
      const limit = used + 5_000
      const store = await make({ maxStoreBytes: limit })
      const id = freshId('quota')
      const payload = 'x'.repeat(900)
      const sent: string[] = []
      let refused: DuetError | undefined
      for (let i = 0; i < 20 && !refused; i++) {
        try {
          sent.push(await store.send(id, 'app-to-agent', { event: 'fill', data: { i, payload } }))
        } catch (err) {
          refused = err as DuetError
        }
      }
      expect(sent.length).toBeGreaterThanOrEqual(3)
      expect(sent.length).toBeLessThanOrEqual(5)
      expect(refused?.code).toBe('LIMIT_REACHED')
      expect(refused?.message).toMatch(/maxStoreBytes/)
      expect(refused?.message).toContain(String(limit))
      expect(refused?.data).toMatchObject({ quota: 'maxStoreBytes', limit })
      const shownUse = (refused!.data as { used: number }).used
      expect(shownUse).toBeGreaterThan(limit - 2_000)
      expect(shownUse).toBeLessThanOrEqual(limit)
      expect((await store.stats()).bytes).toBe(shownUse)
      // Nothing already stored was lost by the refusal.
      const got = await store.read(id, 'app-to-agent', { after: '0' })
      expect(got.map((m) => m.id)).toEqual(sent)
      // Acknowledging frees room: the refused send now goes through.
      await store.ack(id, 'app-to-agent', sent.at(-1)!)
      expect((await store.stats()).bytes).toBe(used)
      const again = await store.send(id, 'app-to-agent', { event: 'fill', data: { payload } })
      expect(await store.peek(id, 'app-to-agent')).toBe(1)
      // Closing frees room too.
      expect(again).toMatch(/^\d+$/)
      await store.close(id)
      expect((await store.stats()).bytes).toBe(used)
    })

    it('a send refused for a quota leaves nothing behind (no new channel, no app mark), and a full queue is said before the byte quota', async () => {
      const store = await make({ maxStoreBytesPerSubject: 300, maxPending: 1 })
      const who = scopeChannelStore(store, freshId('subject'))
      const big = { event: 'x', data: 'y'.repeat(400) }
      // The channel this first use would have made is not made.
      const refused = await channelError(who.send(freshId('refused'), 'app-to-agent', big))
      expect(refused.data).toMatchObject({ quota: 'maxStoreBytesPerSubject' })
      expect((await who.stats()).channels).toBe(0)
      // A channel only the agent has used is not marked as an app's by the app's refused send.
      const agentOnly = freshId('agent')
      await who.send(agentOnly, 'agent-to-app', { event: 'hi' })
      expect((await channelError(who.send(agentOnly, 'app-to-agent', big))).code).toBe('LIMIT_REACHED')
      expect(await who.appSeen(agentOnly)).toBe(false)
      expect((await who.stats()).channels).toBe(1)
      // Full and over the quota at once: the full queue is what the sender hears, on every backend.
      expect((await channelError(who.send(agentOnly, 'agent-to-app', big))).code).toBe('QUEUE_FULL')
    })

    it('a read or ack refused for a cursor past the newest id leaves nothing behind (no channel made, no app mark)', async () => {
      const store = await make()
      const who = scopeChannelStore(store, freshId('subject'))
      const fresh = freshId('cursor')
      expect((await channelError(who.read(fresh, 'agent-to-app', { after: '7' }))).code).toBe('INVALID_OPTION')
      expect((await channelError(who.ack(fresh, 'agent-to-app', '7'))).code).toBe('INVALID_OPTION')
      expect((await channelError(who.ack(fresh, 'app-to-agent', '1'))).code).toBe('INVALID_OPTION')
      expect((await who.stats()).channels).toBe(0)
      expect(await who.appSeen(fresh)).toBe(false)
      // The id is still free: its real first use makes it, and a cursor of '0' is no refusal.
      expect(await who.read(fresh, 'agent-to-app', { after: '0' })).toEqual([])
      expect((await who.stats()).channels).toBe(1)
      expect(await who.appSeen(fresh)).toBe(true)
      // On a channel only the agent has used, the app's refused read or ack does not mark it as an app's either.
      const agentOnly = freshId('agent')
      const last = await who.send(agentOnly, 'agent-to-app', { event: 'hi' })
      const past = String(Number(last) + 1)
      expect((await channelError(who.read(agentOnly, 'agent-to-app', { after: past }))).code).toBe('INVALID_OPTION')
      expect((await channelError(who.ack(agentOnly, 'agent-to-app', past))).code).toBe('INVALID_OPTION')
      expect(await who.appSeen(agentOnly)).toBe(false)
      expect(await who.peek(agentOnly, 'agent-to-app')).toBe(1)
    })

    it("a subject's message ids do not tell how much another subject sends", async () => {
      const store = await make({ maxPending: 10_000 })
      const alice = scopeChannelStore(store, freshId('alice'))
      const bob = scopeChannelStore(store, freshId('bob'))
      const mine = await alice.open()
      const theirs = await bob.open()
      const before = Date.now()
      const first = Number(await alice.send(mine, 'app-to-agent', { event: 'a' }))
      for (let i = 0; i < 300; i++) await bob.send(theirs, 'app-to-agent', { event: 'b' })
      const second = Number(await alice.send(mine, 'app-to-agent', { event: 'a' }))
      const elapsed = Date.now() - before
      // Counters count per channel (memory, SQLite): the next id is the next number. Redis ids follow its clock
      // (so they never repeat after a restart), which tells the time that passed and nothing of Bob's 300.
      if (store.backend === 'redis') expect(second - first).toBeLessThanOrEqual(Math.max(1, elapsed + 1))
      else expect(second - first).toBe(1)
    })

    it('channel quota: past maxChannels open and first use are LIMIT_REACHED with the limit and count; closing frees room', async () => {
      const open = (await (await make({ maxPending: 10_000 })).stats()).channels
      const store = await make({ maxChannels: open + 2 })
      const a = await store.open()
      const b = freshId('quota')
      await store.send(b, 'agent-to-app', { event: 'first-use' })
      expect((await store.stats()).channels).toBe(open + 2)
      const err = await channelError(store.open())
      expect(err.code).toBe('LIMIT_REACHED')
      expect(err.message).toMatch(/maxChannels/)
      expect(err.data).toEqual({ quota: 'maxChannels', limit: open + 2, used: open + 2 })
      expect((await channelError(store.send(freshId('quota'), 'agent-to-app', { event: 'x' }))).code).toBe('LIMIT_REACHED')
      // The channels already open keep working.
      expect(await store.peek(b, 'agent-to-app')).toBe(1)
      await store.close(a)
      const c = await store.open()
      expect(await store.peek(c, 'app-to-agent')).toBe(0)
      await store.close(b)
      await store.close(c)
    })

    it('expired channels free the channel quota', async () => {
      const probe = await make({ idleTtlMs: 300 })
      // Expiry is about wall-clock time: past idleTtlMs, so every channel already open has expired.
      await new Promise((r) => setTimeout(r, 400))
      await probe.sweep()
      const open = (await probe.stats()).channels
      const store = await make({ idleTtlMs: 300, maxChannels: open + 1 })
      const a = await store.open()
      expect((await channelError(store.open())).code).toBe('LIMIT_REACHED')
      // Expiry is about wall-clock time, so this test has to let time pass.
      await new Promise((r) => setTimeout(r, 400))
      const b = await store.open()
      expect((await channelError(store.send(a, 'app-to-agent', { event: 'late' }))).code).toBe('CHANNEL_CLOSED')
      await store.close(b)
    })

    it('checks the quota options, naming them', async () => {
      await expect(make({ maxStoreBytes: 0 })).rejects.toMatchObject({ code: 'INVALID_OPTION', data: { option: 'limits.maxStoreBytes' } })
      await expect(make({ maxChannels: -1 })).rejects.toMatchObject({
        code: 'INVALID_OPTION',
        message: expect.stringMatching(/limits\.maxChannels/),
        data: { option: 'limits.maxChannels' },
      })
    })

    it('marks a channel seen by an app on app-side calls and on open, never on agent-side ones', async () => {
      const store = await make()
      const picked = freshId('typo')
      await store.send(picked, 'agent-to-app', { event: 'hello' })
      expect(await store.peek(picked, 'app-to-agent')).toBe(0)
      expect(await store.waitForMail(picked, 'app-to-agent', 0)).toBe(0)
      await store.read(picked, 'app-to-agent', { after: '0' })
      expect(await store.appSeen(picked)).toBe(false)
      // The view's poll marks it.
      await store.read(picked, 'agent-to-app', { after: '0' })
      expect(await store.appSeen(picked)).toBe(true)
      const sentByApp = freshId('app')
      await store.send(sentByApp, 'app-to-agent', { event: 'ready' })
      expect(await store.appSeen(sentByApp)).toBe(true)
      expect(await store.appSeen(await store.open())).toBe(true)
      expect(await store.appSeen(freshId('never'))).toBe(false)
    })

    it('per-subject channel quota: one subject at maxChannelsPerSubject is LIMIT_REACHED naming it, another still opens; closing frees room', async () => {
      const store = await make({ maxChannelsPerSubject: 3 })
      const alice = scopeChannelStore(store, `alice-${freshId()}`)
      const bob = scopeChannelStore(store, `bob-${freshId()}`)
      const mine = [await alice.open(), await alice.open()]
      await alice.send('picked', 'agent-to-app', { event: 'first-use' })
      const err = await channelError(alice.open())
      expect(err.code).toBe('LIMIT_REACHED')
      expect(err.message).toMatch(/maxChannelsPerSubject/)
      expect(err.data).toEqual({ quota: 'maxChannelsPerSubject', limit: 3, used: 3 })
      expect((await channelError(alice.send('another', 'agent-to-app', { event: 'x' }))).data).toMatchObject({ quota: 'maxChannelsPerSubject' })
      // The other subject is untouched by the first one's quota, and the first one's channels keep working.
      const hers = await bob.open()
      await bob.send(hers, 'agent-to-app', { event: 'hi', data: 'bob' })
      expect(await alice.peek('picked', 'agent-to-app')).toBe(1)
      await alice.close(mine[0])
      expect(await alice.open()).toMatch(/^ch_/)
    })

    it('per-subject byte quota: past maxStoreBytesPerSubject one subject is LIMIT_REACHED, losing nothing; another sends on; acknowledging frees room', async () => {
      const store = await make({ maxStoreBytesPerSubject: 4_000 })
      const alice = scopeChannelStore(store, `alice-${freshId()}`)
      const bob = scopeChannelStore(store, `bob-${freshId()}`)
      const id = await alice.open()
      const payload = 'x'.repeat(900)
      const sent: string[] = []
      let refused: DuetError | undefined
      for (let i = 0; i < 10 && !refused; i++) {
        try {
          sent.push(await alice.send(id, 'app-to-agent', { event: 'fill', data: { i, payload } }))
        } catch (err) {
          refused = err as DuetError
        }
      }
      expect(sent.length).toBeGreaterThanOrEqual(3)
      expect(refused?.code).toBe('LIMIT_REACHED')
      expect(refused?.data).toMatchObject({ quota: 'maxStoreBytesPerSubject', limit: 4_000 })
      const used = (refused!.data as { used: number }).used
      expect((await alice.stats()).bytes).toBe(used)
      // The other subject's small send goes through while the first is full.
      const theirs = await bob.open()
      expect(await bob.send(theirs, 'agent-to-app', { event: 'ping', data: 'hello' })).toMatch(/^\d+$/)
      expect((await alice.read(id, 'app-to-agent', { after: '0' })).map((m) => m.id)).toEqual(sent)
      await alice.ack(id, 'app-to-agent', sent.at(-1)!)
      expect((await alice.stats()).bytes).toBe(0)
      expect(await alice.send(id, 'app-to-agent', { event: 'fill', data: { payload } })).toMatch(/^\d+$/)
    })

    it("a subject's stats show its own use against the per-subject quotas, never another's or the store's totals", async () => {
      const store = await make({ maxChannelsPerSubject: 50, maxStoreBytesPerSubject: 100_000 })
      const alice = scopeChannelStore(store, `alice-${freshId()}`)
      const bob = scopeChannelStore(store, `bob-${freshId()}`)
      for (let i = 0; i < 4; i++) await bob.send(await bob.open(), 'agent-to-app', { event: 'e', data: 'x'.repeat(100) })
      const id = await alice.open()
      await alice.send(id, 'agent-to-app', { event: 'e', data: 'y' })
      const mine = await alice.stats()
      expect(mine).toMatchObject({ backend: store.backend, channels: 1, setAside: 0, limits: { bytes: 100_000, channels: 50 } })
      expect(mine.bytes).toBeGreaterThan(0)
      expect(mine.bytes).toBeLessThan(100)
      expect((await bob.stats()).channels).toBe(4)
      await alice.close(id)
      expect(await alice.stats()).toMatchObject({ channels: 0, bytes: 0 })
    })

    it('without a subject, each client address (the owner a call passes) has its own per-subject quotas in the shared space', async () => {
      const store = await make({ maxChannelsPerSubject: 2 })
      const first = scopeChannelStore(store, undefined, addressScope(`10.0.0.1-${freshId()}`))
      const second = scopeChannelStore(store, undefined, addressScope(`10.0.0.2-${freshId()}`))
      const a = await first.open()
      await first.send(freshId('picked'), 'app-to-agent', { event: 'e' })
      expect((await channelError(first.open())).data).toMatchObject({ quota: 'maxChannelsPerSubject', used: 2 })
      const b = await second.open()
      // The data is shared (no auth): the second address reaches the first one's channel, charged to its creator.
      await second.send(a, 'agent-to-app', { event: 'hello' })
      expect(await first.peek(a, 'agent-to-app')).toBe(1)
      expect((await second.stats()).channels).toBe(1)
      expect((await first.stats()).bytes).toBeGreaterThan(0)
      await second.close(b)
    })

    it('keeps an event name exactly as sent: a surrogate pair round-trips, a lone surrogate is BAD_MESSAGE and stores nothing', async () => {
      const store = await make()
      const id = await store.open()
      await store.send(id, 'app-to-agent', { event: 'smile-\u{1F600}', data: 1 })
      for (const event of ['half-\uD83D', '\uDE00-half', 'a\uDC00b']) {
        const err = await channelError(store.send(id, 'app-to-agent', { event, data: 2 }))
        expect(err.code).toBe('BAD_MESSAGE')
        expect(err.message).toMatch(/surrogate/)
      }
      const got = await store.drain(id, 'app-to-agent')
      expect(got.map((m) => m.event)).toEqual(['smile-\u{1F600}'])
    })

    it('checks the per-subject quota options, naming them', async () => {
      await expect(make({ maxChannelsPerSubject: 0 })).rejects.toMatchObject({ code: 'INVALID_OPTION', data: { option: 'limits.maxChannelsPerSubject' } })
      await expect(make({ maxStoreBytesPerSubject: 2.5 })).rejects.toMatchObject({
        code: 'INVALID_OPTION',
        message: expect.stringMatching(/limits\.maxStoreBytesPerSubject/),
      })
    })

    it('checks its options once, naming the option', async () => {
      await expect(make({ maxPending: 0 })).rejects.toMatchObject({
        code: 'INVALID_OPTION',
        message: expect.stringMatching(/limits\.maxPending/),
        data: { option: 'limits.maxPending' },
      })
      await expect(make({ maxPayloadBytes: 1.5 })).rejects.toMatchObject({ code: 'INVALID_OPTION', data: { option: 'limits.maxPayloadBytes' } })
    })
  })
}
