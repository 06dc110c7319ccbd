import { createClient } from 'redis'
import { DuetError } from 'duetkit/protocol'
import { depthOver, drainMax, MAX_DEPTH, encodeMessage, queueFullError, waitMs, type ChannelLimits } from './limits.js'
import {
  afterTooLarge,
  checkAfter,
  checkChannelId,
  checkDirection,
  closedError,
  DIRECTIONS,
  isMintedId,
  mintChannelId,
  unknownChannelError,
  type ChannelMessage,
  type ChannelStats,
  type ChannelStore,
  type Direction,
  type DrainOptions,
  type OutgoingMessage,
  type ReadOptions,
} from './store.js'
import { TOMBSTONE_TTL_FACTOR } from './sweeper.js'
import { Bell, bellKey, waitFor, waitForPending } from './wake.js'

// Rings travel by pub/sub; the poll only covers a reconnect that dropped a ring.
const FALLBACK_POLL_MS = 1_000
const PREFIX = 'duet:'

// Each script runs atomically in Redis, so checking the channel state and changing a queue never interleave
// with another process. Keys: 1 = channel hash, 2 = this direction's queue, 3 = the other queue. Queues are
// sorted sets scored by message id, so a read can leave messages in place and an acknowledgement removes a
// prefix by score. ARGV: 1 now, 2 ttl, 3 tombstone ttl, 4 mode, 5 '1' for a minted id; the rest per script.
// A channel hash outlives its queues (TOMBSTONE_TTL_FACTOR × TTL) so a closed or expired id keeps refusing calls.
const USE_CHANNEL = `
local now, ttl, tomb = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local meta = redis.call('HMGET', KEYS[1], 'state', 'touched')
if meta[1] and meta[1] ~= '0' then return {'closed'} end
if meta[1] and tonumber(meta[2]) < now - ttl then
  redis.call('HSET', KEYS[1], 'state', '2', 'touched', now)
  redis.call('PEXPIRE', KEYS[1], tomb)
  redis.call('DEL', KEYS[2], KEYS[3])
  return {'closed'}
end
if not meta[1] and ARGV[5] == '1' and ARGV[4] ~= 'open' then return {'unknown'} end
if not meta[1] and ARGV[4] == 'peek' then return {'ok', 0} end
redis.call('HSET', KEYS[1], 'state', '0', 'touched', now)
redis.call('PEXPIRE', KEYS[1], tomb)
redis.call('PEXPIRE', KEYS[2], ttl)
redis.call('PEXPIRE', KEYS[3], ttl)
`
// Ids follow the Redis server's clock (milliseconds) and never step back: after a restart that lost the data
// the counter starts again from the clock, not from 1, so an id is never handed out twice.
const SEND = `${USE_CHANNEL}
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[6]) then return {'full'} end
local t = redis.call('TIME')
local clock = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local id = math.max(tonumber(redis.call('HGET', KEYS[1], 'seq') or '0') + 1, clock)
redis.call('HSET', KEYS[1], 'seq', tostring(id))
redis.call('ZADD', KEYS[2], id, '{"id":"' .. tostring(id) .. '","event":' .. ARGV[7] .. ',"data":' .. ARGV[8] .. ',"at":' .. ARGV[1] .. '}')
redis.call('PEXPIRE', KEYS[2], ttl)
redis.call('PUBLISH', ARGV[9], '1')
return {'ok', tostring(id)}
`
// ARGV[6] = acknowledge up to this id ('' for none).
const ACK_PART = `
local removed = 0
if ARGV[6] ~= '' then
  if tonumber(ARGV[6]) > tonumber(redis.call('HGET', KEYS[1], 'seq') or '0') then return {'after'} end
  removed = redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[6])
end
`
// ARGV[7] = max, ARGV[8] = only ids above this one.
const READ = `${USE_CHANNEL}${ACK_PART}
local items = redis.call('ZRANGEBYSCORE', KEYS[2], '(' .. ARGV[8], '+inf', 'LIMIT', 0, tonumber(ARGV[7]))
local out = {'ok'}
for _, v in ipairs(items) do out[#out + 1] = v end
return out
`
// Takes (returns and removes) the oldest ARGV[6] entries at once, so concurrent drains never share one.
const TAKE = `${USE_CHANNEL}
local items = redis.call('ZPOPMIN', KEYS[2], tonumber(ARGV[6]))
local out = {'ok'}
for i = 1, #items, 2 do out[#out + 1] = items[i + 1] .. ' ' .. items[i] end
return out
`
const ACK = `${USE_CHANNEL}${ACK_PART}
return {'ok', removed}
`
const PEEK = `${USE_CHANNEL}
return {'ok', redis.call('ZCARD', KEYS[2])}
`
const CLOSE = `
redis.call('HSET', KEYS[1], 'state', '1', 'touched', ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('DEL', KEYS[2], KEYS[3])
redis.call('PUBLISH', ARGV[4], '1')
redis.call('PUBLISH', ARGV[5], '1')
return {'ok'}
`
const STATS_KEY = `${PREFIX}stats`

