// One error class and one vocabulary of codes for all of Duet, view and server alike, so a caller
// branches on `err.code` the same way wherever the error came from. The README's "Errors" table
// documents every code; a test keeps the two in step.

/**
 * Every code a Duet error can carry, each mapped to itself: compare with `err.code === ErrorCodes.NO_HOST`
 * or list them. The view runtime never reads this object, so bundles that do not import it drop it.
 */
export const ErrorCodes = /* @__PURE__ */ Object.freeze({
  // Shared by every room.
  /** A factory or function got an option it cannot use; `data.option` names it when known. */
  INVALID_OPTION: 'INVALID_OPTION',
  /** An argument has the wrong shape or value (a tool argument, a log level, a source name); `data.field` names it. */
  INVALID_ARGUMENT: 'INVALID_ARGUMENT',
  /** An app name, data key or project name does not match its pattern; `data` holds `{ field, value }`. */
  INVALID_NAME: 'INVALID_NAME',
  /** Nothing by that name (saved app, render, data key, recipe, template, route, server); `data` holds `{ kind, name }`. */
  NOT_FOUND: 'NOT_FOUND',
  /** Something by that name already exists (a saved app without `replace`, a non-empty target folder). */
  ALREADY_EXISTS: 'ALREADY_EXISTS',
  /** A value is over its size limit (a channel message, app data, a render, a log line, a request body); `data` holds `{ field?, size?, limit }`. */
  TOO_LARGE: 'TOO_LARGE',
  /** A count limit is reached (data keys of an app, saved apps); `data` holds `{ limit }`. */
  LIMIT_REACHED: 'LIMIT_REACHED',
  /** Used after `dispose()` or `close()`: an app, a test harness, the MCP driver, a channel store, the agent-apps store. */
  DISPOSED: 'DISPOSED',
  /** Something asked for is not offered: a host capability, a part of duetkit the build left out (`duet({ omit })`), a method the dev server does not forward. */
  UNSUPPORTED: 'UNSUPPORTED',
  /** The command line is incomplete or wrong (`duet dev`, `create-duet-app`). */
  USAGE: 'USAGE',
  /** An unexpected failure: a bug in Duet or a broken environment, never a caller's mistake. */
  INTERNAL: 'INTERNAL',

  // The view runtime and renderComponent.
  /** `run` found no element for `mountPoint`. */
  NO_MOUNT_POINT: 'NO_MOUNT_POINT',
  /** An intent read, or a model sent to, a source no driver was given for. */
  NO_DRIVER: 'NO_DRIVER',
  /** A JSX `on*` prop: events come through the intent, never inline handlers. */
  INLINE_HANDLER: 'INLINE_HANDLER',
  /** A selector `DOM.select` or the vnode query of renderComponent cannot read. */
  BAD_SELECTOR: 'BAD_SELECTOR',
  /** Actions kept queueing more renders than the loop guard allows in one flush. */
  RENDER_LOOP: 'RENDER_LOOP',
  /** A reducer, sink reducer, view or intent threw; logged, and the app keeps running. */
  USER_CODE_THREW: 'USER_CODE_THREW',
  /** renderComponent: nothing matched a simulated event's selector. */
  NO_ELEMENT: 'NO_ELEMENT',
  /** renderComponent: `respond`/`fail` found no pending request. */
  NOTHING_PENDING: 'NOTHING_PENDING',
  /** renderComponent: `waitForState` timed out. */
  WAIT_TIMEOUT: 'WAIT_TIMEOUT',

  // The MCP Apps driver (errors that never cross the wire as such).
  /** The page has no MCP Apps host (opened directly, no parent window, or server rendering). */
  NO_HOST: 'NO_HOST',
  /** The `ui/initialize` handshake failed, so nothing else can be sent. */
  HANDSHAKE_FAILED: 'HANDSHAKE_FAILED',
  /** A sink value named no known request (`callTool`, `message`, …) or had a malformed field. */
  INVALID_SINK: 'INVALID_SINK',
  /** `notifyAgent` had no channel: the driver was made without `agentChannel()`, or the tool result named none. */
  NO_CHANNEL: 'NO_CHANNEL',
  /** A tool the driver called for itself (`notify_agent`) answered with an error result; `data.result` holds it. */
  TOOL_FAILED: 'TOOL_FAILED',

  // The server core.
  /** Two registrations claim one tool name or resource URI; `data` holds `{ name }`. */
  DUPLICATE_NAME: 'DUPLICATE_NAME',
  /** A view could not be produced (file missing or unreadable, view function returned no HTML); `data` holds `{ uri, file? }`. */
  VIEW_UNAVAILABLE: 'VIEW_UNAVAILABLE',
  /** `listen` was called on a closed server; `data` holds `{ state }`. */
  NOT_LISTENING: 'NOT_LISTENING',
  /** A port could not be bound (in use, no permission); `data` holds `{ host?, port, cause? }`. */
  LISTEN_FAILED: 'LISTEN_FAILED',
  /** A file the package build makes (the display shell, the dev page) is missing; `data` holds `{ name }`. */
  NOT_BUILT: 'NOT_BUILT',
  /** An HTTP listener on a non-loopback address without `auth` (nor `insecure: true`); `data` holds `{ host }`. */
  INSECURE_BIND: 'INSECURE_BIND',
  /** The `auth` issuer's metadata could not be fetched, names another issuer, or lacks its JWKS; `data` holds `{ issuer }`. */
  ISSUER_UNREACHABLE: 'ISSUER_UNREACHABLE',
  /** A caller called one tool faster than the server's `rateLimit` (HTTP 429); `data` holds `{ tool, retryAfterSeconds }`. */
  RATE_LIMITED: 'RATE_LIMITED',
  /** The server has too much of this work waiting (the compile pool's line); `data` holds `{ retryAfterSeconds, queue, limit }`. */
  BUSY: 'BUSY',

  // Channels.
  /** A channel id is not 1-64 letters, digits, `-` or `_`. */
  BAD_CHANNEL_ID: 'BAD_CHANNEL_ID',
  /** A queue direction is neither `app-to-agent` nor `agent-to-app`. */
  BAD_DIRECTION: 'BAD_DIRECTION',
  /** A channel message is not `{ event, data }` with a short event name and JSON data. */
  BAD_MESSAGE: 'BAD_MESSAGE',
  /** The channel was closed or expired. */
  CHANNEL_CLOSED: 'CHANNEL_CLOSED',
  /** A server-minted channel id (`ch_…`) this store never minted: the caller likely uses another data folder or store. */
  UNKNOWN_CHANNEL: 'UNKNOWN_CHANNEL',
  /** The channel's queue holds as many unread messages as it may. */
  QUEUE_FULL: 'QUEUE_FULL',
  /** A store's backend cannot be used (unwritable folder, corrupt file, Redis down, written by a newer Duet). */
  STORE_UNAVAILABLE: 'STORE_UNAVAILABLE',

  // The agent-apps room.
  /** A `display_component` module does not compile; `data.problems` holds `{ text, line?, column?, lineText? }` items, `data.limit` the compile limit it hit, if any. */
  COMPILE_ERROR: 'COMPILE_ERROR',

  // `duet dev`.
  /** A request to the dev server's API is malformed (not JSON, wrong content type, params not an object). */
  INVALID_REQUEST: 'INVALID_REQUEST',
  /** The dev server refused a request from a foreign Host or Origin (its guard against DNS rebinding and other sites). */
  FORBIDDEN: 'FORBIDDEN',
  /** The dev server's connection to an MCP server is down. */
  NOT_CONNECTED: 'NOT_CONNECTED',
  /** A view's `_meta.ui.csp` is not an object of origin lists. */
  INVALID_CSP: 'INVALID_CSP',

  // `duet check`.
  /** `duet check` cannot run a browser: playwright-core is not installed or Chromium is not where it looked; `data` names `package` or `path`. */
  BROWSER_UNAVAILABLE: 'BROWSER_UNAVAILABLE',

  // create-duet-app.
  /** This checkout's packages could not be built or packed for the new project. */
  BUILD_FAILED: 'BUILD_FAILED',
  /** `npm install` failed in the new project (its files stay, so it can be rerun). */
  INSTALL_FAILED: 'INSTALL_FAILED',
  /** The user ended the questions (Ctrl-C or end of input). */
  ABORTED: 'ABORTED',
} as const)

