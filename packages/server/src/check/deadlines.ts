/**
 * Deadlines for `duet check`: each step of a run waits for one named thing for at most its own
 * time, and the whole run for at most its total, so a view or server that never answers ends the
 * run with a message naming the step instead of hanging it. A tripwire ends the step under way at
 * once when something outside it (a too-large response) already decided the run.
 */

/** Who is at fault when a step does not finish: the view or server checked (exit 1) or the machine (exit 2). */
export type Blame = 'target' | 'environment'

/** A step that did not finish: `step` names it, `message` says what was waited for and for how long. */
export class StepFailed extends Error {
  constructor(
    readonly step: string,
    message: string,
    readonly blame: Blame,
  ) {
    super(message)
    this.name = 'StepFailed'
  }
}

export interface DeadlineOptions {
  /** The whole run's deadline, in ms. */
  totalMs: number
  /** A step's deadline, in ms, unless the step names its own. */
  stepMs: number
}

/** Runs a check's steps, each under its own deadline and the run's. */
export class Steps {
  /** The step under way (named by the run deadline's message). */
  current = 'start'
  private readonly endsAt: number
  private trip: ((err: StepFailed) => void) | null = null
  private tripped: StepFailed | null = null

  constructor(private readonly options: DeadlineOptions) {
    this.endsAt = Date.now() + options.totalMs
  }

  /** A step's default deadline, in ms. */
  get stepMs(): number {
    return this.options.stepMs
  }

  /** Ends the step under way (and every later one) with `err`. */
  fail(err: StepFailed): void {
    if (this.tripped) return
    this.tripped = err
    this.trip?.(err)
  }

  /** Time left before the run's deadline, in ms. */
  left(): number {
    return Math.max(0, this.endsAt - Date.now())
  }

  /**
   * Runs `fn` as step `step`, waiting for `waitedFor` at most `ms` (default: the step deadline) and
   * never past the run's deadline; throws {@link StepFailed} naming the step when either passes.
   */
  async run<T>(step: string, waitedFor: string, fn: () => Promise<T>, opts: { ms?: number; blame?: Blame; hint?: string } = {}): Promise<T> {
    if (this.tripped) throw this.tripped
    this.current = step
    const blame = opts.blame ?? 'target'
    const stepMs = opts.ms ?? this.options.stepMs
    const runLeft = this.left()
    const ms = Math.min(stepMs, runLeft)
    const byRun = runLeft < stepMs
    let timer: NodeJS.Timeout | undefined
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const why = byRun
          ? `the whole run's deadline (${this.options.totalMs} ms) passed during step "${step}", waiting for ${waitedFor}`
          : `step "${step}": waited ${stepMs} ms for ${waitedFor}, in vain`
        reject(new StepFailed(step, opts.hint ? `${why}: ${opts.hint}` : why, blame))
      }, ms)
    })
    const tripwire = new Promise<never>((_, reject) => {
      this.trip = reject
    })
    try {
      return await Promise.race([fn(), deadline, tripwire])
    } finally {
      clearTimeout(timer)
      this.trip = null
    }
  }
}
