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
  ownerOf,
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
// bytes, 7 = counters, 8 = each channel's owner (hash). Each owner (a subject's or a client address's space) has
// its own open set and byte counter beside the store-wide ones, named from the owner in the script
// (`duet:quota:o:<owner>:open|bytes`). Queues are sorted sets scored by message id, so a read can leave messages
// in place and an acknowledgement removes a prefix by score. ARGV: 1 now, 2 ttl, 3 tombstone ttl, 4 mode, 5 flags
// ('1'/'0' for a minted id, then for an app-side call), 6 channel id, 7 max channels, 8 max bytes, 9 the owner a
// new channel is charged to ('' for none), 10 max channels per owner, 11 max bytes per owner; the rest (12…) per
// script. A channel hash outlives its queues (TOMBSTONE_TTL_FACTOR × TTL) so a closed or expired id keeps
// refusing calls. Bytes are counted as stored (each entry with its JSON envelope) and kept current by every script
// that adds or removes entries; a channel Redis expired by itself is found by its stale score in key 4 and its
// bytes returned. A counter that is not an integer (hand-edited, or written by something else) is recounted from
// what it counts before anything uses it, so it costs one slow call instead of failing every send.
const PRELUDE = `
local now, ttl, tomb = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local id = ARGV[6]
local OWNER = '${PREFIX}quota:o:'
local owner = redis.call('HGET', KEYS[8], id) or ARGV[9]
local function integer(raw)
  local n = tonumber(raw)
  if n and n == math.floor(n) then return n end
  return nil
end
local function counter(key, recount)
  local raw = redis.call('GET', key)
  if not raw then return 0 end
  local n = integer(raw)
  if n then return n end
  n = recount()
  redis.call('SET', key, n)
  return n
end
local function sizeOfItems(items)
  local n = 0
  for _, v in ipairs(items) do n = n + #v end
  return n
end
local function sizeOf(cid)
  local raw = redis.call('HGET', KEYS[5], cid)
  if not raw then return 0 end
  local n = integer(raw)
  if n then return n end
  n = 0
  for _, d in ipairs({'app-to-agent', 'agent-to-app'}) do n = n + sizeOfItems(redis.call('ZRANGE', '${PREFIX}{' .. cid .. '}:q:' .. d, 0, -1)) end
  redis.call('HSET', KEYS[5], cid, n)
  return n
end
local function totalBytes()
  return counter(KEYS[6], function()
    local n = 0
    for _, cid in ipairs(redis.call('HKEYS', KEYS[5])) do n = n + sizeOf(cid) end
    return n
  end)
end
local function ownerBytes(o)
  return counter(OWNER .. o .. ':bytes', function()
    local n = 0
    for _, cid in ipairs(redis.call('ZRANGE', OWNER .. o .. ':open', 0, -1)) do n = n + sizeOf(cid) end
    return n
  end)
end
sizeOf(id)
totalBytes()
if owner ~= '' then ownerBytes(owner) end
local function forget(cid)
  local size = sizeOf(cid)
  local o = redis.call('HGET', KEYS[8], cid)
  if size ~= 0 then redis.call('DECRBY', KEYS[6], size) end
  if o and o ~= '' then
    if size ~= 0 then
      ownerBytes(o)
      -- An owner holding nothing leaves no key behind.
      if redis.call('DECRBY', OWNER .. o .. ':bytes', size) == 0 then redis.call('DEL', OWNER .. o .. ':bytes') end
    end
    redis.call('ZREM', OWNER .. o .. ':open', cid)
  end
  redis.call('HDEL', KEYS[8], cid)
  redis.call('HDEL', KEYS[5], cid)
  redis.call('ZREM', KEYS[4], cid)
end
local function account(delta)
  if delta ~= 0 then
    redis.call('HINCRBY', KEYS[5], id, delta)
    redis.call('INCRBY', KEYS[6], delta)
    if owner ~= '' and redis.call('INCRBY', OWNER .. owner .. ':bytes', delta) == 0 then redis.call('DEL', OWNER .. owner .. ':bytes') end
  end
end
local function expireIdle()
  for _, cid in ipairs(redis.call('ZRANGEBYSCORE', KEYS[4], '-inf', '(' .. (now - ttl), 'LIMIT', 0, 1000)) do forget(cid) end
end
`
// Using a channel is a check (closed, expired, unknown, the channel quotas) and then a commit (create or touch
// it, mark an app's use). SEND puts its own refusals (full, the byte quotas) in between, so a refused send leaves
// no channel behind and marks nothing, as the other backends' do.
const USE_CHECK = `${PRELUDE}
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
  if owner ~= '' then
    if redis.call('ZCARD', OWNER .. owner .. ':open') >= tonumber(ARGV[10]) then expireIdle() end
    local mine = redis.call('ZCARD', OWNER .. owner .. ':open')
    if mine >= tonumber(ARGV[10]) then return {'subject-channels', mine} end
  end
end
if meta[1] and not redis.call('HGET', KEYS[8], id) then
  redis.call('HSET', KEYS[8], id, owner)
  -- A channel from before owners were kept brings its bytes along (before SEND weighs the owner's bytes).
  if owner ~= '' then redis.call('INCRBY', OWNER .. owner .. ':bytes', sizeOf(id)) end
end
`
const USE_COMMIT = `
if not meta[1] then redis.call('HSET', KEYS[8], id, owner) end
redis.call('HSET', KEYS[1], 'state', '0', 'touched', now)
if string.sub(ARGV[5], 2, 2) == '1' then redis.call('HSET', KEYS[1], 'app', '1') end
redis.call('ZADD', KEYS[4], now, id)
if owner ~= '' then redis.call('ZADD', OWNER .. owner .. ':open', now, id) end
redis.call('PEXPIRE', KEYS[1], tomb)
redis.call('PEXPIRE', KEYS[2], ttl)
redis.call('PEXPIRE', KEYS[3], ttl)
`
const USE_CHANNEL = `${USE_CHECK}${USE_COMMIT}`
// Ids follow the Redis server's clock (milliseconds) and never step back: after a restart that lost the data
// the counter starts again from the clock, not from 1, so an id is never handed out twice.
// ARGV[12] = max pending, 13 = event (JSON), 14 = data (JSON), 15 = the bell to ring.
const SEND = `${USE_CHECK}
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[12]) then return {'full'} end
local t = redis.call('TIME')
local clock = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
-- The message's id (\`id\` stays the channel's, which the commit below uses).
local mid = math.max(tonumber(redis.call('HGET', KEYS[1], 'seq') or '0') + 1, clock)
local entry = '{"id":"' .. tostring(mid) .. '","event":' .. ARGV[13] .. ',"data":' .. ARGV[14] .. ',"at":' .. ARGV[1] .. '}'
local used = totalBytes()
if used + #entry > tonumber(ARGV[8]) then
  expireIdle()
  used = totalBytes()
  if used + #entry > tonumber(ARGV[8]) then return {'bytes', used, #entry} end
end
if owner ~= '' then
  local mine = ownerBytes(owner)
  if mine + #entry > tonumber(ARGV[11]) then
    expireIdle()
    mine = ownerBytes(owner)
    if mine + #entry > tonumber(ARGV[11]) then return {'subject-bytes', mine, #entry} end
  end
end
${USE_COMMIT}
redis.call('HSET', KEYS[1], 'seq', tostring(mid))
redis.call('ZADD', KEYS[2], mid, entry)
account(#entry)
redis.call('PEXPIRE', KEYS[2], ttl)
redis.call('PUBLISH', ARGV[15], '1')
return {'ok', tostring(mid)}
`
// ARGV[12] = acknowledge up to this id ('' for none). A cursor past the newest id is refused before the
// commit, so on a first use it makes no channel.
const ACK_CHECK = `
if ARGV[12] ~= '' and tonumber(ARGV[12]) > tonumber(redis.call('HGET', KEYS[1], 'seq') or '0') then return {'after'} end
`
const ACK_PART = `
local removed = 0
if ARGV[12] ~= '' then
  account(-sizeOfItems(redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', ARGV[12])))
  removed = redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[12])
end
`
// ARGV[13] = max, ARGV[14] = only ids above this one.
const READ = `${USE_CHECK}${ACK_CHECK}${USE_COMMIT}${ACK_PART}
local items = redis.call('ZRANGEBYSCORE', KEYS[2], '(' .. ARGV[14], '+inf', 'LIMIT', 0, tonumber(ARGV[13]))
local out = {'ok'}
for _, v in ipairs(items) do out[#out + 1] = v end
return out
`
// Takes (returns and removes) the oldest ARGV[12] entries at once, so concurrent drains never share one.
const TAKE = `${USE_CHANNEL}
local items = redis.call('ZPOPMIN', KEYS[2], tonumber(ARGV[12]))
local out = {'ok'}
local freed = 0
for i = 1, #items, 2 do
  out[#out + 1] = items[i + 1] .. ' ' .. items[i]
  freed = freed + #items[i]
end
account(-freed)
return out
`
// A drain whose reply could not be built puts its batch back: ARGV[12…] alternate score and entry.
const PUT_BACK = `${PRELUDE}
local added = 0
for i = 12, #ARGV, 2 do
  if redis.call('ZADD', KEYS[2], tonumber(ARGV[i]), ARGV[i + 1]) == 1 then added = added + #ARGV[i + 1] end
end
account(added)
return {'ok'}
`
// Sets unreadable entries (ARGV[12…]) aside: out of the queue, their bytes returned, counted (for the owner too).
const SET_ASIDE = `${PRELUDE}
local removed = 0
for i = 12, #ARGV do
  if redis.call('ZREM', KEYS[2], ARGV[i]) == 1 then
    removed = removed + 1
    account(-#ARGV[i])
  end
end
if removed > 0 then
  redis.call('HINCRBY', KEYS[7], 'set_aside', removed)
  if owner ~= '' then redis.call('HINCRBY', KEYS[7], 'set_aside:' .. owner, removed) end
end
return {'ok', removed}
`
const ACK = `${USE_CHECK}${ACK_CHECK}${USE_COMMIT}${ACK_PART}
return {'ok', removed}
`
const PEEK = `${USE_CHANNEL}
return {'ok', redis.call('ZCARD', KEYS[2])}
`
// ARGV[12], ARGV[13] = the two bells to ring.
const CLOSE = `${PRELUDE}
redis.call('HSET', KEYS[1], 'state', '1', 'touched', ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('DEL', KEYS[2], KEYS[3])
forget(id)
redis.call('PUBLISH', ARGV[12], '1')
redis.call('PUBLISH', ARGV[13], '1')
return {'ok'}
`
// The store's counters, or with ARGV[9] one owner's: bytes (recounted if corrupt), open channels, set-aside rows.
const STATS = `${PRELUDE}
local o = ARGV[9]
if o == '' then
  return {'ok', totalBytes(), redis.call('ZCOUNT', KEYS[4], now - ttl, '+inf'), redis.call('HGET', KEYS[7], 'set_aside') or '0'}
end
return {'ok', ownerBytes(o), redis.call('ZCOUNT', OWNER .. o .. ':open', now - ttl, '+inf'), redis.call('HGET', KEYS[7], 'set_aside:' .. o) or '0'}
`
const STATS_KEY = `${PREFIX}stats`
const QUOTA_KEYS = [`${PREFIX}quota:open`, `${PREFIX}quota:size`, `${PREFIX}quota:bytes`, STATS_KEY, `${PREFIX}quota:owner`]

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

  private async run(script: string, id: string, direction: Direction, mode: string, extra: string[], owner = ''): Promise<string[]> {
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
          owner,
          String(this.limits.maxChannelsPerSubject),
          String(this.limits.maxStoreBytesPerSubject),
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
    if (out[0] === 'subject-channels') throw quotaError('maxChannelsPerSubject', this.limits.maxChannelsPerSubject, Number(out[1]))
    if (out[0] === 'subject-bytes') throw quotaError('maxStoreBytesPerSubject', this.limits.maxStoreBytesPerSubject, Number(out[1]), Number(out[2]))
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

  async open(scope?: string, owner?: string): Promise<string> {
    const id = mintChannelId(scope)
    await this.run(`${USE_CHANNEL}\nreturn {'ok'}`, id, 'app-to-agent', 'open', [], ownerOf(id, owner))
    return id
  }

  async send(id: string, direction: Direction, message: OutgoingMessage, owner?: string): Promise<string> {
    checkChannelId(id)
    checkDirection(direction)
    const { event, json } = encodeMessage(message, this.limits)
    const extra = [String(this.limits.maxPending), JSON.stringify(event), json, bellChannel(id, direction)]
    const [seq] = await this.run(SEND, id, direction, 'send', extra, ownerOf(id, owner))
    return seq
  }

  async drain(id: string, direction: Direction, options: DrainOptions = {}): Promise<ChannelMessage[]> {
    checkChannelId(id)
    checkDirection(direction)
    const max = drainMax(options.max)
    const wait = waitMs(options.waitMs)
    const owner = ownerOf(id, options.owner)
    if (wait > 0) await this.subscribe()
    const found = await waitFor(this.bell, bellKey(id, direction), { waitMs: wait, signal: options.signal, fallbackPollMs: FALLBACK_POLL_MS }, async () => {
      for (;;) {
        // Each entry comes back as "<score> <member>"; the score lets a refused batch go back in place.
        const taken = await this.run(TAKE, id, direction, 'drain', [String(max)], owner)
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
          if (owner !== '') await this.client.hIncrBy(STATS_KEY, `set_aside:${owner}`, setAside).catch(() => {})
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
    const owner = ownerOf(id, options.owner)
    if (options.after !== undefined) await this.ack(id, direction, options.after, options.owner)
    const since = options.since === undefined ? '0' : String(checkAfter(options.since))
    if (wait > 0) await this.subscribe()
    const found = await waitFor(this.bell, bellKey(id, direction), { waitMs: wait, signal: options.signal, fallbackPollMs: FALLBACK_POLL_MS }, async () => {
      for (;;) {
        const items = await this.run(READ, id, direction, 'read', ['', String(max), since], owner)
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
    const [removed] = await this.run(SET_ASIDE, id, direction, 'set-aside', members, ownerOf(id))
    this.setAsideListeners.emit({ channelId: id, direction, count: Number(removed) })
  }

  async ack(id: string, direction: Direction, upTo: string, owner?: string): Promise<number> {
    checkChannelId(id)
    checkDirection(direction)
    checkAfter(upTo)
    const [removed] = await this.run(ACK, id, direction, 'ack', [upTo], ownerOf(id, owner))
    return Number(removed)
  }

  async stats(owner?: string): Promise<ChannelStats> {
    const mine = owner === undefined ? '' : ownerOf('', owner)
    // A script, so a corrupt counter is repaired here too instead of showing NaN.
    const [bytes, channels, setAside] = await this.run(STATS, '', 'app-to-agent', 'stats', [], mine)
    const limits =
      mine === ''
        ? { bytes: this.limits.maxStoreBytes, channels: this.limits.maxChannels }
        : { bytes: this.limits.maxStoreBytesPerSubject, channels: this.limits.maxChannelsPerSubject }
    return { backend: this.backend, setAside: Number(setAside), bytes: Number(bytes), channels: Number(channels), limits }
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
