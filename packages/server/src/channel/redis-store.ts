import { createClient } from 'redis'
import { DuetError } from 'duetkit/protocol'
import { drainMax, encodeMessage, queueFullError, waitMs, type ChannelLimits } from './limits.js'
import {
  checkChannelId,
  checkDirection,
  closedError,
  DIRECTIONS,
  mintChannelId,
  type ChannelMessage,
  type ChannelStore,
  type Direction,
  type DrainOptions,
  type OutgoingMessage,
} from './store.js'
import { TOMBSTONE_TTL_FACTOR } from './sweeper.js'
import { Bell, bellKey, waitFor, waitForPending } from './wake.js'

// Rings travel by pub/sub; the poll only covers a reconnect that dropped a ring.
const FALLBACK_POLL_MS = 1_000
const PREFIX = 'duet:'

// Each script runs atomically in Redis, so checking the channel state and changing a queue never interleave
// with another process. Keys: 1 = channel hash, 2 = this direction's list, 3 = the other list.
// A channel hash outlives its lists (TOMBSTONE_TTL_FACTOR × TTL) so a closed or expired id keeps refusing calls.
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
if not meta[1] and ARGV[4] == 'peek' then return {'ok', 0} end
redis.call('HSET', KEYS[1], 'state', '0', 'touched', now)
redis.call('PEXPIRE', KEYS[1], tomb)
redis.call('PEXPIRE', KEYS[2], ttl)
redis.call('PEXPIRE', KEYS[3], ttl)
`
const SEND = `${USE_CHANNEL}
if redis.call('LLEN', KEYS[2]) >= tonumber(ARGV[5]) then return {'full'} end
local id = redis.call('HINCRBY', KEYS[1], 'seq', 1)
redis.call('RPUSH', KEYS[2], '{"id":"' .. id .. '","event":' .. ARGV[6] .. ',"data":' .. ARGV[7] .. ',"at":' .. ARGV[1] .. '}')
redis.call('PEXPIRE', KEYS[2], ttl)
redis.call('PUBLISH', ARGV[8], '1')
return {'ok', tostring(id)}
`
const DRAIN = `${USE_CHANNEL}
local items = redis.call('LPOP', KEYS[2], tonumber(ARGV[5]))
local out = {'ok'}
if items then for _, v in ipairs(items) do out[#out + 1] = v end end
return out
`
const PEEK = `${USE_CHANNEL}
return {'ok', redis.call('LLEN', KEYS[2])}
`
const CLOSE = `
redis.call('HSET', KEYS[1], 'state', '1', 'touched', ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('DEL', KEYS[2], KEYS[3])
redis.call('PUBLISH', ARGV[4], '1')
redis.call('PUBLISH', ARGV[5], '1')
return {'ok'}
`

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
  return [`${PREFIX}{${id}}:meta`, `${PREFIX}{${id}}:${direction}`, `${PREFIX}{${id}}:${other}`]
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

  private async run(script: string, id: string, direction: Direction, extra: string[]): Promise<string[]> {
    if (this.disposed) throw new DuetError('DISPOSED', 'The channel store was disposed; open a new one.')
    const now = Date.now()
    let reply: unknown
    try {
      reply = await this.client.eval(script, {
        keys: keysFor(id, direction),
        arguments: [String(now), String(this.limits.idleTtlMs), String(this.limits.idleTtlMs * TOMBSTONE_TTL_FACTOR), ...extra],
      })
    } catch (err) {
      throw unavailable(this.url, err)
    }
    const out = (reply as Array<string | number>).map(String)
    if (out[0] === 'closed') throw closedError(id)
    if (out[0] === 'full') throw queueFullError(id, this.limits)
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
    await this.run(`${USE_CHANNEL}\nreturn {'ok'}`, id, 'app-to-agent', ['open'])
    return id
  }

  async send(id: string, direction: Direction, message: OutgoingMessage): Promise<string> {
    checkChannelId(id)
    checkDirection(direction)
    const { event, json } = encodeMessage(message, this.limits)
    const [seq] = await this.run(SEND, id, direction, ['send', String(this.limits.maxPending), JSON.stringify(event), json, bellChannel(id, direction)])
    return seq
  }

  async drain(id: string, direction: Direction, options: DrainOptions = {}): Promise<ChannelMessage[]> {
    checkChannelId(id)
    checkDirection(direction)
    const max = drainMax(options.max)
    const wait = waitMs(options.waitMs)
    if (wait > 0) await this.subscribe()
    const found = await waitFor(this.bell, bellKey(id, direction), { waitMs: wait, signal: options.signal, fallbackPollMs: FALLBACK_POLL_MS }, async () => {
      const items = await this.run(DRAIN, id, direction, ['drain', String(max)])
      return items.length ? items.map((raw) => JSON.parse(raw) as ChannelMessage) : undefined
    })
    return found ?? []
  }

  async peek(id: string, direction: Direction): Promise<number> {
    checkChannelId(id)
    checkDirection(direction)
    const [count] = await this.run(PEEK, id, direction, ['peek'])
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
    await this.run(CLOSE, id, 'app-to-agent', [...DIRECTIONS.map((d) => bellChannel(id, d))])
    this.bell.ringAll()
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
