// A waiting line shared fairly between subjects (users), used by the compile pool and by the HTTP
// listener's requests in flight: each subject has its own line, the lines are served in turn (one item
// each, round robin), and a subject may hold at most `maxRunningPerSubject` slots (workers, requests) at
// once. So one user's fifty queued items delay another user's by at most one turn, never by fifty. Both
// the whole line and each subject's are bounded.

/** The bounds of a {@link FairQueue}. */
export interface FairQueueLimits {
  /** Items waiting, over all subjects. */
  maxQueued: number
  /** Items one subject may have waiting. */
  maxQueuedPerSubject: number
  /** Items of one subject that may be taken (running) at once. */
  maxRunningPerSubject: number
}

/** Why an item was not admitted: the whole line or the subject's own is full. */
export type Refusal = 'queue' | 'subject'

/** Waiting items per subject, taken in turn. */
export class FairQueue<T> {
  /** Each subject's waiting items; the map's order is the order of turns. */
  readonly #lines = new Map<string, T[]>()
  readonly #running = new Map<string, number>()
  #waiting = 0

  constructor(readonly limits: Readonly<FairQueueLimits>) {}

  /** Items waiting, in all. */
  get size(): number {
    return this.#waiting
  }

  /** Items `subject` has waiting. */
  waitingOf(subject: string): number {
    return this.#lines.get(subject)?.length ?? 0
  }

  /** Items of `subject` taken and not yet done. */
  runningOf(subject: string): number {
    return this.#running.get(subject) ?? 0
  }

  /** Adds `item` at the end of `subject`'s line, or says which bound refuses it. */
  push(subject: string, item: T): Refusal | undefined {
    if (this.waitingOf(subject) >= this.limits.maxQueuedPerSubject) return 'subject'
    if (this.#waiting >= this.limits.maxQueued) return 'queue'
    const line = this.#lines.get(subject)
    if (line) line.push(item)
    else this.#lines.set(subject, [item])
    this.#waiting++
    return undefined
  }

  /**
   * The next item, from the first subject in turn that is under its running share; that subject's turn
   * then moves to the end. Counts the item as running until {@link done}.
   */
  take(): { subject: string; item: T } | undefined {
    for (const [subject, line] of this.#lines) {
      if (this.runningOf(subject) >= this.limits.maxRunningPerSubject) continue
      const item = line.shift()!
      this.#lines.delete(subject)
      if (line.length > 0) this.#lines.set(subject, line)
      this.#waiting--
      this.#running.set(subject, this.runningOf(subject) + 1)
      return { subject, item }
    }
    return undefined
  }

  /** A taken item of `subject` finished: its worker is free for the next turn. */
  done(subject: string): void {
    const n = this.runningOf(subject) - 1
    if (n > 0) this.#running.set(subject, n)
    else this.#running.delete(subject)
  }

  /** Removes one waiting item (its caller went away); false when it is not waiting (taken already). */
  remove(subject: string, item: T): boolean {
    const line = this.#lines.get(subject)
    const at = line?.indexOf(item) ?? -1
    if (!line || at < 0) return false
    line.splice(at, 1)
    if (line.length === 0) this.#lines.delete(subject)
    this.#waiting--
    return true
  }

  /** Removes and returns every waiting item of `subject`. */
  drainSubject(subject: string): T[] {
    const line = this.#lines.get(subject) ?? []
    this.#lines.delete(subject)
    this.#waiting -= line.length
    return line
  }

  /** Removes and returns every waiting item (the queue is closing). */
  drain(): T[] {
    const all = [...this.#lines.values()].flat()
    this.#lines.clear()
    this.#waiting = 0
    return all
  }
}
