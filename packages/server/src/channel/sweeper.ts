/** A closed or expired channel id keeps refusing calls for this many idle TTLs before it is forgotten. */
export const TOMBSTONE_TTL_FACTOR = 7

/**
 * Runs `sweep` now and then (half the idle TTL, between 1 s and 10 min) without keeping the process
 * alive; a failing sweep is retried next time rather than crashing the server.
 */
export function startSweeper(idleTtlMs: number, sweep: () => Promise<unknown>): () => void {
  const every = Math.min(Math.max(idleTtlMs / 2, 1000), 10 * 60 * 1000)
  const timer = setInterval(() => {
    sweep().catch(() => {})
  }, every)
  timer.unref()
  return () => clearInterval(timer)
}