/** A Duet error code: one of {@link ErrorCodes}. */
export type ErrorCode = (typeof ErrorCodes)[keyof typeof ErrorCodes]

/** Details of an error a program can read: which option, field, name or limit was at fault. */
export type ErrorData = Readonly<Record<string, unknown>>

/**
 * Every error Duet raises. `code` says what went wrong and is stable across versions; `message`
 * says what went wrong and what to do, for a person or a model to read; `data`, when present,
 * holds the values at fault. The message never repeats the code: loggers and tool results put
 * `CODE: ` in front themselves.
 */
export class DuetError extends Error {
  override readonly name = 'DuetError'
  // Declared, not defined: the constructor sets `code` (a field would only add its name to every bundle),
  // and an error without data has no `data` key at all.
  declare readonly code: ErrorCode
  declare readonly data?: ErrorData

  constructor(code: ErrorCode, message: string, data?: ErrorData, options?: { cause?: unknown }) {
    super(message, options)
    this.code = code
    if (data !== undefined) this.data = data
  }
}

/** True for an error carrying a Duet code, also one from another copy of Duet in the same process. */
export function isDuetError(err: unknown): err is DuetError {
  return err instanceof DuetError || (err instanceof Error && err.name === 'DuetError' && typeof (err as { code?: unknown }).code === 'string')
}
