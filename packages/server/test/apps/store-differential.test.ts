import { afterAll, describe, expect, it, vi } from 'vitest'
import { isDuetError } from 'duetkit/protocol'
import { openAppStore, type AppLimits, type AppStore, type AppStoreOperations } from '../../src/apps/index.js'
import { addressScope } from '../../src/channel/subject-scope.js'
import { seededPicks } from '../../../../test/support/seeded-random.js'
import { redisForSuite } from '../channel/redis-server.js'
import { tempDir } from '../channel/temp-dir.js'

// The two agent-apps store backends against each other on random call sequences: renders (evicted past the
// render quotas), saved apps, app data (put, append, pages, keys, past the key and app quotas) and the server
// log, from four callers (the shared space, the shared space charged to a client address, two subjects), on a
// fresh SQLite file and a fresh Redis each seed, on the same clock. Every result must be the same, times and log
// ids included (both count log rows per space).

const CALLERS = ['shared', 'address', 'alice', 'bob'] as const
type Caller = (typeof CALLERS)[number]

type Call =
  | { k: 'recordRender'; by: Caller; channel: string; html: string; title?: string }
  | { k: 'getRender'; by: Caller; channel: string }
  | { k: 'saveApp'; by: Caller; name: string; channel: string; replace: boolean; description?: string }
  | { k: 'listApps'; by: Caller }
  | { k: 'loadApp' | 'deleteApp'; by: Caller; name: string }
  | { k: 'putData'; by: Caller; app: string; key: string; value: unknown; append: boolean }
  | { k: 'getData'; by: Caller; app: string; key: string; offset?: number; limit?: number }
  | { k: 'dataKeys'; by: Caller; app: string }
  | { k: 'log'; by: Caller; level: 'debug' | 'info' | 'warning' | 'error'; message: string; data?: unknown }
  | { k: 'tail'; by: Caller; n: number; level?: 'debug' | 'info' | 'warning' | 'error' }

function draw(seed: number): Call[] {
  const { int, pick } = seededPicks(seed)
  const channel = () => pick(['c1', 'c2', 'c3', 'c4', 'c5'])
  const name = () => pick(['alpha', 'beta', 'gamma'])
  const value = () =>
    pick<unknown>(['hello', 'x'.repeat(int(300)), [1, 2, 3], ['a'], { n: int(9) }, 42, null, true, Array.from({ length: int(40) }, (_, i) => i)])
  const level = () => pick(['debug', 'info', 'warning', 'error'] as const)
  const calls: Call[] = []
  for (let i = 0, n = 30 + int(40); i < n; i++) {
    const by = pick(CALLERS)
    const roll = int(22)
    if (roll < 4) calls.push({ k: 'recordRender', by, channel: channel(), html: `<p>${int(100)}</p>`, ...(int(2) && { title: `t${int(5)}` }) })
    else if (roll < 6) calls.push({ k: 'getRender', by, channel: channel() })
    else if (roll < 8) calls.push({ k: 'saveApp', by, name: name(), channel: channel(), replace: int(2) === 0, ...(int(3) === 0 && { description: 'd' }) })
    else if (roll < 9) calls.push({ k: 'listApps', by })
    else if (roll < 11) calls.push({ k: pick(['loadApp', 'deleteApp'] as const), by, name: name() })
    else if (roll < 15) calls.push({ k: 'putData', by, app: pick(['x', 'y', 'z']), key: pick(['k1', 'k2', 'k3', 'k4']), value: value(), append: int(3) === 0 })
    else if (roll < 17) {
      const paged = int(2) === 0
      calls.push({ k: 'getData', by, app: pick(['x', 'y', 'z']), key: pick(['k1', 'k2', 'k3', 'k4']), ...(paged && { offset: int(12), limit: 1 + int(6) }) })
    } else if (roll < 18) calls.push({ k: 'dataKeys', by, app: pick(['x', 'y', 'z']) })
    else if (roll < 20) calls.push({ k: 'log', by, level: level(), message: `m${int(20)}`, ...(int(2) && { data: { i: int(9) } }) })
    else calls.push({ k: 'tail', by, n: 1 + int(6), ...(int(2) && { level: level() }) })
  }
  return calls
}

