/**
 * The Redis URL a command uses: `--redis-url` if given, else `$DUET_REDIS_URL`, else none (SQLite in
 * the data folder). Every command reads it the same way, so `duet serve` replicas and the `duet wait`
 * an agent runs beside them agree on one store with one environment variable.
 * An explicit `--data-dir` beats `$DUET_REDIS_URL` (a flag beats the environment); both flags at once are a mistake.
 * Returns the URL, or an error text naming where the bad value came from.
 */
export function resolveRedisUrl(flag: string | undefined, dataDirFlag?: string): { url?: string; problem?: string } {
  if (flag !== undefined && dataDirFlag !== undefined) return { problem: 'choose one of --data-dir or --redis-url' }
  if (dataDirFlag !== undefined) return {}
  const fromEnv = process.env.DUET_REDIS_URL?.trim() ? process.env.DUET_REDIS_URL.trim() : undefined
  const url = flag ?? fromEnv
  if (url === undefined) return {}
  if (!/^rediss?:\/\/[^\s]+$/.test(url)) {
    const shown = url.replace(/\/\/[^@/]*@/, '//***@')
    return { problem: `${flag !== undefined ? '--redis-url' : 'DUET_REDIS_URL'} must be a Redis URL like redis://127.0.0.1:6379, got '${shown}'` }
  }
  return { url }
}
