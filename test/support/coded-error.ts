import { expect } from 'vitest'
import type { ErrorCode } from 'duetkit/protocol'

/**
 * Matches a DuetError with `code` whose message matches `message`, for `toThrow(…)`,
 * `rejects.toThrow(…)` and `toMatchObject(…)`: one assertion on both what went wrong and what it says.
 */
export function codedError(code: ErrorCode, message?: RegExp | string): unknown {
  return expect.objectContaining({
    name: 'DuetError',
    code,
    ...(message !== undefined && { message: typeof message === 'string' ? message : expect.stringMatching(message) }),
  })
}
