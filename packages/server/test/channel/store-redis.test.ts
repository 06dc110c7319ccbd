import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openChannelStore } from '../../src/channel/index.js'
import { channelError, describeChannelStore } from './store.case.js'
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
