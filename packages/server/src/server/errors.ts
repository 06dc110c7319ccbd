/**
 * Local error codes of the server toolkit. They never cross the wire as such: a view file error
 * inside `resources/read` reaches the client as a JSON-RPC error carrying the same message.
 */
export type AppServerErrorCode =
  /** A factory or method got an option it cannot use; `data` holds `{ option }`. */
  | 'INVALID_OPTION'
  /** Two registrations claim one tool name or resource URI; `data` holds `{ name }`. */
  | 'DUPLICATE_NAME'
  /** A `file` view could not be read (missing, unreadable); `data` holds `{ uri, file }`. */
  | 'VIEW_UNAVAILABLE'
  /** `listen` was called on a closed server; `data` holds `{ state }`. */
  | 'NOT_LISTENING'
  /** The HTTP port could not be bound (in use, no permission); `data` holds `{ host, port, cause }`. */
  | 'LISTEN_FAILED'
  /** A file the package build makes (the display shell, the dev page) is missing; `data` holds `{ name }`. */
  | 'NOT_BUILT'

/** The server side's error shape: `code` says what went wrong, `message` how to fix it, `data` what was at fault. */
export class CodedError<Code extends string> extends Error {
  constructor(
    readonly code: Code,
    message: string,
    readonly data?: Record<string, unknown>,
  ) {
    super(message)
  }
}

/** Error thrown by `duet/server`: `code` says what went wrong, `message` how to fix it. */
export class AppServerError extends CodedError<AppServerErrorCode> {
  override readonly name = 'AppServerError'
}

/** Throws `INVALID_OPTION` naming the factory and the option, so a config mistake fails at startup. */
export function invalidOption(where: string, option: string, expected: string): never {
  throw new AppServerError('INVALID_OPTION', `${where}: option '${option}' ${expected}`, { option })
}
