import { afterAll, describe, expect, it } from 'vitest'
import { isDuetError } from 'duetkit/protocol'
import { openChannelStore, type ChannelLimits } from '../../src/channel/index.js'
import { scopeChannelStore } from '../../src/channel/subject-scope.js'
import type { ChannelMessage, ChannelStore, Direction } from '../../src/channel/store.js'
import { seededPicks } from '../../../../test/support/seeded-random.js'
import { redisForSuite } from './redis-server.js'
import { tempDir } from './temp-dir.js'

// The backends against each other on random call sequences. The conformance suite (store.case.ts) names
// each behaviour; this one runs seeded mixes of them — three callers (the shared space and two signed-in
// subjects), minted and agent-picked ids, another caller's id, sends up to the pending and channel quotas,
// reads with and without `after` and `since`, drains, acks, peeks, closes and stats — on fresh stores of
// each backend, and compares every result. Results name a message by its place in its queue's send order,
// since Redis ids follow its clock; memory and SQLite both count per channel, so between them the ids
// themselves are compared too.

type Backend = 'memory' | 'sqlite' | 'redis'
const CALLERS = ['shared', 'alice', 'bob'] as const
type Caller = (typeof CALLERS)[number]
const DIRS: Direction[] = ['app-to-agent', 'agent-to-app']
const PICKED = ['p1', 'p2', 'p3']

// Which channel a call names: an agent-picked id, the caller's own n-th minted channel, or another caller's.
type ChannelRef = { picked: string } | { minted: number; of: Caller }
// Which message id an `after`, `since` or `upTo` names: '0', the n-th sent on that queue, or one past the last.
type IdRef = '0' | { sent: number } | 'past'

type Call =
  | { k: 'open'; by: Caller }
  | { k: 'send'; by: Caller; ch: ChannelRef; dir: Direction; event: string; size: number }
  | { k: 'read'; by: Caller; ch: ChannelRef; dir: Direction; max: number; after?: IdRef; since?: IdRef }
  | { k: 'drain'; by: Caller; ch: ChannelRef; dir: Direction; max: number }
  | { k: 'ack'; by: Caller; ch: ChannelRef; dir: Direction; upTo: IdRef }
  | { k: 'peek' | 'close' | 'appSeen'; by: Caller; ch: ChannelRef; dir: Direction }
  | { k: 'stats'; by: Caller }

function draw(seed: number): Call[] {
  const { int, pick } = seededPicks(seed)
  const ch = (by: Caller): ChannelRef => (int(2) ? { picked: pick(PICKED) } : { minted: int(3), of: int(6) ? by : pick(CALLERS) })
  const id = (): IdRef => pick<IdRef>(['0', { sent: int(6) }, { sent: int(6) }, 'past'])
  const calls: Call[] = []
  for (let i = 0, n = 30 + int(40); i < n; i++) {
    const by = pick(CALLERS)
    const dir = pick(DIRS)
    const roll = int(20)
    if (roll < 3) calls.push({ k: 'open', by })
    else if (roll < 10) calls.push({ k: 'send', by, ch: ch(by), dir, event: pick(['ask', 'tell', 'x']), size: pick([0, 5, 40, 120]) })
    else if (roll < 13) {
      const r = int(3)
      calls.push({ k: 'read', by, ch: ch(by), dir, max: 1 + int(4), ...(r === 1 && { after: id() }), ...(r === 2 && { since: id() }) })
    } else if (roll < 14) calls.push({ k: 'drain', by, ch: ch(by), dir, max: 1 + int(4) })
    else if (roll < 15) calls.push({ k: 'ack', by, ch: ch(by), dir, upTo: id() })
    else if (roll < 18) calls.push({ k: pick(['peek', 'close', 'appSeen'] as const), by, ch: ch(by), dir })
    else calls.push({ k: 'stats', by })
  }
  return calls
}

/** What a result holds beyond the common part: byte counts, and the message ids themselves. */
interface Options {
  bytes: boolean
  ids: boolean
}

