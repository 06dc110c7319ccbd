import { DuetError } from '../protocol/errors.js'

// The runtime's modules import the error class from here, next to the logger that reads its code.
export { DuetError }

/**
 * Logs a failure the runtime survives, with the component and action it came from. The line starts
 * with a code (the error's own, or USER_CODE_THREW) so it can be searched for.
 */
export function logFailure(where: string, error?: unknown): void {
  if (error === undefined) console.error(`[duet] ${where}`)
  else console.error(`[duet] ${error instanceof DuetError ? error.code : 'USER_CODE_THREW'}: ${where}`, error)
}
