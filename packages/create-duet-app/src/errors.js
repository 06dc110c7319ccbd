// The scaffolder has no dependencies (it runs from a checkout before anything is built, and from
// `npm create` with nothing installed), so it does not import duetkit. Its error is nonetheless a
// DuetError as Duet recognises one from another copy of itself: `name` 'DuetError', a `code` of the
// vocabulary (ErrorCodes in duetkit/protocol; a test there checks each), `message`, `data`, `cause`.

/**
 * Codes of {@link CreateError}:
 * - `USAGE`: the command line is incomplete or wrong (exit code 2); `data.usage` is the help text.
 * - `INVALID_NAME`: the project name (or a path's last part) breaks npm's package name rules, or a bare
 *   name would put the project inside the Duet checkout.
 * - `NOT_FOUND`: no such template or language.
 * - `ALREADY_EXISTS`: the target folder exists and is not empty, or is a file.
 * - `BUILD_FAILED`: this checkout's `duetkit` or `@duetkit/server` could not be built or packed.
 * - `INSTALL_FAILED`: `npm install` failed in the new project (the files stay, so it can be rerun).
 * - `ABORTED`: the user ended the questions (Ctrl-C or end of input).
 */
export const CREATE_ERROR_CODES = Object.freeze(['USAGE', 'INVALID_NAME', 'NOT_FOUND', 'ALREADY_EXISTS', 'BUILD_FAILED', 'INSTALL_FAILED', 'ABORTED'])

/**
 * An error of create-duet-app: a DuetError to `isDuetError` (duetkit/protocol), `code` saying what went
 * wrong, `message` what to do, `data` what was at fault.
 */
export class CreateError extends Error {
  /**
   * @param {'USAGE'|'INVALID_NAME'|'NOT_FOUND'|'ALREADY_EXISTS'|'BUILD_FAILED'|'INSTALL_FAILED'|'ABORTED'} code
   * @param {string} message
   * @param {Record<string, unknown>} [data]
   * @param {{ cause?: unknown }} [options]
   */
  constructor(code, message, data, options) {
    super(message, options)
    this.name = 'DuetError'
    this.code = code
    if (data !== undefined) this.data = data
  }
}
