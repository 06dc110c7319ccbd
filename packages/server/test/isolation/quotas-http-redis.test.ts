// The per-subject quotas over HTTP with two users from a real issuer, on a real redis-server (see quotas-http.case.ts).
import { startRedis } from '../channel/redis-server.js'
import { describeQuotasOverHttp } from './quotas-http.case.js'

let redis: Awaited<ReturnType<typeof startRedis>> | undefined
describeQuotasOverHttp({
  name: 'redis',
  async start() {
    redis = await startRedis()
    return ['--redis-url', redis.url]
  },
  async stop() {
    await redis?.stop()
  },
})
