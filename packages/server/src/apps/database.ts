import { mkdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { DuetError } from 'duetkit/protocol'
import { openSqlite, type SqliteDatabase } from '../channel/sqlite-driver.js'

/** The handle every part of the store shares. */
export type AppsDatabase = SqliteDatabase

/** The store's file inside the data dir. */
export const APPS_DB_FILE = 'apps.db'

// Bump with a migration step when the tables change; `user_version` records what a file holds.
const SCHEMA_VERSION = 5

const SCHEMA = `
CREATE TABLE IF NOT EXISTS renders (
  channel_id TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  title TEXT,
  html TEXT,
  source TEXT,
  props TEXT,
  rendered_at INTEGER NOT NULL,
  owner TEXT NOT NULL DEFAULT '',
  app TEXT
);
CREATE INDEX IF NOT EXISTS renders_by_time ON renders (rendered_at);
CREATE TABLE IF NOT EXISTS saved_apps (
  owner TEXT NOT NULL DEFAULT '',
  name TEXT NOT NULL,
  kind TEXT NOT NULL,
  title TEXT,
  description TEXT,
  html TEXT,
  source TEXT,
  props TEXT,
  saved_at INTEGER NOT NULL,
  PRIMARY KEY (owner, name)
);
CREATE TABLE IF NOT EXISTS app_data (
  owner TEXT NOT NULL DEFAULT '',
  app TEXT NOT NULL,
  key TEXT NOT NULL,
  value TEXT NOT NULL,
  bytes INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (owner, app, key)
);
CREATE TABLE IF NOT EXISTS server_log (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  owner TEXT NOT NULL DEFAULT '',
  at INTEGER NOT NULL,
  level TEXT NOT NULL,
  message TEXT NOT NULL,
  data TEXT
);
`

// Schema 3 gives saved apps, app data and log rows an owner: '' is the shared space (no auth, and every row
// written before), otherwise a subject's scope (see channel/subject-scope.ts). SQLite cannot change a primary
// key in place, so the two keyed tables are copied into their new shape.
const OWNERS = `
CREATE TABLE saved_apps_v3 (owner TEXT NOT NULL DEFAULT '', name TEXT NOT NULL, kind TEXT NOT NULL, title TEXT, description TEXT,
  html TEXT, source TEXT, props TEXT, saved_at INTEGER NOT NULL, PRIMARY KEY (owner, name));
INSERT INTO saved_apps_v3 (owner, name, kind, title, description, html, source, props, saved_at)
  SELECT '', name, kind, title, description, html, source, props, saved_at FROM saved_apps;
DROP TABLE saved_apps;
ALTER TABLE saved_apps_v3 RENAME TO saved_apps;
CREATE TABLE app_data_v3 (owner TEXT NOT NULL DEFAULT '', app TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL,
  bytes INTEGER NOT NULL, updated_at INTEGER NOT NULL, PRIMARY KEY (owner, app, key));
INSERT INTO app_data_v3 (owner, app, key, value, bytes, updated_at) SELECT '', app, key, value, bytes, updated_at FROM app_data;
DROP TABLE app_data;
ALTER TABLE app_data_v3 RENAME TO app_data;
ALTER TABLE server_log ADD COLUMN owner TEXT NOT NULL DEFAULT '';
`
// Schema 4 gives renders an owner, so each subject's renders are capped and evicted on their own (a subject's
// channel key carries its scope; older unscoped renders belong to no one in particular: ''), and the app whose
// data and saved app the render's view may touch (older renders: none).
const RENDER_OWNERS = `
ALTER TABLE renders ADD COLUMN app TEXT;
ALTER TABLE renders ADD COLUMN owner TEXT NOT NULL DEFAULT '';
UPDATE renders SET owner = substr(channel_id, 1, 23) WHERE channel_id GLOB 's[A-Za-z0-9_-]*' AND substr(channel_id, 24, 1) = '.';
`
// Schema 5 numbers each owner's log rows on their own (`n`, what `tail_server_log` shows as the id): the row
// id counts across owners, so it told each user how much the others log. Rows from before keep their id as
// their number, and each owner's count goes on from its newest.
const LOG_NUMBERS = `
ALTER TABLE server_log ADD COLUMN n INTEGER NOT NULL DEFAULT 0;
UPDATE server_log SET n = id;
CREATE TABLE IF NOT EXISTS log_counters (owner TEXT PRIMARY KEY, last INTEGER NOT NULL) WITHOUT ROWID;
INSERT INTO log_counters (owner, last) SELECT owner, max(id) FROM server_log GROUP BY owner;
`
// The insert computes the number and a trigger moves the owner's counter on; a process still running the
// schema-4 code inserts none, and the other trigger numbers its row. The counter outlives the rows the cap
// trims, so a number is never handed out twice.
const LOG_NUMBER_TRIGGER = `
CREATE TRIGGER IF NOT EXISTS server_log_counted AFTER INSERT ON server_log WHEN NEW.n > 0 BEGIN
  INSERT INTO log_counters (owner, last) VALUES (NEW.owner, NEW.n) ON CONFLICT (owner) DO UPDATE SET last = excluded.last;
END;
CREATE TRIGGER IF NOT EXISTS server_log_number AFTER INSERT ON server_log WHEN NEW.n = 0 BEGIN
  INSERT OR IGNORE INTO log_counters (owner, last) VALUES (NEW.owner, 0);
  UPDATE log_counters SET last = last + 1 WHERE owner = NEW.owner;
  UPDATE server_log SET n = (SELECT last FROM log_counters WHERE owner = NEW.owner) WHERE id = NEW.id;
END;
`
const hasLogNumbers = (db: AppsDatabase) => (db.pragma('table_info(server_log)') as Array<{ name: string }>).some((c) => c.name === 'n')
const hasRenderOwners = (db: AppsDatabase) => (db.pragma('table_info(renders)') as Array<{ name: string }>).some((c) => c.name === 'owner')
const hasOwners = (db: AppsDatabase) => (db.pragma('table_info(saved_apps)') as Array<{ name: string }>).some((c) => c.name === 'owner')

/**
 * Opens (creating when missing) the SQLite file that holds renders, saved apps, app data and logs.
 * SQLite rather than files: hosts run several server processes at once, and SQLite's own locking
 * makes every read-modify-write atomic across them on every OS, with no paths built from input.
 */
export function openAppsDatabase(dataDir: string): AppsDatabase {
  const file = join(dataDir, APPS_DB_FILE)
  let db: AppsDatabase
  try {
    mkdirSync(dataDir, { recursive: true })
    db = openSqlite(file)
  } catch (err) {
    throw appsStoreError(file, err)
  }
  try {
    db.pragma('journal_mode = WAL')
    // Another process may hold the write lock for a moment; wait rather than fail the tool call.
    db.pragma('busy_timeout = 5000')
    db.pragma('synchronous = NORMAL')
    const version = db.pragma('user_version', { simple: true }) as number
    if (version > SCHEMA_VERSION) {
      throw new DuetError(
        'STORE_UNAVAILABLE',
        `${file} was written by a newer Duet (schema ${version}, this one knows ${SCHEMA_VERSION}); upgrade Duet or use another --data-dir`,
        { dir: dataDir, file },
      )
    }
    db.exec(SCHEMA)
    // Schema 1 logged at 'warn'; the log now uses the MCP levels, which spell it 'warning'.
    if (version < 2) db.exec("UPDATE server_log SET level = 'warning' WHERE level = 'warn'")
    // Checked again inside the write lock: another process may have migrated the file meanwhile.
    if (!hasOwners(db)) db.transaction(() => !hasOwners(db) && db.exec(OWNERS)).immediate()
    if (!hasRenderOwners(db)) db.transaction(() => !hasRenderOwners(db) && db.exec(RENDER_OWNERS)).immediate()
    if (!hasLogNumbers(db)) db.transaction(() => !hasLogNumbers(db) && db.exec(LOG_NUMBERS)).immediate()
    db.exec(LOG_NUMBER_TRIGGER)
    db.exec('CREATE INDEX IF NOT EXISTS server_log_by_owner ON server_log (owner, id)')
    db.exec('CREATE INDEX IF NOT EXISTS renders_by_owner ON renders (owner, rendered_at)')
    // Written on every open, so a file the process may read but not write fails here, not mid tool call.
    db.pragma(`user_version = ${SCHEMA_VERSION}`)
    return db
  } catch (err) {
    db.close()
    throw err instanceof DuetError ? err : appsStoreError(file, err)
  }
}

/**
 * The error for an apps.db SQLite cannot use, in the channel store's shape: the path, what is wrong
 * (SQLite's words, turned into a cause a person can act on) and what to do.
 */
export function appsStoreError(file: string, err: unknown): DuetError {
  const reason = err instanceof Error ? err.message : String(err)
  const code = (err as { code?: unknown } | null)?.code
  const dir = dirname(file)
  let advice: string
  if (code === 'SQLITE_CORRUPT' || code === 'SQLITE_NOTADB' || /malformed|not a database/i.test(reason)) {
    advice = `The file is damaged or is not a Duet database: move it aside (saved apps, app data and the log in it are lost to Duet, the file itself is kept) and restart, or use another --data-dir.`
  } else if (
    code === 'SQLITE_READONLY' ||
    code === 'SQLITE_CANTOPEN' ||
    code === 'EACCES' ||
    code === 'EROFS' ||
    /readonly|read-only|permission/i.test(reason)
  ) {
    advice = `Make the file and its folder ${dir} writable by the user running Duet (the -wal and -shm files beside it too), or set --data-dir / DUET_DATA_DIR to a writable folder.`
  } else {
    advice = 'Check that the data folder is a writable directory (set --data-dir or DUET_DATA_DIR) and that the file is not corrupt.'
  }
  return new DuetError('STORE_UNAVAILABLE', `The apps store at ${file} cannot be used (${reason}). ${advice}`, { dir, file }, { cause: err })
}
