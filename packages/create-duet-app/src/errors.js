/**
 * Codes of {@link CreateError}:
 * - `E_USAGE`: the command line is incomplete or wrong (exit code 2); `data.usage` is the help text.
 * - `E_NAME`: the project name breaks npm's package name rules or would leave the current folder.
 * - `E_TEMPLATE`: no such template or language.
 * - `E_TARGET`: the target folder exists and is not empty, or is a file.
 * - `E_DUET`: this checkout's `duet` package could not be built or packed.
 * - `E_INSTALL`: `npm install` failed in the new project (the files stay, so it can be rerun).
 * - `E_ABORTED`: the user ended the questions (Ctrl-C or end of input).
 */
export class CreateError extends Error {
  /**
   * @param {'E_USAGE'|'E_NAME'|'E_TEMPLATE'|'E_TARGET'|'E_DUET'|'E_INSTALL'|'E_ABORTED'} code
   * @param {string} message
   * @param {Record<string, unknown>} [data]
   */
  constructor(code, message, data) {
    super(message)
    this.name = 'CreateError'
    this.code = code
    this.data = data
  }
}
