import type { SqliteDatabase } from './sqlite-driver.js'

/**
 * Brings a channels file from an older Duet up to the quota and app-seen schema, and installs the triggers
 * that keep the store-wide counters ('bytes' of stored messages, open 'channels') in the `stats` table.
 * Triggers rather than code: every path that inserts or deletes a message or ends a channel (send, ack,
 * set-aside, close, expiry, sweep) updates them in its own transaction, so they cannot drift.
 * Runs inside the opener's immediate transaction, so two processes opening an old file at once upgrade it once.
 */
export function upgradeSchema(db: SqliteDatabase): void {
  const columns = (table: string) => new Set((db.pragma(`table_info(${table})`) as Array<{ name: string }>).map((c) => c.name))
  if (!columns('messages').has('size')) {
    db.exec(`ALTER TABLE messages ADD COLUMN size INTEGER NOT NULL DEFAULT 0;
      UPDATE messages SET size = length(CAST(data AS BLOB)) + length(CAST(event AS BLOB));`)
  }
  if (!columns('channels').has('app_seen')) {
    // Channels that existed before the marker get the benefit of the doubt: no "likely typo" hint for them.
    db.exec(`ALTER TABLE channels ADD COLUMN app_seen INTEGER NOT NULL DEFAULT 0; UPDATE channels SET app_seen = 1;`)
  }
  db.exec(`
    INSERT INTO stats (name, value) SELECT 'bytes', coalesce(sum(size), 0) FROM messages WHERE true ON CONFLICT (name) DO NOTHING;
    INSERT INTO stats (name, value) SELECT 'channels', count(*) FROM channels WHERE state = 0 ON CONFLICT (name) DO NOTHING;
    CREATE TRIGGER IF NOT EXISTS messages_bytes_in AFTER INSERT ON messages
      BEGIN UPDATE stats SET value = value + NEW.size WHERE name = 'bytes'; END;
    CREATE TRIGGER IF NOT EXISTS messages_bytes_out AFTER DELETE ON messages
      BEGIN UPDATE stats SET value = value - OLD.size WHERE name = 'bytes'; END;
    CREATE TRIGGER IF NOT EXISTS channels_open_in AFTER INSERT ON channels WHEN NEW.state = 0
      BEGIN UPDATE stats SET value = value + 1 WHERE name = 'channels'; END;
    CREATE TRIGGER IF NOT EXISTS channels_open_change AFTER UPDATE OF state ON channels WHEN (OLD.state = 0) != (NEW.state = 0)
      BEGIN UPDATE stats SET value = value + (CASE WHEN NEW.state = 0 THEN 1 ELSE -1 END) WHERE name = 'channels'; END;
    CREATE TRIGGER IF NOT EXISTS channels_open_out AFTER DELETE ON channels WHEN OLD.state = 0
      BEGIN UPDATE stats SET value = value - 1 WHERE name = 'channels'; END;
  `)
}
