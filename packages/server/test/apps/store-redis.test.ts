import { describe, expect, it } from 'vitest'
import { openAppStore } from '../../src/apps/index.js'
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
