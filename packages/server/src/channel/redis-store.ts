import { DuetError } from 'duetkit/protocol'
import { depthOver, drainMax, MAX_DEPTH, encodeMessage, queueFullError, quotaError, waitMs, type ChannelLimits } from './limits.js'
import { SetAsideListeners } from './set-aside.js'
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
  type SetAsideEvent,
} from './store.js'
import { connectRedis, redactRedisUrl, redisUnavailable, type RedisClient } from './redis-connection.js'
import { TOMBSTONE_TTL_FACTOR } from './sweeper.js'
import { Bell, bellKey, waitFor, waitForPending } from './wake.js'

// Rings travel by pub/sub; the poll only covers a reconnect that dropped a ring.
const FALLBACK_POLL_MS = 1_000
const PREFIX = 'duet:'

// Each script runs atomically in Redis, so checking the channel state and changing a queue never interleave
// with another process. Keys: 1 = channel hash, 2 = this direction's queue, 3 = the other queue, then the
// store-wide quota keys: 4 = open channels (sorted set by last touch), 5 = bytes per channel (hash), 6 = total
// bytes, 7 = counters. Queues are sorted sets scored by message id, so a read can leave messages in place and an
// acknowledgement removes a prefix by score. ARGV: 1 now, 2 ttl, 3 tombstone ttl, 4 mode, 5 flags ('1'/'0' for
// a minted id, then for an app-side call), 6 channel id, 7 max channels, 8 max bytes; the rest (9…) per script.
// A channel hash outlives its queues (TOMBSTONE_TTL_FACTOR × TTL) so a closed or expired id keeps refusing calls.
// Bytes are counted as stored (each entry with its JSON envelope) and kept current by every script that adds or
// removes entries; a channel Redis expired by itself is found by its stale score in key 4 and its bytes returned.
const PRELUDE = `
local now, ttl, tomb = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local id = ARGV[6]
local function forget(cid)
  local size = tonumber(redis.call('HGET', KEYS[5], cid) or '0')
  if size ~= 0 then redis.call('DECRBY', KEYS[6], size) end
  redis.call('HDEL', KEYS[5], cid)
  redis.call('ZREM', KEYS[4], cid)
end
local function account(delta)
  if delta ~= 0 then
    redis.call('HINCRBY', KEYS[5], id, delta)
    redis.call('INCRBY', KEYS[6], delta)
  end
end
local function sizeOf(items)
  local n = 0
  for _, v in ipairs(items) do n = n + #v end
  return n
end
local function expireIdle()
  for _, cid in ipairs(redis.call('ZRANGEBYSCORE', KEYS[4], '-inf', '(' .. (now - ttl), 'LIMIT', 0, 1000)) do forget(cid) end
end
`
const USE_CHANNEL = `${PRELUDE}
local meta = redis.call('HMGET', KEYS[1], 'state', 'touched')
if meta[1] and meta[1] ~= '0' then return {'closed'} end
if meta[1] and tonumber(meta[2]) < now - ttl then
  redis.call('HSET', KEYS[1], 'state', '2', 'touched', now)
  redis.call('PEXPIRE', KEYS[1], tomb)
  redis.call('DEL', KEYS[2], KEYS[3])
  forget(id)
  return {'closed'}
end
if not meta[1] and string.sub(ARGV[5], 1, 1) == '1' and ARGV[4] ~= 'open' then return {'unknown'} end
if not meta[1] and ARGV[4] == 'peek' then return {'ok', 0} end
if not meta[1] then
  forget(id)
  if redis.call('ZCARD', KEYS[4]) >= tonumber(ARGV[7]) then expireIdle() end
  local open = redis.call('ZCARD', KEYS[4])
  if open >= tonumber(ARGV[7]) then return {'channels', open} end
end
redis.call('HSET', KEYS[1], 'state', '0', 'touched', now)
if string.sub(ARGV[5], 2, 2) == '1' then redis.call('HSET', KEYS[1], 'app', '1') end
redis.call('ZADD', KEYS[4], now, id)
redis.call('PEXPIRE', KEYS[1], tomb)
redis.call('PEXPIRE', KEYS[2], ttl)
redis.call('PEXPIRE', KEYS[3], ttl)
`
// Ids follow the Redis server's clock (milliseconds) and never step back: after a restart that lost the data
// the counter starts again from the clock, not from 1, so an id is never handed out twice.
// ARGV[9] = max pending, 10 = event (JSON), 11 = data (JSON), 12 = the bell to ring.
const SEND = `${USE_CHANNEL}
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[9]) then return {'full'} end
local t = redis.call('TIME')
local clock = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local id = math.max(tonumber(redis.call('HGET', KEYS[1], 'seq') or '0') + 1, clock)
local entry = '{"id":"' .. tostring(id) .. '","event":' .. ARGV[10] .. ',"data":' .. ARGV[11] .. ',"at":' .. ARGV[1] .. '}'
local used = tonumber(redis.call('GET', KEYS[6]) or '0')
if used + #entry > tonumber(ARGV[8]) then
  expireIdle()
  used = tonumber(redis.call('GET', KEYS[6]) or '0')
  if used + #entry > tonumber(ARGV[8]) then return {'bytes', used, #entry} end
end
redis.call('HSET', KEYS[1], 'seq', tostring(id))
redis.call('ZADD', KEYS[2], id, entry)
account(#entry)
redis.call('PEXPIRE', KEYS[2], ttl)
redis.call('PUBLISH', ARGV[12], '1')
return {'ok', tostring(id)}
`
// ARGV[9] = acknowledge up to this id ('' for none).
const ACK_PART = `
local removed = 0
if ARGV[9] ~= '' then
  if tonumber(ARGV[9]) > tonumber(redis.call('HGET', KEYS[1], 'seq') or '0') then return {'after'} end
  account(-sizeOf(redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', ARGV[9])))
  removed = redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[9])
end
`
// ARGV[10] = max, ARGV[11] = only ids above this one.
const READ = `${USE_CHANNEL}${ACK_PART}
local items = redis.call('ZRANGEBYSCORE', KEYS[2], '(' .. ARGV[11], '+inf', 'LIMIT', 0, tonumber(ARGV[10]))
local out = {'ok'}
for _, v in ipairs(items) do out[#out + 1] = v end
return out
`
// Takes (returns and removes) the oldest ARGV[9] entries at once, so concurrent drains never share one.
const TAKE = `${USE_CHANNEL}
local items = redis.call('ZPOPMIN', KEYS[2], tonumber(ARGV[9]))
local out = {'ok'}
local freed = 0
for i = 1, #items, 2 do
  out[#out + 1] = items[i + 1] .. ' ' .. items[i]
  freed = freed + #items[i]
end
account(-freed)
return out
`
// A drain whose reply could not be built puts its batch back: ARGV[9…] alternate score and entry.
const PUT_BACK = `${PRELUDE}
local added = 0
for i = 9, #ARGV, 2 do
  if redis.call('ZADD', KEYS[2], tonumber(ARGV[i]), ARGV[i + 1]) == 1 then added = added + #ARGV[i + 1] end
end
account(added)
return {'ok'}
`
// Sets unreadable entries (ARGV[9…]) aside: out of the queue, their bytes returned, counted.
const SET_ASIDE = `${PRELUDE}
local removed = 0
for i = 9, #ARGV do
  if redis.call('ZREM', KEYS[2], ARGV[i]) == 1 then
    removed = removed + 1
    account(-#ARGV[i])
  end
end
if removed > 0 then redis.call('HINCRBY', KEYS[7], 'set_aside', removed) end
return {'ok', removed}
`
const ACK = `${USE_CHANNEL}${ACK_PART}
return {'ok', removed}
`
const PEEK = `${USE_CHANNEL}
return {'ok', redis.call('ZCARD', KEYS[2])}
`
// ARGV[9], ARGV[10] = the two bells to ring.
const CLOSE = `${PRELUDE}
redis.call('HSET', KEYS[1], 'state', '1', 'touched', ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('DEL', KEYS[2], KEYS[3])
forget(id)
redis.call('PUBLISH', ARGV[9], '1')
redis.call('PUBLISH', ARGV[10], '1')
return {'ok'}
`
const STATS_KEY = `${PREFIX}stats`
const QUOTA_KEYS = [`${PREFIX}quota:open`, `${PREFIX}quota:size`, `${PREFIX}quota:bytes`, STATS_KEY]

