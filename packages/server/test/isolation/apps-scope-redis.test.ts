import { afterAll, beforeAll } from 'vitest'
import { openAppStore } from '../../src/apps/index.js'
import { startRedis } from '../channel/redis-server.js'
import { describeAppsScope } from './apps-scope.case.js'

let redis: Awaited<ReturnType<typeof startRedis>>
beforeAll(async () => {
  redis = await startRedis()
})
afterAll(async () => {
  await redis?.stop()
})

// Two connections on one real redis-server, as two replicas.
describeAppsScope({
  name: 'redis',
  async open() {
    const a = await openAppStore({ backend: 'redis', url: redis.url })
    const b = await openAppStore({ backend: 'redis', url: redis.url })
    return { stores: [a, b], done: async () => void (await Promise.all([a.close(), b.close()])) }
  },
})
