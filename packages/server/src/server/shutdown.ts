type Close = () => Promise<void>

const closers = new Set<Close>()
let installed = false

/**
 * On SIGINT or SIGTERM, closes every registered server (letting in-flight requests finish) and exits 0.
 * A second signal while closing exits at once with 130, for a user who will not wait.
 */
export function closeOnSignals(close: Close): void {
  closers.add(close)
  if (installed) return
  installed = true
  let stopping = false
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(130)
    stopping = true
    void Promise.allSettled([...closers].map((c) => c())).then((results) => {
      const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected')
      if (failed) process.stderr.write(`duet: error while closing on ${signal}: ${String(failed.reason?.message ?? failed.reason)}\n`)
      process.exit(failed ? 1 : 0)
    })
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}
