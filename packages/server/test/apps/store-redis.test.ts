import { describe, expect, it } from 'vitest'
import { openAppStore } from '../../src/apps/index.js'
import { subjectScope } from '../../src/channel/subject-scope.js'
import { freePort, redisForSuite, startRedis } from '../channel/redis-server.js'
import { caught, describeAppStore } from './store.case.js'

const redis = redisForSuite()

describeAppStore('redis', {
  async fresh() {
    await redis.admin.flushAll()
  },
  open: (limits) => openAppStore({ backend: 'redis', url: redis.url, ...(limits && { limits }) }),
})

describe('redis app store specifics', () => {
  it('a non-numeric count is repaired, not fatal: renders, saves, deletes and puts go on', async () => {
    await redis.admin.flushAll()
    const store = await openAppStore({ backend: 'redis', url: redis.url, limits: { maxRenders: 3 } })
    try {
      const alice = store.forSubject('alice')
      for (const id of ['ch-1', 'ch-2']) await alice.recordRender(id, { kind: 'html', html: `<p>${id}</p>` })
      await alice.putData('app', 'k', 1)
      for (const key of ['duet:{apps}:renders-owned', 'duet:{apps}:saved-count', 'duet:{apps}:data-keys-count', 'duet:{apps}:data-apps-count']) {
        await redis.admin.set(key, 'garbage')
      }
      await alice.recordRender('ch-3', { kind: 'html', html: '<p>3</p>' })
      await alice.recordRender('ch-4', { kind: 'html', html: '<p>4</p>' })
      // The recounted renders still keep the cap: the oldest went.
      expect(await alice.getRender('ch-1')).toBeUndefined()
      expect(await redis.admin.get('duet:{apps}:renders-owned')).toBe('3')
      expect(await alice.saveApp('kept', 'ch-4')).toMatchObject({ name: 'kept' })
      expect(await alice.deleteApp('kept')).toBe(true)
      expect(await alice.putData('other', 'k', 2)).toMatchObject({ app: 'other' })
    } finally {
      await store.close()
    }
  })

  it("adopts renders from before owners were kept as SQLite's upgrade does (a subject's by its key, the rest the shared space's): past the cap the heaviest owner loses one, not the oldest render of all", async () => {
    await redis.admin.flushAll()
    // Three renders an older Duet recorded: no owner field, no owner sets, no counts. Alice's is the oldest.
    const aliceKey = `${subjectScope('alice')}.ch-a-old`
    for (const [seq, key] of [aliceKey, 'ch-s1', 'ch-s2'].entries()) {
      await redis.admin.hSet(`duet:{apps}:render:${key}`, { kind: 'html', html: `<p>${key}</p>`, at: String(seq + 1) })
      await redis.admin.zAdd('duet:{apps}:renders', { score: seq + 1, value: key })
    }
    await redis.admin.set('duet:{apps}:render-seq', '3')
    const store = await openAppStore({ backend: 'redis', url: redis.url, limits: { maxRenders: 4 } })
    try {
      const bob = store.forSubject('bob')
      await bob.recordRender('ch-b1', { kind: 'html', html: '<p>b1</p>' })
      await bob.recordRender('ch-b2', { kind: 'html', html: '<p>b2</p>' })
      // Five renders, cap four: the shared space (two, the first of which was recorded before Bob's) gives one
      // up; Alice, holding one, keeps hers though it is the oldest of all.
      expect(await store.forSubject('alice').getRender('ch-a-old')).toMatchObject({ html: `<p>${aliceKey}</p>` })
      expect(await store.getRender('ch-s1')).toBeUndefined()
      expect(await store.getRender('ch-s2')).toMatchObject({ html: '<p>ch-s2</p>' })
      expect(await bob.getRender('ch-b1')).toBeDefined()
      expect(await redis.admin.get('duet:{apps}:renders-owned')).toBe('4')
    } finally {
      await store.close()
    }
  })

  it('fails with STORE_UNAVAILABLE naming the address, without the password, when nothing listens', async () => {
    const port = await freePort()
    const err = await caught(openAppStore({ backend: 'redis', url: `redis://user:s3cret@127.0.0.1:${port}` }))
    expect(err.code).toBe('STORE_UNAVAILABLE')
    expect(err.message).toContain(`127.0.0.1:${port}`)
    expect(err.message).not.toContain('s3cret')
  })

  it('a call while Redis is down fails with STORE_UNAVAILABLE and the store works again once it is back', async () => {
    const own = await startRedis()
    const store = await openAppStore({ backend: 'redis', url: own.url })
    try {
      await store.putData('app', 'k', 1)
      await own.stop()
      expect(await caught(store.getData('app', 'k'))).toMatchObject({ code: 'STORE_UNAVAILABLE', message: expect.stringMatching(/Redis agent-apps store/) })
    } finally {
      await store.close()
    }
  })
})