type Client = RedisClient
const STORE = 'channel store'
const unavailable = (url: string, err: unknown) => redisUnavailable(STORE, url, err)

/** Connects to Redis at `url` and returns a channel store shared by every process using that server. */
export async function openRedisStore(url: string, limits: ChannelLimits): Promise<ChannelStore> {
  return new RedisChannelStore(await connectRedis(url, STORE), url, limits)
}

const keysFor = (id: string, direction: Direction): string[] => {
  const other = direction === 'app-to-agent' ? 'agent-to-app' : 'app-to-agent'
  // The {id} hash tag keeps a channel's keys in one Redis Cluster slot, as multi-key scripts require.
  // Queues are sorted sets under new names (`:q:`), so a list left by an older Duet is never read as one.
  // The quota keys are store-wide, so scripts span slots: a Redis Cluster is not supported (one server or a replica set is).
  return [`${PREFIX}{${id}}:meta`, `${PREFIX}{${id}}:q:${direction}`, `${PREFIX}{${id}}:q:${other}`, ...QUOTA_KEYS]
}
/** Sends to the agent and reads of the agent's messages come from the app; `open` is a display or open_channel. */
const isAppSide = (mode: string, direction: Direction) =>
  mode === 'open' || (mode === 'send' ? direction === 'app-to-agent' : mode !== 'peek' && direction === 'agent-to-app')
