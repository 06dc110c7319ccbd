import { createClient } from 'redis'
import { DuetError } from 'duetkit/protocol'

/** A connected node-redis client, as both Redis stores (channels, agent apps) use it. */
export type RedisClient = ReturnType<typeof createClient>

/** The URL with its password hidden, for messages and logs. */
export function redactRedisUrl(url: string): string {
  return url.replace(/\/\/[^@/]*@/, '//***@')
}

/** STORE_UNAVAILABLE for a Redis that cannot be reached or failed a command; `what` names the store. */
export function redisUnavailable(what: string, url: string, err: unknown): DuetError {
  return new DuetError(
    'STORE_UNAVAILABLE',
    `The Redis ${what} at ${redactRedisUrl(url)} cannot be reached (${err instanceof Error ? err.message : String(err)}). Check that Redis is running and the URL is right.`,
    undefined,
    { cause: err },
  )
}

/**
 * Connects to Redis at `url`. A wrong URL fails now (two quick retries); a server that goes away later is
 * retried for as long as it takes, and commands fail at once meanwhile (no offline queue) so a caller gets
 * STORE_UNAVAILABLE instead of hanging.
 */
export async function connectRedis(url: string, what: string): Promise<RedisClient> {
  let everConnected = false
  const client = createClient({
    url,
    disableOfflineQueue: true,
    socket: {
      connectTimeout: 5000,
      reconnectStrategy: (retries: number) => (!everConnected && retries >= 2 ? new Error('cannot connect') : Math.min(50 * (retries + 1), 2000)),
    },
  })
  client.on('ready', () => {
    everConnected = true
  })
  // Errors surface on the failing command; an unhandled 'error' event would end the process.
  client.on('error', () => {})
  try {
    await client.connect()
  } catch (err) {
    // The failed connect may already have closed the client; destroying it again throws.
    if (client.isOpen) client.destroy()
    throw redisUnavailable(what, url, err)
  }
  return client
}