// The clock is the test's: each call moves it by 0 or 1 ms (from the seed), so both backends see the same times,
// ties included, and "newest first" means the same on both.
const CLOCK_START = 1_700_000_000_000

async function play(store: AppStore, calls: Call[]): Promise<unknown[]> {
  const spaces: Record<Caller, AppStoreOperations> = {
    shared: store.forSubject(undefined),
    address: store.forSubject(undefined, addressScope('198.51.100.7')),
    alice: store.forSubject('alice'),
    bob: store.forSubject('bob'),
  }
  const out: unknown[] = []
  let now = CLOCK_START
  for (const [i, call] of calls.entries()) {
    now += (i * 7919) % 3 === 0 ? 1 : 0
    vi.setSystemTime(now)
    const s = spaces[call.by]
    try {
      let result: unknown
      switch (call.k) {
        case 'recordRender':
          result = await s.recordRender(call.channel, { kind: 'html', html: call.html, ...(call.title && { title: call.title }) })
          break
        case 'getRender':
          result = (await s.getRender(call.channel)) ?? 'none'
          break
        case 'saveApp':
          result = await s.saveApp(call.name, call.channel, { replace: call.replace, ...(call.description && { description: call.description }) })
          break
        case 'listApps':
          result = await s.listApps()
          break
        case 'loadApp':
          result = await s.loadApp(call.name)
          break
        case 'deleteApp':
          result = await s.deleteApp(call.name)
          break
        case 'putData':
          result = await s.putData(call.app, call.key, call.value, { append: call.append })
          break
        case 'getData':
          result = await s.getData(call.app, call.key, {
            ...(call.offset !== undefined && { offset: call.offset }),
            ...(call.limit !== undefined && { limit: call.limit }),
          })
          break
        case 'dataKeys':
          result = await s.dataKeys(call.app)
          break
        case 'log':
          result = await s.log(call.level, call.message, call.data)
          break
        case 'tail':
          result = await s.tail(call.n, call.level)
          break
      }
      out.push(result)
    } catch (err) {
      if (!isDuetError(err)) throw err
      out.push({ error: err.code })
    }
  }
  return out
}

const redis = redisForSuite()
const dirs: Array<{ remove(): void }> = []
afterAll(() => {
  for (const dir of dirs) dir.remove()
})

// Small enough that random runs meet them.
const LIMITS: Partial<AppLimits> = {
  maxRenders: 4,
  maxRendersPerSubject: 2,
  maxSavedApps: 4,
  maxSavedAppsPerSubject: 2,
  maxKeysPerApp: 3,
  maxDataApps: 4,
  maxDataAppsPerSubject: 2,
  maxDataKeys: 6,
  maxDataKeysPerSubject: 4,
  maxValueBytes: 200,
  maxPageItems: 5,
  maxPageBytes: 120,
  maxLogRows: 6,
}

const SEEDS = 150

describe('the agent-apps stores against each other on random call sequences', () => {
  it(`SQLite and Redis give the same results on ${SEEDS} seeded runs, quotas and evictions included`, async () => {
    let refusals = 0
    let calls = 0
    for (let seed = 1; seed <= SEEDS; seed++) {
      const plan = draw(seed)
      const dir = tempDir('duet-apps-')
      dirs.push(dir)
      vi.useFakeTimers({ toFake: ['Date'] })
      const sqlite = await openAppStore({ dataDir: dir.dir, limits: LIMITS })
      await redis.admin.flushAll()
      const onRedis = await openAppStore({ backend: 'redis', url: redis.url, limits: LIMITS })
      try {
        const expected = await play(sqlite, plan)
        const got = await play(onRedis, plan)
        const at = got.findIndex((r, i) => JSON.stringify(r) !== JSON.stringify(expected[i]))
        if (at >= 0) expect(got[at], `seed ${seed}, call ${at} ${JSON.stringify(plan[at])} on redis (sqlite gave the expected)`).toEqual(expected[at])
        calls += plan.length
        refusals += expected.filter((r) => typeof r === 'object' && r !== null && 'error' in r).length
      } finally {
        vi.useRealTimers()
        await sqlite.close()
        await onRedis.close()
      }
    }
    // The runs reach the refusals (quotas, unknown names), not only the happy path.
    expect(refusals).toBeGreaterThan(calls / 20)
  }, 120_000)
})
