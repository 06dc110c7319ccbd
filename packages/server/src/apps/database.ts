import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { DuetError } from 'duetkit/protocol'

/** The handle every part of the store shares. */
export type AppsDatabase = Database.Database

/** The store's file inside the data dir. */
export const APPS_DB_FILE = 'apps.db'

// Bump with a migration step when the tables change; `user_version` records what a file holds.
const SCHEMA_VERSION = 2

const SCHEMA = `
CREATE TABLE IF NOT EXISTS renders (
  channel_id TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  title TEXT,
  html TEXT,
  source TEXT,
  props TEXT,
  rendered_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS renders_by_time ON renders (rendered_at);
CREATE TABLE IF NOT EXISTS saved_apps (
  name TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  title TEXT,
  description TEXT,
  html TEXT,
  source TEXT,
  props TEXT,
  saved_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS app_data (
  app TEXT NOT NULL,
  key TEXT NOT NULL,
  value TEXT NOT NULL,
  bytes INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (app, key)
);
CREATE TABLE IF NOT EXISTS server_log (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  at INTEGER NOT NULL,
  level TEXT NOT NULL,
  message TEXT NOT NULL,
  data TEXT
);
`

/**
 * Opens (creating when missing) the SQLite file that holds renders, saved apps, app data and logs.
 * SQLite rather than files: hosts run several server processes at once, and SQLite's own locking
 * makes every read-modify-write atomic across them on every OS, with no paths built from input.
 */
export function openAppsDatabase(dataDir: string): AppsDatabase {
  mkdirSync(dataDir, { recursive: true })
  const db = new Database(join(dataDir, APPS_DB_FILE))
  try {
    db.pragma('journal_mode = WAL')
    // Another process may hold the write lock for a moment; wait rather than fail the tool call.
    db.pragma('busy_timeout = 5000')
    db.pragma('synchronous = NORMAL')
    const version = db.pragma('user_version', { simple: true }) as number
    if (version > SCHEMA_VERSION) {
      throw new DuetError(
        'STORE_UNAVAILABLE',
        `${join(dataDir, APPS_DB_FILE)} was written by a newer Duet (schema ${version}, this one knows ${SCHEMA_VERSION}); upgrade Duet or use another --data-dir`,
        { dir: dataDir },
      )
    }
    db.exec(SCHEMA)
    // Schema 1 logged at 'warn'; the log now uses the MCP levels, which spell it 'warning'.
    if (version < 2) db.exec("UPDATE server_log SET level = 'warning' WHERE level = 'warn'")
    db.pragma(`user_version = ${SCHEMA_VERSION}`)
    return db
  } catch (err) {
    db.close()
    throw err
  }
}