/** Runs the calls on one store; returns one normalised result per call. */
async function play(store: ChannelStore, calls: Call[], run: string, options: Options): Promise<unknown[]> {
  const views = Object.fromEntries(CALLERS.map((c) => [c, scopeChannelStore(store, c === 'shared' ? undefined : `${c}-${run}`)])) as Record<
    Caller,
    ChannelStore
  >
  const minted = Object.fromEntries(CALLERS.map((c) => [c, [] as string[]])) as Record<Caller, string[]>
  // Each queue's sent ids in order, by the key the caller's view turns its id into.
  const sent = new Map<string, string[]>()
  const channelId = (ref: ChannelRef) => ('picked' in ref ? `${ref.picked}-${run}` : (minted[ref.of][ref.minted] ?? `ch_unminted${ref.minted}`))
  const queueOf = (by: Caller, ref: ChannelRef, dir: Direction) => {
    const key = `${by === 'shared' ? '' : by}/${channelId(ref)}/${dir}`
    if (!sent.has(key)) sent.set(key, [])
    return sent.get(key)!
  }
  const idOf = (queue: string[], ref: IdRef) =>
    ref === '0' ? '0' : ref === 'past' ? (queue.length ? String(BigInt(queue.at(-1)!) + 1n) : '0') : (queue[Math.min(ref.sent, queue.length - 1)] ?? '0')
  const named = (queue: string[], messages: ChannelMessage[]) =>
    messages.map((m) => ({ sent: queue.indexOf(m.id), ...(options.ids && { id: m.id }), event: m.event, data: m.data }))

  const out: unknown[] = []
  for (const call of calls) {
    const view = views[call.by]
    try {
      switch (call.k) {
        case 'open':
          minted[call.by].push(await view.open())
          out.push('opened')
          break
        case 'send': {
          const queue = queueOf(call.by, call.ch, call.dir)
          const id = await view.send(channelId(call.ch), call.dir, { event: call.event, data: { text: 'x'.repeat(call.size) } })
          queue.push(id)
          out.push({ sent: queue.length - 1, ...(options.ids && { id }) })
          break
        }
        case 'read': {
          const queue = queueOf(call.by, call.ch, call.dir)
          const got = await view.read(channelId(call.ch), call.dir, {
            max: call.max,
            ...(call.after !== undefined && { after: idOf(queue, call.after) }),
            ...(call.since !== undefined && { since: idOf(queue, call.since) }),
          })
          out.push(named(queue, got))
          break
        }
        case 'drain': {
          const queue = queueOf(call.by, call.ch, call.dir)
          out.push(named(queue, await view.drain(channelId(call.ch), call.dir, { max: call.max })))
          break
        }
        case 'ack': {
          const queue = queueOf(call.by, call.ch, call.dir)
          out.push({ acked: await view.ack(channelId(call.ch), call.dir, idOf(queue, call.upTo)) })
          break
        }
        case 'peek':
          out.push({ pending: await view.peek(channelId(call.ch), call.dir) })
          break
        case 'appSeen':
          out.push({ seen: await view.appSeen(channelId(call.ch)) })
          break
        case 'close':
          await view.close(channelId(call.ch))
          out.push('closed')
          break
        case 'stats': {
          const { backend: _, bytes, ...rest } = await view.stats()
          out.push(options.bytes ? { ...rest, bytes } : rest)
          break
        }
      }
    } catch (err) {
      if (!isDuetError(err)) throw err
      const quota = (err.data as { quota?: string } | undefined)?.quota
      out.push({ error: err.code, ...(quota && { quota }) })
    }
  }
  return out
}

/** Runs each seed on a fresh store of each backend and compares every result with the first backend's. */
async function compare(backends: Backend[], limits: Partial<ChannelLimits>, seeds: number, options: Options) {
  let calls = 0
  let refusals = 0
  for (let seed = 1; seed <= seeds; seed++) {
    const plan = draw(seed)
    const runs: Array<{ backend: Backend; out: unknown[] }> = []
    for (const backend of backends) {
      const store = await open(backend, limits)
      try {
        runs.push({ backend, out: await play(store, plan, `${seed}`, options) })
      } finally {
        await store.dispose()
      }
    }
    const [first, ...rest] = runs
    for (const other of rest) {
      const at = other.out.findIndex((r, i) => JSON.stringify(r) !== JSON.stringify(first!.out[i]))
      if (at >= 0)
        expect(other.out[at], `seed ${seed}, call ${at} ${JSON.stringify(plan[at])} on ${other.backend} (${first!.backend} gave the expected)`).toEqual(
          first!.out[at],
        )
    }
    calls += plan.length
    refusals += first!.out.filter((r) => typeof r === 'object' && r !== null && 'error' in r).length
  }
  return { calls, refusals }
}

const redis = redisForSuite()
const dirs: Array<{ remove(): void }> = []
afterAll(() => {
  for (const dir of dirs) dir.remove()
})

async function open(backend: Backend, limits: Partial<ChannelLimits>): Promise<ChannelStore> {
  if (backend === 'memory') return openChannelStore({ backend, limits })
  if (backend === 'sqlite') {
    const dir = tempDir()
    dirs.push(dir)
    return openChannelStore({ backend, dataDir: dir.dir, limits })
  }
  // A fresh store: what the last seed left (channels count against the quotas) is gone.
  await redis.admin.flushAll()
  return openChannelStore({ backend, url: redis.url, limits })
}

// Small enough that random runs meet them: 3 channels a subject, 6 in all, 4 pending a queue.
const QUOTAS = { maxChannels: 6, maxChannelsPerSubject: 3, maxPending: 4 }

describe('the channel stores against each other on random call sequences', () => {
  it('memory, SQLite and Redis give the same results (byte quotas out of reach: Redis counts bytes with its envelope)', async () => {
    const { calls, refusals } = await compare(['memory', 'sqlite', 'redis'], QUOTAS, 200, { bytes: false, ids: false })
    // The runs reach the quotas and the refusals, not only the happy path.
    expect(calls).toBeGreaterThan(60 * 30)
    expect(refusals).toBeGreaterThan(calls / 20)
  }, 120_000)

  it('memory and SQLite give the same results, byte counts and message ids, with the byte quotas within reach', async () => {
    const limits = { ...QUOTAS, maxStoreBytes: 900, maxStoreBytesPerSubject: 400 }
    const { refusals } = await compare(['memory', 'sqlite'], limits, 200, { bytes: true, ids: true })
    expect(refusals).toBeGreaterThan(0)
  }, 120_000)
})