type Client = ReturnType<typeof createClient>

/** Connects to Redis at `url` and returns a channel store shared by every process using that server. */
export async function openRedisStore(url: string, limits: ChannelLimits): Promise<ChannelStore> {
  const client = connectable(url)
  try {
    await client.connect()
  } catch (err) {
    // The failed connect may already have closed the client; destroying it again throws.
    if (client.isOpen) client.destroy()
    throw unavailable(url, err)
  }
  return new RedisChannelStore(client, url, limits)
}

function connectable(url: string): Client {
  let everConnected = false
  const client = createClient({
    url,
    disableOfflineQueue: true,
    socket: {
      connectTimeout: 5000,
      // Give up quickly on the first connection (a wrong URL should fail now), retry for ever afterwards.
      reconnectStrategy: (retries: number) => (!everConnected && retries >= 2 ? new Error('cannot connect') : Math.min(50 * (retries + 1), 2000)),
    },
  })
  client.on('ready', () => {
    everConnected = true
  })
  // Errors surface on the failing command; an unhandled 'error' event would kill the process.
  client.on('error', () => {})
  return client
}

function unavailable(url: string, err: unknown): DuetError {
  const shown = url.replace(/\/\/[^@/]*@/, '//***@')
  return new DuetError(
    'STORE_UNAVAILABLE',
    `The Redis channel store at ${shown} cannot be reached (${err instanceof Error ? err.message : String(err)}). Check that Redis is running and the URL is right.`,
    undefined,
    { cause: err },
  )
}

const keysFor = (id: string, direction: Direction): string[] => {
  const other = direction === 'app-to-agent' ? 'agent-to-app' : 'app-to-agent'
  // The {id} hash tag keeps a channel's keys in one Redis Cluster slot, as multi-key scripts require.
  // Queues are sorted sets under new names (`:q:`), so a list left by an older Duet is never read as one.
  return [`${PREFIX}{${id}}:meta`, `${PREFIX}{${id}}:q:${direction}`, `${PREFIX}{${id}}:q:${other}`]
}
const bellChannel = (id: string, direction: Direction) => `${PREFIX}bell:${id}:${direction}`

class RedisChannelStore implements ChannelStore {
  readonly backend = 'redis' as const
  private readonly bell = new Bell()
  private subscriber: Promise<Client> | undefined
  private disposed = false

  constructor(
    private readonly client: Client,
    private readonly url: string,
    private readonly limits: ChannelLimits,
  ) {}

