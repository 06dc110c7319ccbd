import { Stream } from '../runtime/stream.js'
import type { Driver, ReplyKind } from '../runtime/driver.js'
import { reply, wantsReply } from '../runtime/driver.js'
import { DuetError } from '../runtime/errors.js'

/** A recording driver for a sink renderComponent was given no driver for. */
export interface FakeDriver {
  driver: Driver
  /** Every value the app sent, in order (the live list). */
  requests: unknown[]
  /**
   * Answers the newest unanswered request whose `ok` (or `error`) names `target` (any, when
   * omitted); throws `NOTHING_PENDING` when there is none. Returns whether an action was queued.
   */
  answer(kind: ReplyKind, data: unknown, target?: string): boolean
}

/**
 * Creates the fake for the driver called `name`. Its source answers `select(anything)` with a
 * stream that never emits, so intents such as `MCP.select('tool-input')` subscribe without error.
 */
export function createFakeDriver(name: string): FakeDriver {
  const requests: unknown[] = []
  const answered = new WeakSet<object>()
  const driver: Driver = (sink$: Stream<unknown>) => {
    sink$.subscribe({ next: (value) => requests.push(value) })
    return { select: () => Stream.never() }
  }
  return {
    driver,
    requests,
    answer(kind, data, target) {
      for (let i = requests.length - 1; i >= 0; i--) {
        const r = requests[i] as Record<string, unknown>
        if (!wantsReply(r, kind) || answered.has(r) || (target !== undefined && r[kind] !== target)) continue
        answered.add(r)
        return reply(r, kind, data)
      }
      const pending = requests.filter((r) => wantsReply(r, kind) && !answered.has(r as object)).map((r) => (r as any)[kind])
      throw new DuetError(
        'NOTHING_PENDING',
        `${name}: no unanswered request with ${kind}: ${JSON.stringify(target ?? '<any>')}; pending ${kind} names: ${pending.length ? pending.map((p) => JSON.stringify(p)).join(', ') : 'none'}`,
      )
    },
  }
}
