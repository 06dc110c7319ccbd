import { afterAll, beforeAll } from 'vitest'
import { openChannelStore } from '../../src/channel/index.js'
import { startRedis } from '../channel/redis-server.js'
import { describeChannelScope } from './channel-scope.case.js'

let redis: Awaited<ReturnType<typeof startRedis>>
beforeAll(async () => {
  redis = await startRedis()
})
afterAll(async () => {
  await redis?.stop()
})

// Two connections on one real redis-server, as two replicas.
describeChannelScope({
  name: 'redis',
  async open() {
    const a = await openChannelStore({ backend: 'redis', url: redis.url })
    const b = await openChannelStore({ backend: 'redis', url: redis.url })
    return { stores: [a, b], done: async () => void (await Promise.all([a.dispose(), b.dispose()])) }
  },
})
