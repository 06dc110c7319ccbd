// The MCP logging levels (RFC 5424's syslog severities), used by the view's `{ log }` sink and by
// the server log alike, so a level means the same thing on both sides of a conversation.

/** The levels, least severe first: a filter "at `level` or above" keeps a suffix of this list. */
export const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const

/** One MCP logging level. */
export type LogLevel = (typeof LOG_LEVELS)[number]

/** True for one of {@link LOG_LEVELS}; `'warn'` is not one (MCP spells it `'warning'`). */
export const isLogLevel = (value: unknown): value is LogLevel => (LOG_LEVELS as readonly unknown[]).includes(value)
