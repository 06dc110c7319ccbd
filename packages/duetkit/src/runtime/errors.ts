/**
 * Codes of the errors the view runtime raises or logs. Each names the mistake, so a log line can be
 * searched for.
 */
export type RuntimeErrorCode =
  /** `run`/`renderComponent` got something that is not a component, or a bad option. */
  | 'DUET_BAD_OPTION'
  /** `run` found no element for `mountPoint`. */
  | 'DUET_NO_MOUNT_POINT'
  /** An intent read a source no driver was given for. */
  | 'DUET_NO_DRIVER'
  /** A JSX `on*` prop: events come through the intent, never inline handlers. */
  | 'DUET_INLINE_HANDLER'
  /** A selector the vnode query (renderComponent) does not understand. */
  | 'DUET_BAD_SELECTOR'
  /** Actions kept queueing more renders than the loop guard allows. */
  | 'DUET_RENDER_LOOP'
  /** A reducer, sink reducer, view or intent threw; logged, the app keeps running. */
  | 'DUET_USER_CODE_THREW'
  /** renderComponent: nothing matched a simulated event's selector. */
  | 'DUET_NO_ELEMENT'
  /** renderComponent: `respond`/`fail` found no pending request. */
  | 'DUET_NOTHING_PENDING'
  /** renderComponent: `waitForState` timed out. */
  | 'DUET_WAIT_TIMEOUT'
  /** The app or test harness was used after `dispose()`. */
  | 'DUET_DISPOSED'

/** An error of the view runtime: `code` says what went wrong, the message says what to do. */
export class DuetError extends Error {
  readonly code: RuntimeErrorCode
  constructor(code: RuntimeErrorCode, message: string) {
    super(`${code}: ${message}`)
    this.name = 'DuetError'
    this.code = code
  }
}

/** Logs a user-code failure the runtime survives, with the component and action it came from. */
export function logFailure(where: string, error?: unknown): void {
  if (error === undefined) console.error(`[duet] ${where}`)
  else console.error(`[duet] DUET_USER_CODE_THREW: ${where}`, error)
}
