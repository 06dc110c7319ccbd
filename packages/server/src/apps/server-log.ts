import { DuetError, isLogLevel, LOG_LEVELS, type LogLevel } from 'duetkit/protocol'
import type { AppsDatabase } from './database.js'
import type { AppLimits } from './limits.js'
import { utf8Bytes } from './limits.js'

// The MCP levels, the same the view's `{ log }` sink takes; `'warn'` is refused (MCP spells it `'warning'`).
export { LOG_LEVELS, type LogLevel }

/** One row of the server log. */
export interface LogEntry {
  id: number
  /** Milliseconds since the epoch. */
  at: number
  level: LogLevel
  message: string
  data?: unknown
}

/** Largest `n` of one tail. */
export const MAX_TAIL = 500

/** Checks a log write and returns its data as JSON (null without data); errors write nothing. */
export function checkLogEntry(level: LogLevel, message: string, data: unknown, limits: AppLimits): string | null {
  if (!isLogLevel(level)) {
    throw new DuetError('INVALID_ARGUMENT', `level must be one of ${LOG_LEVELS.join(', ')}, got ${JSON.stringify(level)}`, { field: 'level' })
  }
  if (typeof message !== 'string' || message.length === 0 || message.length > limits.maxLogMessageChars) {
    throw new DuetError('TOO_LARGE', `message must be a string of 1 to ${limits.maxLogMessageChars} characters; put structured details in data`, {
      field: 'message',
      size: typeof message === 'string' ? message.length : 0,
      limit: limits.maxLogMessageChars,
    })
  }
  let json: string | null = null
  if (data !== undefined) {
    json = JSON.stringify(data) ?? null
    const size = json === null ? 0 : utf8Bytes(json)
    if (size > limits.maxLogDataBytes) {
      throw new DuetError(
        'TOO_LARGE',
        `data takes ${size} bytes as JSON, over the log limit of ${limits.maxLogDataBytes}; log a summary (counts, ids, the first items) instead`,
        { field: 'data', size, limit: limits.maxLogDataBytes },
      )
    }
  }
  return json
}

/** Checks a tail's arguments. */
export function checkTail(n: number, level?: LogLevel): void {
  if (!Number.isSafeInteger(n) || n < 1 || n > MAX_TAIL) {
    throw new DuetError('INVALID_ARGUMENT', `n must be an integer from 1 to ${MAX_TAIL}, got ${JSON.stringify(n)}`, { field: 'n' })
  }
  if (level !== undefined && !isLogLevel(level)) {
    throw new DuetError('INVALID_ARGUMENT', `level must be one of ${LOG_LEVELS.join(', ')}, got ${JSON.stringify(level)}`, { field: 'level' })
  }
}

/** The levels a tail at `level` keeps: it and every more severe one. */
export const levelsFrom = (level: LogLevel): LogLevel[] => LOG_LEVELS.slice(LOG_LEVELS.indexOf(level))

/**
 * The server log: capped rows in the store's SQLite file, written by apps (`write_server_log`)
 * and the server, read by the agent (`tail_server_log`) when it debugs an app. Returns the log of one
 * owner ('' shared, or a subject's scope): each owner keeps its own last `maxLogRows` rows.
 */
export function createServerLog(db: AppsDatabase, limits: AppLimits) {
  // An entry's id is its number in its owner's log (`n`, one past the owner's counter), never the row id,
  // which counts every owner's rows. Both grow with time within one owner, so rows are ordered by the row id.
  const COLUMNS = 'n, at, level, message, data'
  const insert = db.prepare(`INSERT INTO server_log (owner, at, level, message, data, n)
    VALUES (@owner, @at, @level, @message, @data, coalesce((SELECT last FROM log_counters WHERE owner = @owner), 0) + 1) RETURNING n`)
  // Row ids grow (AUTOINCREMENT) but interleave between owners: the cut is this owner's cap-th newest row.
  const trim = db.prepare(
    'DELETE FROM server_log WHERE owner = @owner AND id <= (SELECT id FROM server_log WHERE owner = @owner ORDER BY id DESC LIMIT 1 OFFSET @cap)',
  )
  const tailAll = db.prepare(`SELECT * FROM (SELECT ${COLUMNS} FROM server_log WHERE owner = ? ORDER BY id DESC LIMIT ?) ORDER BY n`)
  const tailAtLeast = db.prepare(
    `SELECT * FROM (SELECT ${COLUMNS} FROM server_log WHERE owner = ? AND level IN (SELECT value FROM json_each(?)) ORDER BY id DESC LIMIT ?) ORDER BY n`,
  )

  const write = db.transaction((owner: string, at: number, level: LogLevel, message: string, data: string | null): number => {
    const { n } = insert.get({ owner, at, level, message, data }) as { n: number }
    trim.run({ owner, cap: limits.maxLogRows })
    return n
  })

  return (owner: string) => ({
    /** Appends a log row; errors on a bad level or an oversized message or data, writing nothing. */
    log(level: LogLevel, message: string, data?: unknown): LogEntry {
      const json = checkLogEntry(level, message, data, limits)
      const at = Date.now()
      const id = write.immediate(owner, at, level, message, json)
      const entry: LogEntry = { id, at, level, message }
      if (json !== null) entry.data = JSON.parse(json)
      return entry
    },
    /** The last `n` rows, oldest first; with `level`, only rows at that level or above. */
    tail(n: number, level?: LogLevel): LogEntry[] {
      checkTail(n, level)
      const rows = (level === undefined ? tailAll.all(owner, n) : tailAtLeast.all(owner, JSON.stringify(levelsFrom(level)), n)) as Array<{
        n: number
        at: number
        level: LogLevel
        message: string
        data: string | null
      }>
      return rows.map((row) => {
        const entry: LogEntry = { id: row.n, at: row.at, level: row.level, message: row.message }
        if (row.data !== null) entry.data = JSON.parse(row.data)
        return entry
      })
    },
  })
}

/** One log entry as a line of text: time, level, message and compact data. */
export function formatLogEntry(entry: LogEntry): string {
  const data = entry.data === undefined ? '' : ` ${JSON.stringify(entry.data)}`
  return `${new Date(entry.at).toISOString()} ${entry.level.padEnd(5)} ${entry.message}${data}`
}
