import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openChannelStore } from '../../src/channel/index.js'
import { createClient } from 'redis'
import { channelError, describeChannelStore, freshId } from './store.case.js'
import { scopeChannelStore, subjectScope } from '../../src/channel/subject-scope.js'
import { tempDir } from './temp-dir.js'
import { freePort, startRedis } from './redis-server.js'

let redis: Awaited<ReturnType<typeof startRedis>>
beforeAll(async () => {
  redis = await startRedis()
})
afterAll(async () => {
  await redis?.stop()
})

describeChannelStore('redis', (limits) => openChannelStore({ backend: 'redis', url: redis.url, limits }))

describe('redis store specifics', () => {
  it('one corrupt value costs that message only: 49 of 50 delivered, the bad one counted', async () => {
    const store = await openChannelStore({ backend: 'redis', url: redis.url })
    const raw = createClient({ url: redis.url })
    await raw.connect()
    try {
      const id = await store.open()
      const ids: string[] = []
      for (let i = 0; i < 50; i++) ids.push(await store.send(id, 'app-to-agent', { event: 'e', data: { i } }))
      const key = `duet:{${id}}:q:app-to-agent`
      const [victim] = await raw.zRangeByScore(key, ids[17], ids[17])
      expect(victim).toContain('"i":17')
      await raw.zRem(key, victim)
      await raw.zAdd(key, { score: Number(ids[17]), value: victim.slice(0, -3) })
      const before = (await store.stats()).setAside
      const reported: unknown[] = []
      store.onSetAside((event) => reported.push(event))
      const got = await store.drain(id, 'app-to-agent')
      expect(reported).toEqual([{ channelId: id, direction: 'app-to-agent', count: 1 }])
      expect(got.map((m) => (m.data as { i: number }).i)).toEqual([...Array(50).keys()].filter((i) => i !== 17))
      expect((await store.stats()).setAside).toBe(before + 1)
      expect(await store.peek(id, 'app-to-agent')).toBe(0)
    } finally {
      await raw.quit()
      await store.dispose()
    }
  })

  it('a non-numeric quota counter is recounted, not fatal: sends go on and the counts come back right', async () => {
    const store = await openChannelStore({ backend: 'redis', url: redis.url })
    const raw = createClient({ url: redis.url })
    await raw.connect()
    try {
      const subject = `alice-${freshId()}`
      const alice = scopeChannelStore(store, subject)
      const id = await alice.open()
      await alice.send(id, 'app-to-agent', { event: 'e', data: 'x'.repeat(100) })
      const before = await store.stats()
      const mine = await alice.stats()
      const owner = subjectScope(subject)
      await raw.set('duet:quota:bytes', 'not a number')
      await raw.set(`duet:quota:o:${owner}:bytes`, '12.5x')
      await raw.hSet('duet:quota:size', `${owner}.${id}`, 'garbage')
      // Every call still works, and the counters say what is stored again.
      expect(await alice.send(id, 'app-to-agent', { event: 'e', data: 'y' })).toMatch(/^\d+$/)
      const after = await alice.stats()
      expect(Number.isInteger(after.bytes)).toBe(true)
      expect(after.bytes).toBeGreaterThan(mine.bytes)
      const all = await store.stats()
      expect(all.bytes).toBe(before.bytes + (after.bytes - mine.bytes))
      expect(await raw.get('duet:quota:bytes')).toBe(String(all.bytes))
      await alice.drain(id, 'app-to-agent')
      expect((await alice.stats()).bytes).toBe(0)
      expect((await store.stats()).bytes).toBe(before.bytes - mine.bytes)
    } finally {
      await raw.quit()
      await store.dispose()
    }
  })

  for (const persist of [false, true]) {
    it(`never repeats a message id across a Redis restart ${persist ? 'with an AOF' : "with --save '' (data lost)"}`, async () => {
      const folder = persist ? tempDir('duet-redis-') : undefined
      let server = await startRedis({ dir: folder?.dir })
      try {
        let store = await openChannelStore({ backend: 'redis', url: server.url })
        const picked = freshId()
        const first: string[] = []
        for (let i = 0; i < 5; i++) first.push(await store.send(picked, 'app-to-agent', { event: 'e', data: i }))
        await store.dispose()
        await server.stop()
        server = await startRedis({ port: server.port, dir: folder?.dir })
        store = await openChannelStore({ backend: 'redis', url: server.url })
        const kept = await store.drain(picked, 'app-to-agent')
        expect(kept.map((m) => m.id)).toEqual(persist ? first : [])
        const second: string[] = []
        for (let i = 0; i < 5; i++) second.push(await store.send(picked, 'app-to-agent', { event: 'e', data: i }))
        const all = [...first, ...second].map(Number)
        expect(new Set(all).size).toBe(10)
        expect(all).toEqual([...all].sort((a, b) => a - b))
        await store.dispose()
      } finally {
        await server.stop()
        folder?.remove()
      }
    })
  }

  it('fails with STORE_UNAVAILABLE when nothing listens at the URL', async () => {
    const port = await freePort()
    const err = await channelError(openChannelStore({ backend: 'redis', url: `redis://127.0.0.1:${port}` }))
    expect(err.code).toBe('STORE_UNAVAILABLE')
    expect(err.message).toContain(`127.0.0.1:${port}`)
  })

  it('hides credentials in error messages', async () => {
    const port = await freePort()
    const err = await channelError(openChannelStore({ backend: 'redis', url: `redis://user:s3cret@127.0.0.1:${port}` }))
    expect(err.message).not.toContain('s3cret')
  })
})