  private async run(script: string, id: string, direction: Direction, mode: string, extra: string[]): Promise<string[]> {
    if (this.disposed) throw new DuetError('DISPOSED', 'The channel store was disposed; open a new one.')
    const now = Date.now()
    let reply: unknown
    try {
      reply = await this.client.eval(script, {
        keys: keysFor(id, direction),
        arguments: [
          String(now),
          String(this.limits.idleTtlMs),
          String(this.limits.idleTtlMs * TOMBSTONE_TTL_FACTOR),
          mode,
          isMintedId(id) ? '1' : '0',
          ...extra,
        ],
      })
    } catch (err) {
      throw unavailable(this.url, err)
    }
    const out = (reply as Array<string | number>).map(String)
    if (out[0] === 'closed') throw closedError(id)
    if (out[0] === 'full') throw queueFullError(id, this.limits)
    if (out[0] === 'unknown') throw unknownChannelError(id, `redis at ${this.url.replace(/\/\/[^@/]*@/, '//***@')}`)
    if (out[0] === 'after') throw afterTooLarge(String(extra[0]))
    return out.slice(1)
  }

  /** One shared subscription to every bell, opened on the first wait and kept until dispose. */
  private subscribe(): Promise<Client> {
    this.subscriber ??= (async () => {
      const sub = this.client.duplicate()
      sub.on('error', () => {})
      await sub.connect()
      await sub.pSubscribe(`${PREFIX}bell:*`, (_message: string, channel: string) => {
        const rest = channel.slice(`${PREFIX}bell:`.length)
        const cut = rest.lastIndexOf(':')
        this.bell.ring(bellKey(rest.slice(0, cut), rest.slice(cut + 1)))
      })
      return sub
    })().catch((err) => {
      this.subscriber = undefined
      throw unavailable(this.url, err)
    })
    return this.subscriber
  }

  async open(): Promise<string> {
    const id = mintChannelId()
    await this.run(`${USE_CHANNEL}\nreturn {'ok'}`, id, 'app-to-agent', 'open', [])
    return id
  }

  async send(id: string, direction: Direction, message: OutgoingMessage): Promise<string> {
    checkChannelId(id)
    checkDirection(direction)
    const { event, json } = encodeMessage(message, this.limits)
    const [seq] = await this.run(SEND, id, direction, 'send', [String(this.limits.maxPending), JSON.stringify(event), json, bellChannel(id, direction)])
    return seq
  }

  async drain(id: string, direction: Direction, options: DrainOptions = {}): Promise<ChannelMessage[]> {
    checkChannelId(id)
    checkDirection(direction)
    const max = drainMax(options.max)
    const wait = waitMs(options.waitMs)
    if (wait > 0) await this.subscribe()
    const found = await waitFor(this.bell, bellKey(id, direction), { waitMs: wait, signal: options.signal, fallbackPollMs: FALLBACK_POLL_MS }, async () => {
      for (;;) {
        // Each entry comes back as "<score> <member>"; the score lets a refused batch go back in place.
        const taken = await this.run(TAKE, id, direction, 'drain', [String(max)])
        if (taken.length === 0) return undefined
        const entries = taken.map((t) => {
          const cut = t.indexOf(' ')
          return { score: Number(t.slice(0, cut)), raw: t.slice(cut + 1) }
        })
        const good = entries.flatMap((e) => {
          const message = parseStored(e.raw)
          return message ? [{ ...e, message }] : []
        })
        const setAside = entries.length - good.length
        if (setAside > 0) await this.client.hIncrBy(STATS_KEY, 'set_aside', setAside).catch(() => {})
        if (good.length === 0) continue
        const out = good.map((g) => g.message)
        try {
          options.accept?.(out)
        } catch (err) {
          await this.client
            .zAdd(
              keysFor(id, direction)[1],
              good.map((g) => ({ score: g.score, value: g.raw })),
            )
            .catch(() => {})
          throw err
        }
        return out
      }
    })
    return found ?? []
  }

