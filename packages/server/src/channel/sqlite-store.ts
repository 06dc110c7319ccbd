import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { DuetError } from 'duetkit/protocol'
import { drainMax, encodeMessage, queueFullError, waitMs, type ChannelLimits } from './limits.js'
import {
  checkChannelId,
  checkDirection,
  closedError,
  mintChannelId,
  type ChannelMessage,
  type ChannelStore,
  type Direction,
  type DrainOptions,
  type OutgoingMessage,
} from './store.js'
import { Bell, bellKey, waitFor, waitForPending, watchDirectory } from './wake.js'
import { startSweeper, TOMBSTONE_TTL_FACTOR } from './sweeper.js'

/** The database lives in its own folder so the directory watcher only sees SQLite's files. */
export const SQLITE_SUBDIR = 'channels'
export const SQLITE_FILE = 'channels.sqlite'

// When an fs event is lost (network file systems, watcher limits), a waiting drain still re-checks this often.
const FALLBACK_POLL_MS = 250
// An empty poll refreshes the channel's idle clock at most this often, so idle polling stays read-only.
const TOUCH_EVERY_MS = 60_000
const TRAILING_RING_MS = 5

const OPEN = 0
const CLOSED = 1
const EXPIRED = 2

interface ChannelRow {
  state: number
  touched_at: number
  pending: number
}
interface MessageRow {
  seq: number
  event: string
  data: string
  at: number
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS channels (
  id TEXT PRIMARY KEY,
  state INTEGER NOT NULL DEFAULT 0,
  touched_at INTEGER NOT NULL,
  pending_0 INTEGER NOT NULL DEFAULT 0,
  pending_1 INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS messages (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  channel TEXT NOT NULL,
  dir INTEGER NOT NULL,
  event TEXT NOT NULL,
  data TEXT NOT NULL,
  at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS messages_queue ON messages (channel, dir, seq);
`

/** Opens (creating if needed) the SQLite channel store under `dataDir`. */
export function openSqliteStore(dataDir: string, limits: ChannelLimits): ChannelStore {
  const dir = join(dataDir, SQLITE_SUBDIR)
  let db: Database.Database
  try {
    mkdirSync(dir, { recursive: true })
    db = new Database(join(dir, SQLITE_FILE))
    db.pragma('busy_timeout = 10000')
    db.pragma('journal_mode = WAL')
    // NORMAL in WAL mode: a commit survives the process being killed; only an OS crash may lose the last ones.
    db.pragma('synchronous = NORMAL')
    db.exec(SCHEMA)
  } catch (err) {
    throw unavailable(dir, err)
  }
  return new SqliteChannelStore(db, dir, limits)
}

function unavailable(where: string, err: unknown): DuetError {
  const reason = err instanceof Error ? err.message : String(err)
  return new DuetError(
    'STORE_UNAVAILABLE',
    `The channel store at ${where} cannot be used (${reason}). Check that the data folder is a writable directory (set --data-dir or DUET_DATA_DIR) and that the file is not corrupt.`,
    { dir: where },
    { cause: err },
  )
}

const dirIndex = (direction: Direction) => (direction === 'app-to-agent' ? 0 : 1)

class SqliteChannelStore implements ChannelStore {
  readonly backend = 'sqlite' as const
  private readonly bell: Bell
  private stopWatching: (() => void) | undefined
  private readonly stopSweeper: () => void
  private readonly stmt
  private readonly txSend
  private readonly txDrain
  private readonly txClose
  private readonly txSweep
  private disposed = false
  private trailingRing: NodeJS.Timeout | undefined

  constructor(
    private readonly db: Database.Database,
    private readonly dir: string,
    private readonly limits: ChannelLimits,
  ) {
    this.bell = new Bell({
      onFirst: () => {
        this.stopWatching = watchDirectory(
          dir,
          (name) => name.endsWith('-wal'),
          () => this.walChanged(),
        )
      },
      onLast: () => {
        this.stopWatching?.()
        this.stopWatching = undefined
      },
    })
    const bump = [0, 1].map((d) =>
      db.prepare(
        `UPDATE channels SET pending_${d} = pending_${d} + 1, touched_at = @now
       WHERE id = @id AND state = ${OPEN} AND touched_at >= @fresh AND pending_${d} < @max`,
      ),
    )
    const lower = [0, 1].map((d) => db.prepare(`UPDATE channels SET pending_${d} = pending_${d} - @n, touched_at = @now WHERE id = @id`))
    const row = [0, 1].map((d) => db.prepare(`SELECT state, touched_at, pending_${d} AS pending FROM channels WHERE id = ?`))
    this.stmt = {
      bump,
      lower,
      row,
      create: db.prepare(`INSERT INTO channels (id, touched_at) VALUES (?, ?) ON CONFLICT (id) DO NOTHING`),
      insert: db.prepare(`INSERT INTO messages (channel, dir, event, data, at) VALUES (?, ?, ?, ?, ?)`),
      take: db.prepare(
        `DELETE FROM messages WHERE seq IN (SELECT seq FROM messages WHERE channel = ? AND dir = ? ORDER BY seq LIMIT ?)
         RETURNING seq, event, data, at`,
      ),
      touch: db.prepare(`UPDATE channels SET touched_at = ? WHERE id = ? AND state = ${OPEN}`),
      end: db.prepare(`INSERT INTO channels (id, state, touched_at) VALUES (@id, @state, @now)
         ON CONFLICT (id) DO UPDATE SET state = @state, pending_0 = 0, pending_1 = 0, touched_at = @now`),
      dropMessages: db.prepare(`DELETE FROM messages WHERE channel = ?`),
      idle: db.prepare(`SELECT id FROM channels WHERE state = ${OPEN} AND touched_at < ?`),
      forget: db.prepare(`DELETE FROM channels WHERE state != ${OPEN} AND touched_at < ?`),
    }
    const s = this.stmt
    this.txSend = db.transaction((id: string, d: number, event: string, json: string, now: number): number => {
      s.create.run(id, now)
      if (s.bump[d].run({ id, now, fresh: now - limits.idleTtlMs, max: limits.maxPending }).changes === 0) {
        const current = s.row[d].get(id) as ChannelRow
        if (current.state !== OPEN) throw closedError(id)
        if (current.touched_at < now - limits.idleTtlMs) {
          this.expire(id, now)
          return -1
        }
        throw queueFullError(id, limits)
      }
      return Number(s.insert.run(id, d, event, json, now).lastInsertRowid)
    })
    this.txDrain = db.transaction((id: string, d: number, max: number, now: number): MessageRow[] => {
      const rows = s.take.all(id, d, max) as MessageRow[]
      s.lower[d].run({ id, n: rows.length, now })
      return rows
    })
    this.txClose = db.transaction((id: string, state: number, now: number) => {
      s.end.run({ id, state, now })
      s.dropMessages.run(id)
    })
    this.txSweep = db.transaction((now: number): number => {
      const idle = s.idle.all(now - limits.idleTtlMs) as Array<{ id: string }>
      for (const { id } of idle) this.expire(id, now)
      // Tombstones keep a closed id refusing calls for a while, then go too.
      s.forget.run(now - limits.idleTtlMs * TOMBSTONE_TTL_FACTOR)
      return idle.length
    })
    this.stopSweeper = startSweeper(limits.idleTtlMs, () => this.sweep())
  }

  /**
   * A writer's frames reach the WAL file a moment before its commit becomes visible to readers (SQLite
   * publishes it in the shared-memory index, which fires no file event). So ring now, and once more shortly
   * after the last event, instead of leaving a reader that looked too early to the fallback poll.
   */
  private walChanged(): void {
    this.bell.ringAll()
    clearTimeout(this.trailingRing)
    this.trailingRing = setTimeout(() => this.bell.ringAll(), TRAILING_RING_MS)
    this.trailingRing.unref()
  }

  private expire(id: string, now: number): void {
    this.stmt.end.run({ id, state: EXPIRED, now })
    this.stmt.dropMessages.run(id)
  }

  /** Runs `fn`, turning SQLite failures (busy past the timeout, disk errors, corruption) into STORE_UNAVAILABLE. */
  private guard<T>(fn: () => T): T {
    if (this.disposed) throw new DuetError('DISPOSED', 'The channel store was disposed; open a new one.')
    try {
      return fn()
    } catch (err) {
      if (err instanceof DuetError) throw err
      throw unavailable(this.dir, err)
    }
  }

  async open(): Promise<string> {
    const id = mintChannelId()
    this.guard(() => this.stmt.create.run(id, Date.now()))
    return id
  }

  async send(id: string, direction: Direction, message: OutgoingMessage): Promise<string> {
    checkChannelId(id)
    const d = dirIndex(checkDirection(direction))
    const { event, json } = encodeMessage(message, this.limits)
    const seq = this.guard(() => this.txSend.immediate(id, d, event, json, Date.now()))
    if (seq < 0) throw closedError(id)
    this.bell.ring(bellKey(id, direction))
    return String(seq)
  }

  /** Reads the channel row; undefined when the id was never used. Throws when closed or expired. */
  private state(id: string, d: number, now: number): ChannelRow | undefined {
    const current = this.stmt.row[d].get(id) as ChannelRow | undefined
    if (!current) return undefined
    if (current.state !== OPEN) throw closedError(id)
    if (current.touched_at < now - this.limits.idleTtlMs) {
      this.db.transaction(() => this.expire(id, now)).immediate()
      throw closedError(id)
    }
    return current
  }

  private tryDrain(id: string, d: number, max: number): ChannelMessage[] | undefined {
    return this.guard(() => {
      const now = Date.now()
      const current = this.state(id, d, now)
      if (!current) {
        this.stmt.create.run(id, now)
        return undefined
      }
      if (current.pending === 0) {
        if (now - current.touched_at > TOUCH_EVERY_MS) this.stmt.touch.run(now, id)
        return undefined
      }
      const rows = this.txDrain.immediate(id, d, max, now)
      if (rows.length === 0) return undefined
      // RETURNING gives no order guarantee, so sort by the sequence number.
      rows.sort((a, b) => a.seq - b.seq)
      return rows.map((r) => ({ id: String(r.seq), event: r.event, data: JSON.parse(r.data), at: r.at }))
    })
  }

  async drain(id: string, direction: Direction, options: DrainOptions = {}): Promise<ChannelMessage[]> {
    checkChannelId(id)
    const d = dirIndex(checkDirection(direction))
    const max = drainMax(options.max)
    const wait = waitMs(options.waitMs)
    const found = await waitFor(this.bell, bellKey(id, direction), { waitMs: wait, signal: options.signal, fallbackPollMs: FALLBACK_POLL_MS }, () =>
      this.tryDrain(id, d, max),
    )
    return found ?? []
  }

  async peek(id: string, direction: Direction): Promise<number> {
    checkChannelId(id)
    const d = dirIndex(checkDirection(direction))
    return this.guard(() => this.state(id, d, Date.now())?.pending ?? 0)
  }

  async waitForMail(id: string, direction: Direction, wait: number, signal?: AbortSignal): Promise<number> {
    return waitForPending(this.bell, { id, direction, wait, signal }, FALLBACK_POLL_MS, () => this.peek(id, direction))
  }

  async close(id: string): Promise<void> {
    checkChannelId(id)
    this.guard(() => this.txClose.immediate(id, CLOSED, Date.now()))
    // Waiters re-check, find the channel closed and fail with CHANNEL_CLOSED instead of sleeping on.
    this.bell.ringAll()
  }

  async sweep(): Promise<number> {
    return this.guard(() => this.txSweep.immediate(Date.now()))
  }

  async dispose(): Promise<void> {
    if (this.disposed) return
    this.stopSweeper()
    this.stopWatching?.()
    clearTimeout(this.trailingRing)
    this.disposed = true
    this.bell.ringAll()
    this.db.close()
  }
}
