import type { SqliteDatabase } from './sqlite-driver.js'

/**
 * Brings a channels file from an older Duet up to the quota, app-seen, cursor-bound and per-channel-id schema,
 * and installs the triggers that keep the store-wide counters ('bytes' of stored messages, open 'channels') in the `stats` table.
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
  if (!columns('channels').has('owner')) {
    // A subject's channels are known by their key; older unscoped channels belong to no one in particular ('').
    db.exec(`ALTER TABLE channels ADD COLUMN owner TEXT NOT NULL DEFAULT '';
      UPDATE channels SET owner = substr(id, 1, 23) WHERE id GLOB 's[A-Za-z0-9_-]*' AND substr(id, 24, 1) = '.';`)
  }
  if (!columns('messages').has('owner')) {
    db.exec(`ALTER TABLE messages ADD COLUMN owner TEXT NOT NULL DEFAULT '';
      UPDATE messages SET owner = coalesce((SELECT owner FROM channels WHERE id = messages.channel), '');`)
  }
  if (!columns('channels').has('last_seq')) {
    // A channel's newest message id, the bound of its acknowledgement cursors. Channels from before it was kept
    // get the store's newest id: every cursor they accepted then is still accepted.
    db.exec(`ALTER TABLE channels ADD COLUMN last_seq INTEGER NOT NULL DEFAULT 0;
      UPDATE channels SET last_seq = coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'messages'), 0);`)
  }
  if (!columns('messages').has('n')) {
    // Message ids were the store-wide row number, which told every user how much the others send; they are now
    // each channel's own count (`n`, which the insert computes; a writer still running the older code inserts
    // none, and the messages_number trigger numbers its row), going on from the channel's bound: no id a reader
    // holds changes meaning.
    db.exec(`ALTER TABLE messages ADD COLUMN n INTEGER NOT NULL DEFAULT 0; UPDATE messages SET n = seq;`)
  }
  upgradeOwners(db)
  db.exec(`
    DROP INDEX IF EXISTS messages_queue;
    CREATE INDEX IF NOT EXISTS messages_by_n ON messages (channel, dir, n);
    DROP TRIGGER IF EXISTS messages_last_seq;
    INSERT INTO stats (name, value) SELECT 'bytes', coalesce(sum(size), 0) FROM messages WHERE true ON CONFLICT (name) DO NOTHING;
    INSERT INTO stats (name, value) SELECT 'channels', count(*) FROM channels WHERE state = 0 ON CONFLICT (name) DO NOTHING;
    CREATE TRIGGER IF NOT EXISTS messages_last_n AFTER INSERT ON messages WHEN NEW.n > 0
      BEGIN UPDATE channels SET last_seq = NEW.n WHERE id = NEW.channel; END;
    CREATE TRIGGER IF NOT EXISTS messages_number AFTER INSERT ON messages WHEN NEW.n = 0 BEGIN
      UPDATE channels SET last_seq = last_seq + 1 WHERE id = NEW.channel;
      UPDATE messages SET n = (SELECT last_seq FROM channels WHERE id = NEW.channel) WHERE seq = NEW.seq;
    END;
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

/**
 * The per-owner counters (bytes of stored messages, open channels, set-aside rows) beside the store-wide ones,
 * kept by triggers as those are. Each message carries its channel's owner, so the shared space ('') costs its
 * triggers nothing and a subject's message one primary-key update. An owner's row is made when its first channel is (`ensureOwner`), so the
 * triggers only ever update; the counts of a file from before owners existed are computed once.
 */
function upgradeOwners(db: SqliteDatabase): void {
  const fresh = !(db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'owners'`).get() as unknown)
  db.exec(`CREATE TABLE IF NOT EXISTS owners (
      owner TEXT PRIMARY KEY, bytes INTEGER NOT NULL DEFAULT 0, channels INTEGER NOT NULL DEFAULT 0, set_aside INTEGER NOT NULL DEFAULT 0
    ) WITHOUT ROWID;`)
  if (fresh) {
    db.exec(`INSERT INTO owners (owner) SELECT DISTINCT owner FROM channels WHERE owner != '';
      UPDATE owners SET
        channels = (SELECT count(*) FROM channels c WHERE c.owner = owners.owner AND c.state = 0),
        bytes = (SELECT coalesce(sum(size), 0) FROM messages m WHERE m.owner = owners.owner);`)
  }
  db.exec(`
    CREATE TRIGGER IF NOT EXISTS messages_owner_in AFTER INSERT ON messages WHEN NEW.owner != ''
      BEGIN UPDATE owners SET bytes = bytes + NEW.size WHERE owner = NEW.owner; END;
    CREATE TRIGGER IF NOT EXISTS messages_owner_out AFTER DELETE ON messages WHEN OLD.owner != ''
      BEGIN UPDATE owners SET bytes = bytes - OLD.size WHERE owner = OLD.owner; END;
    CREATE TRIGGER IF NOT EXISTS channels_owner_in AFTER INSERT ON channels WHEN NEW.state = 0
      BEGIN UPDATE owners SET channels = channels + 1 WHERE owner = NEW.owner; END;
    CREATE TRIGGER IF NOT EXISTS channels_owner_change AFTER UPDATE OF state ON channels WHEN (OLD.state = 0) != (NEW.state = 0)
      BEGIN UPDATE owners SET channels = channels + (CASE WHEN NEW.state = 0 THEN 1 ELSE -1 END) WHERE owner = NEW.owner; END;
    CREATE TRIGGER IF NOT EXISTS channels_owner_out AFTER DELETE ON channels WHEN OLD.state = 0
      BEGIN UPDATE owners SET channels = channels - 1 WHERE owner = OLD.owner; END;
  `)
}
