import { CodedError } from '../server/errors.js'

/**
 * Local error codes of the agent-apps room. A tool turns them into a result with `isError: true`
 * whose text starts with the code, so the model can read what went wrong and what to do instead.
 */
export type AgentAppsErrorCode =
  /** An app name, data key or channel id does not match its pattern; `data` holds `{ field, value }`. */
  | 'INVALID_NAME'
  /** An argument has the wrong shape or value (a level, a page size, a render kind); `data` holds `{ field }`. */
  | 'INVALID_ARGUMENT'
  /** No saved app, render or data key by that name; `data` holds `{ kind, name }`. */
  | 'NOT_FOUND'
  /** A saved app of that name exists and `replace` was not set; `data` holds `{ name }`. */
  | 'ALREADY_EXISTS'
  /** A value is over its size limit; `data` holds `{ field, size, limit }`. */
  | 'TOO_LARGE'
  /** A count limit (keys an app, saved apps) is reached; `data` holds `{ limit }`. */
  | 'LIMIT_REACHED'
  /** The store was used after `close()`. */
  | 'CLOSED'
  /** A `display_component` module does not compile; `data.problems` holds `{ text, line?, column?, lineText? }` items. */
  | 'COMPILE_ERROR'

/** Error thrown by the agent-apps store: `code` says what went wrong, `message` how to fix it. */
export class AgentAppsError extends CodedError<AgentAppsErrorCode> {
  override readonly name = 'AgentAppsError'
}
