import { rmSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, it } from 'vitest'
import { startRedis } from '../channel/redis-server.js'
import { bundle } from '../server/build-fixture.js'
import { raceFourWriters } from './processes.case.js'

let script: string
let redis: Awaited<ReturnType<typeof startRedis>>

beforeAll(async () => {
  script = await bundle(fileURLToPath(new URL('./fixtures/store-writer.ts', import.meta.url)), 'apps-store-writer-redis')
  redis = await startRedis()
})
afterAll(async () => {
  rmSync(script, { force: true })
  await redis?.stop()
})

it('four processes appending to one key and racing for one name on one Redis lose nothing and save once', async () => {
  await raceFourWriters(script, redis.url, { backend: 'redis', url: redis.url })
})