  async read(id: string, direction: Direction, options: ReadOptions = {}): Promise<ChannelMessage[]> {
    checkChannelId(id)
    checkDirection(direction)
    const max = drainMax(options.max)
    const wait = waitMs(options.waitMs)
    if (options.after !== undefined) await this.ack(id, direction, options.after)
    const since = options.since === undefined ? '0' : String(checkAfter(options.since))
    if (wait > 0) await this.subscribe()
    const found = await waitFor(this.bell, bellKey(id, direction), { waitMs: wait, signal: options.signal, fallbackPollMs: FALLBACK_POLL_MS }, async () => {
      for (;;) {
        const items = await this.run(READ, id, direction, 'read', ['', String(max), since])
        if (items.length === 0) return undefined
        // Parse before anything is removed: a value that will not parse is set aside alone.
        const out: ChannelMessage[] = []
        const bad: string[] = []
        for (const raw of items) {
          const message = parseStored(raw)
          if (message) out.push(message)
          else bad.push(raw)
        }
        if (bad.length) await this.setAside(id, direction, bad)
        if (out.length) return out
      }
    })
    return found ?? []
  }

  private async setAside(id: string, direction: Direction, members: string[]): Promise<void> {
    try {
      const removed = await this.client.zRem(keysFor(id, direction)[1], members)
      if (removed > 0) await this.client.hIncrBy(STATS_KEY, 'set_aside', removed)
    } catch (err) {
      throw unavailable(this.url, err)
    }
  }

  async ack(id: string, direction: Direction, upTo: string): Promise<number> {
    checkChannelId(id)
    checkDirection(direction)
    checkAfter(upTo)
    const [removed] = await this.run(ACK, id, direction, 'ack', [upTo])
    return Number(removed)
  }

  async stats(): Promise<ChannelStats> {
    let value: string | undefined | null
    try {
      value = await this.client.hGet(STATS_KEY, 'set_aside')
    } catch (err) {
      throw unavailable(this.url, err)
    }
    return { backend: this.backend, setAside: Number(value ?? 0) }
  }

  async peek(id: string, direction: Direction): Promise<number> {
    checkChannelId(id)
    checkDirection(direction)
    const [count] = await this.run(PEEK, id, direction, 'peek', [])
    return Number(count)
  }

  async waitForMail(id: string, direction: Direction, wait: number, signal?: AbortSignal): Promise<number> {
    // Checked here too, so a bad request fails before it opens the subscriber connection.
    checkChannelId(id)
    checkDirection(direction)
    if (waitMs(wait, 'waitForMail: waitMs') > 0) await this.subscribe()
    return waitForPending(this.bell, { id, direction, wait, signal }, FALLBACK_POLL_MS, () => this.peek(id, direction))
  }

  async close(id: string): Promise<void> {
    checkChannelId(id)
    await this.run(CLOSE, id, 'app-to-agent', 'close', [...DIRECTIONS.map((d) => bellChannel(id, d))])
    for (const direction of DIRECTIONS) this.bell.ring(bellKey(id, direction))
  }

  /** Redis removes idle queues by itself (every key carries a TTL), so there is nothing to sweep. */
  async sweep(): Promise<number> {
    return 0
  }

  async dispose(): Promise<void> {
    if (this.disposed) return
    this.disposed = true
    this.bell.ringAll()
    const sub = await this.subscriber?.catch(() => undefined)
    sub?.destroy()
    this.client.destroy()
  }
}

/** One stored queue entry, or undefined when it is not a well-formed message (corrupt or hostile value). */
function parseStored(raw: string): ChannelMessage | undefined {
  let value: unknown
  try {
    value = JSON.parse(raw)
  } catch {
    return undefined
  }
  if (value === null || typeof value !== 'object') return undefined
  const { id, event, data, at } = value as Record<string, unknown>
  if (typeof id !== 'string' || typeof event !== 'string' || typeof at !== 'number') return undefined
  return depthOver(data, MAX_DEPTH) ? undefined : { id, event, data: data ?? null, at }
}