const bellChannel = (id: string, direction: Direction) => `${PREFIX}bell:${id}:${direction}`

class RedisChannelStore implements ChannelStore {
  readonly backend = 'redis' as const
  private readonly bell = new Bell()
  private subscriber: Promise<Client> | undefined
  private disposed = false
  private readonly setAsideListeners = new SetAsideListeners()

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
          `${isMintedId(id) ? '1' : '0'}${isAppSide(mode, direction) ? '1' : '0'}`,
          id,
          String(this.limits.maxChannels),
          String(this.limits.maxStoreBytes),
          ...extra,
        ],
      })
    } catch (err) {
      throw unavailable(this.url, err)
    }
    const out = (reply as Array<string | number>).map(String)
    if (out[0] === 'closed') throw closedError(id)
    if (out[0] === 'full') throw queueFullError(id, this.limits)
    if (out[0] === 'unknown') throw unknownChannelError(id, `redis at ${redactRedisUrl(this.url)}`)
    if (out[0] === 'after') throw afterTooLarge(String(extra[0]))
    if (out[0] === 'channels') throw quotaError('maxChannels', this.limits.maxChannels, Number(out[1]))
    if (out[0] === 'bytes') throw quotaError('maxStoreBytes', this.limits.maxStoreBytes, Number(out[1]), Number(out[2]))
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

  async open(scope?: string): Promise<string> {
    const id = mintChannelId(scope)
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
        if (setAside > 0) {
          await this.client.hIncrBy(STATS_KEY, 'set_aside', setAside).catch(() => {})
          this.setAsideListeners.emit({ channelId: id, direction, count: setAside })
        }
        if (good.length === 0) continue
        const out = good.map((g) => g.message)
        try {
          options.accept?.(out)
        } catch (err) {
          await this.run(
            PUT_BACK,
            id,
            direction,
            'put-back',
            good.flatMap((g) => [String(g.score), g.raw]),
          ).catch(() => {})
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
    const [removed] = await this.run(SET_ASIDE, id, direction, 'set-aside', members)
    this.setAsideListeners.emit({ channelId: id, direction, count: Number(removed) })
  }

  async ack(id: string, direction: Direction, upTo: string): Promise<number> {
    checkChannelId(id)
    checkDirection(direction)
    checkAfter(upTo)
    const [removed] = await this.run(ACK, id, direction, 'ack', [upTo])
    return Number(removed)
  }

  async stats(): Promise<ChannelStats> {
    const [open, , bytes] = QUOTA_KEYS
    let values: [string | null | undefined, string | null, number]
    try {
      values = await Promise.all([
        this.client.hGet(STATS_KEY, 'set_aside'),
        this.client.get(bytes),
        this.client.zCount(open, Date.now() - this.limits.idleTtlMs, '+inf'),
      ])
    } catch (err) {
      throw unavailable(this.url, err)
    }
    return { backend: this.backend, setAside: Number(values[0] ?? 0), bytes: Number(values[1] ?? 0), channels: values[2] }
  }

  async appSeen(id: string): Promise<boolean> {
    checkChannelId(id)
    try {
      return (await this.client.hGet(keysFor(id, 'app-to-agent')[0], 'app')) === '1'
    } catch (err) {
      throw unavailable(this.url, err)
    }
  }

  onSetAside(listener: (event: SetAsideEvent) => void): () => void {
    return this.setAsideListeners.add(listener)
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
