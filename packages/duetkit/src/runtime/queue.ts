import { DuetError } from './errors.js'

/** What the queue needs from the runtime: run one action, render the tree, commit it (patch). */
export interface QueueHooks<J> {
  run(job: J): void
  render(): void
  commit(): void
}

/**
 * The app's first-in-first-out action queue. An action pushed while another runs waits for it to
 * finish (run to completion); reducers run synchronously, so state is current as soon as `push`
 * returns. Rendering is batched: one render and one commit per flush, in a microtask, never a timer.
 */
export interface ActionQueue<J> {
  push(job: J): void
  /** Asks for a flush even with no action (the first render). */
  schedule(): void
  /** Whether a flush is scheduled and has not run yet. */
  pending(): boolean
  /** Renders and commits now if a flush is pending (tests read the tree synchronously). */
  flushNow(): void
  /** Called after each flush; returns an unsubscribe. */
  onFlush(listener: () => void): () => void
  /** Resolves after the next flush. */
  nextFlush(): Promise<void>
  dispose(): void
}

// Renders that keep queueing actions (an intent answering every render) would never settle.
const MAX_RENDERS_PER_FLUSH = 100

/** Creates the queue around the runtime's hooks. */
export function createActionQueue<J>(hooks: QueueHooks<J>): ActionQueue<J> {
  const jobs: J[] = []
  const listeners = new Set<() => void>()
  let busy = false
  let scheduled = false
  let disposed = false

  const drain = () => {
    busy = true
    try {
      while (jobs.length) hooks.run(jobs.shift() as J)
    } finally {
      busy = false
    }
  }

  const flushNow = () => {
    if (!scheduled || disposed) return
    scheduled = false
    busy = true
    try {
      for (let n = 0; ; n++) {
        hooks.render()
        if (!jobs.length) break
        if (n >= MAX_RENDERS_PER_FLUSH) {
          jobs.length = 0
          throw new DuetError(
            'RENDER_LOOP',
            `still queueing actions after ${MAX_RENDERS_PER_FLUSH} renders in one flush; does an intent dispatch on every render?`,
          )
        }
        while (jobs.length) hooks.run(jobs.shift() as J)
      }
    } finally {
      busy = false
    }
    hooks.commit()
    for (const l of [...listeners]) l()
  }

  const schedule = () => {
    if (scheduled || disposed) return
    scheduled = true
    queueMicrotask(flushNow)
  }

  return {
    push(job) {
      if (disposed) return
      jobs.push(job)
      if (!busy) drain()
      schedule()
    },
    schedule,
    pending: () => scheduled,
    flushNow,
    onFlush(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    nextFlush() {
      return new Promise((resolve) => {
        const off = this.onFlush(() => {
          off()
          resolve()
        })
      })
    },
    dispose() {
      disposed = true
      jobs.length = 0
      listeners.clear()
    },
  }
}
