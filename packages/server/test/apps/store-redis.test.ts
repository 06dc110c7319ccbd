import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createClient } from 'redis'
import { openAppStore } from '../../src/apps/index.js'
import { freePort, startRedis } from '../channel/redis-server.js'
import { caught, describeAppStore } from './store.case.js'

let redis: Awaited<ReturnType<typeof startRedis>>
let admin: ReturnType<typeof createClient>
beforeAll(async () => {
  redis = await startRedis()
  admin = createClient({ url: redis.url })
  await admin.connect()
})
afterAll(async () => {
  admin?.destroy()
  await redis?.stop()
})

describeAppStore('redis', {
  async fresh() {
    await admin.flushAll()
  },
  open: (limits) => openAppStore({ backend: 'redis', url: redis.url, ...(limits && { limits }) }),
})

describe('redis app store specifics', () => {
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
