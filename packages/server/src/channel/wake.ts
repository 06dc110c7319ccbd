import { watch, type FSWatcher } from 'node:fs'
import { waitMs } from './limits.js'
import { checkChannelId, checkDirection, type Direction } from './store.js'

/**
 * In-process wake-ups for waiting drains. A ring means "something may have changed": a woken waiter
 * always re-reads the store, so extra rings cost a query and a missed ring only costs the fallback poll.
 */
export class Bell {
  private readonly waiters = new Map<string, Set<() => void>>()
  private count = 0
  private readonly onFirst: () => void
  private readonly onLast: () => void

  /** `onFirst`/`onLast` let a store hold a watcher or subscription only while someone waits. */
  constructor(hooks: { onFirst?: () => void; onLast?: () => void } = {}) {
    this.onFirst = hooks.onFirst ?? (() => {})
    this.onLast = hooks.onLast ?? (() => {})
  }

  /** Registers interest before the caller checks the store, so a send in between is not missed. */
  arm(key: string): { rung: Promise<void>; disarm: () => void } {
    let resolve!: () => void
    const rung = new Promise<void>((r) => {
      resolve = r
    })
    let set = this.waiters.get(key)
    if (!set) this.waiters.set(key, (set = new Set()))
    set.add(resolve)
    if (this.count++ === 0) this.onFirst()
    let armed = true
    const disarm = () => {
      if (!armed) return
      armed = false
      const s = this.waiters.get(key)
      s?.delete(resolve)
      if (s && s.size === 0) this.waiters.delete(key)
      if (--this.count === 0) this.onLast()
    }
    return { rung, disarm }
  }

  /** Wakes everyone waiting on `key`. */
  ring(key: string): void {
    const set = this.waiters.get(key)
    if (set) for (const wake of [...set]) wake()
  }

  /** Wakes every waiter (used when the source of a change is unknown, e.g. another process wrote). */
  ringAll(): void {
    for (const set of [...this.waiters.values()]) for (const wake of [...set]) wake()
  }

  /** True while at least one waiter is armed. */
  get busy(): boolean {
    return this.count > 0
  }
}

/** The key a Bell uses for one direction of one channel. */
export function bellKey(id: string, direction: string): string {
  return `${id}\u0000${direction}`
}

/**
 * Runs `check` until it yields a value, the wait runs out, or `signal` aborts; between checks it
 * sleeps until the bell rings or `fallbackPollMs` passes (the safety net when a ring is lost).
 * Returns undefined on timeout or abort.
 */
export async function waitFor<T>(
  bell: Bell,
  key: string,
  options: { waitMs: number; signal?: AbortSignal; fallbackPollMs: number },
  check: () => Promise<T | undefined> | T | undefined,
): Promise<T | undefined> {
  const deadline = Date.now() + options.waitMs
  for (;;) {
    const { rung, disarm } = bell.arm(key)
    try {
      const found = await check()
      if (found !== undefined) return found
      const remaining = deadline - Date.now()
      if (remaining <= 0 || options.signal?.aborted) return undefined
      await sleepUntilRung(rung, Math.min(remaining, options.fallbackPollMs), options.signal)
    } finally {
      disarm()
    }
  }
}

/**
 * The stores' `waitForMail`: checks its arguments, then waits on one direction of a channel until
 * `peek` counts mail, and resolves with that count, or 0 on timeout or abort.
 */
export async function waitForPending(
  bell: Bell,
  request: { id: string; direction: Direction; wait: number; signal?: AbortSignal | undefined },
  fallbackPollMs: number,
  peek: () => Promise<number>,
): Promise<number> {
  const { id, direction, signal } = request
  checkChannelId(id)
  checkDirection(direction)
  const ms = waitMs(request.wait, 'waitForMail: waitMs')
  const found = await waitFor(bell, bellKey(id, direction), { waitMs: ms, signal, fallbackPollMs }, async () => {
    const n = await peek()
    return n > 0 ? n : undefined
  })
  return found ?? 0
}

function sleepUntilRung(rung: Promise<void>, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer)
      signal?.removeEventListener('abort', done)
      resolve()
    }
    const timer = setTimeout(done, ms)
    signal?.addEventListener('abort', done, { once: true })
    rung.then(done)
  })
}

/**
 * Watches a directory and calls `onChange` when a file whose name passes `filter` changes. SQLite has
 * no cross-process notification, but every commit appends to the `-wal` file, and inotify/FSEvents
 * report that within a millisecond or two: that is the cross-process bell.
 */
export function watchDirectory(dir: string, filter: (name: string) => boolean, onChange: () => void): () => void {
  let watcher: FSWatcher | undefined
  try {
    watcher = watch(dir, { persistent: false }, (_type, name) => {
      if (name === null || filter(String(name))) onChange()
    })
    // A watcher error (directory removed, too many watches) must not crash the server: waits fall back to polling.
    watcher.on('error', () => {
      watcher?.close()
      watcher = undefined
    })
  } catch {
    watcher = undefined
  }
  return () => watcher?.close()
}
