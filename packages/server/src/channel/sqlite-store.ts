import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { DuetError } from 'duetkit/protocol'
import { decodeData, drainMax, encodeMessage, queueFullError, quotaError, waitMs, type ChannelLimits } from './limits.js'
import { SetAsideListeners } from './set-aside.js'
import { openSqlite, type SqliteDatabase } from './sqlite-driver.js'
import { upgradeSchema } from './sqlite-schema.js'
import {
  afterTooLarge,
  checkAfter,
  checkChannelId,
  checkDirection,
  closedError,
  DIRECTIONS,
  isMintedId,
  mintChannelId,
  ownerOf,
  unknownChannelError,
  type ChannelMessage,
  type ChannelStats,
  type ChannelStore,
  type Direction,
  type DrainOptions,
  type OutgoingMessage,
  type ReadOptions,
  type SetAsideEvent,
} from './store.js'
import { Bell, bellKey, waitFor, waitForPending, watchDirectory } from './wake.js'
import { startSweeper, TOMBSTONE_TTL_FACTOR } from './sweeper.js'

/** The database lives in its own folder so the directory watcher only sees SQLite's files. */
export const SQLITE_SUBDIR = 'channels'
export const SQLITE_FILE = 'channels.sqlite'

// When an fs event is lost (network file systems, watcher limits), the store still looks for changes this
// often while anyone waits: one query for all waiters, so the cost does not grow with them.
const CHANGE_POLL_MS = 250
// Each waiter's own re-check, a last safety net only (a channel expired by another process's sweep).
const FALLBACK_POLL_MS = 30_000
// An empty poll refreshes the channel's idle clock at most this often, so idle polling stays read-only.
const TOUCH_EVERY_MS = 60_000
// After the last WAL event, look again this long after it. The commit is usually visible by the first look;
// on a busy machine the writer can be descheduled between its WAL write and its commit for tens of ms, and
// a single look at 5 ms then left the reader to CHANGE_POLL_MS (the 250 ms tail of a woken `duet wait`).
const TRAILING_RINGS_MS = [5, 20, 60, 150]
// The watcher outlives its last waiter this long: a server's polls come and go every few ms, and re-creating the
// inotify watch, the change poll and the seen marks for each one cost more than keeping them.
const WATCH_LINGER_MS = 10_000

const OPEN = 0
const CLOSED = 1
const EXPIRED = 2

interface ChannelRow {
  state: number
  touched_at: number
  pending: number
  app_seen: number
  owner: string
  last_seq: number
}
interface MessageRow {
  seq: number
  n: number
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
  pending_1 INTEGER NOT NULL DEFAULT 0,
  app_seen INTEGER NOT NULL DEFAULT 0,
  owner TEXT NOT NULL DEFAULT '',
  last_seq INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS messages (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  channel TEXT NOT NULL,
  dir INTEGER NOT NULL,
  event TEXT NOT NULL,
  data TEXT NOT NULL,
  at INTEGER NOT NULL,
  size INTEGER NOT NULL DEFAULT 0,
  owner TEXT NOT NULL DEFAULT '',
  n INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS stats (name TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS closes (seq INTEGER PRIMARY KEY AUTOINCREMENT, channel TEXT NOT NULL, at INTEGER NOT NULL);
`

/** Opens (creating if needed) the SQLite channel store under `dataDir`. */
export function openSqliteStore(dataDir: string, limits: ChannelLimits): ChannelStore {
  const dir = join(dataDir, SQLITE_SUBDIR)
  let db: SqliteDatabase
  try {
    mkdirSync(dir, { recursive: true })
    db = openSqlite(join(dir, SQLITE_FILE))
    db.pragma('busy_timeout = 10000')
    db.pragma('journal_mode = WAL')
    // NORMAL in WAL mode: a commit survives the process being killed; only an OS crash may lose the last ones.
    db.pragma('synchronous = NORMAL')
    db.transaction(() => {
      db.exec(SCHEMA)
      upgradeSchema(db)
    }).immediate()
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
  private readonly txAck
  private readonly txSetAside
  private readonly txClose
  private readonly txSweep
  private disposed = false
  private readonly setAsideListeners = new SetAsideListeners()
  private trailingRing: NodeJS.Timeout | undefined
  private changePoll: NodeJS.Timeout | undefined
  private unwatch: NodeJS.Timeout | undefined
  // SQLite's count of commits by other connections at the last change check (own commits leave it alone).
  private seenVersion: number | undefined
  // The newest message and close this process has looked at: a change check reads only what came after.
  private seenMessage = 0
  private seenClose = 0

  constructor(
    private readonly db: SqliteDatabase,
    private readonly dir: string,
    private readonly limits: ChannelLimits,
  ) {
    this.bell = new Bell({
      onFirst: () => {
        clearTimeout(this.unwatch)
        if (this.stopWatching) return
        this.markSeen()
        this.stopWatching = watchDirectory(
          dir,
          (name) => name.endsWith('-wal'),
          () => this.walChanged(),
        )
        this.changePoll = setInterval(() => this.ringChanged(), CHANGE_POLL_MS)
        this.changePoll.unref()
      },
      onLast: () => {
        clearTimeout(this.unwatch)
        this.unwatch = setTimeout(() => this.stopWatch(), WATCH_LINGER_MS)
        this.unwatch.unref()
      },
    })
    const bump = [0, 1].map((d) =>
      db.prepare(
        `UPDATE channels SET pending_${d} = pending_${d} + 1, touched_at = @now
       WHERE id = @id AND state = ${OPEN} AND touched_at >= @fresh AND pending_${d} < @max`,
      ),
    )
    const lower = [0, 1].map((d) => db.prepare(`UPDATE channels SET pending_${d} = pending_${d} - @n, touched_at = @now WHERE id = @id`))
    const row = [0, 1].map((d) => db.prepare(`SELECT state, touched_at, pending_${d} AS pending, app_seen, owner, last_seq FROM channels WHERE id = ?`))
    this.stmt = {
      bump,
      lower,
      row,
      create: db.prepare(`INSERT INTO channels (id, touched_at, app_seen, owner) VALUES (?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`),
      ensureOwner: db.prepare(`INSERT INTO owners (owner) VALUES (?) ON CONFLICT (owner) DO NOTHING`),
      usage: db.prepare(`SELECT bytes, channels, set_aside FROM owners WHERE owner = ?`),
      forgetOwners: db.prepare(`DELETE FROM owners WHERE bytes = 0 AND channels = 0`),
      countSetAside: db.prepare(`UPDATE owners SET set_aside = set_aside + ? WHERE owner = (SELECT owner FROM channels WHERE id = ?)`),
      markApp: db.prepare(`UPDATE channels SET app_seen = 1 WHERE id = ? AND app_seen = 0`),
      appSeen: db.prepare(`SELECT app_seen FROM channels WHERE id = ?`),
      // A message's id is its channel's next number (the messages_last_n trigger moves the bound on), not the
      // store-wide row number, which would tell every user how much the others send.
      insert: db.prepare(`INSERT INTO messages (channel, dir, event, data, at, size, owner, n) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`),
      first: db.prepare(`SELECT seq, n, event, data, at FROM messages WHERE channel = ? AND dir = ? AND n > ? ORDER BY n LIMIT ?`),
      ackUpTo: db.prepare(`DELETE FROM messages WHERE channel = ? AND dir = ? AND n <= ?`),
      dropOne: db.prepare(`DELETE FROM messages WHERE seq = ?`),
      lastSeq: db.prepare(`SELECT last_seq FROM channels WHERE id = ?`),
      count: db.prepare(`INSERT INTO stats (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = value + excluded.value`),
      stat: db.prepare(`SELECT value FROM stats WHERE name = ?`),
      touch: db.prepare(`UPDATE channels SET touched_at = ? WHERE id = ? AND state = ${OPEN}`),
      end: db.prepare(`INSERT INTO channels (id, state, touched_at) VALUES (@id, @state, @now)
         ON CONFLICT (id) DO UPDATE SET state = @state, pending_0 = 0, pending_1 = 0, touched_at = @now`),
      dropMessages: db.prepare(`DELETE FROM messages WHERE channel = ?`),
      noteClose: db.prepare(`INSERT INTO closes (channel, at) VALUES (?, ?)`),
      forgetCloses: db.prepare(`DELETE FROM closes WHERE at < ?`),
      newMessages: db.prepare(`SELECT DISTINCT channel, dir FROM messages WHERE seq > ?`),
      newestMessage: db.prepare(`SELECT coalesce(max(seq), 0) AS seq FROM messages`),
      newCloses: db.prepare(`SELECT seq, channel FROM closes WHERE seq > ?`),
      newestClose: db.prepare(`SELECT coalesce(max(seq), 0) AS seq FROM closes`),
      dataVersion: db.prepare('PRAGMA data_version'),
      idle: db.prepare(`SELECT id FROM channels WHERE state = ${OPEN} AND touched_at < ?`),
      forget: db.prepare(`DELETE FROM channels WHERE state != ${OPEN} AND touched_at < ?`),
    }
    const s = this.stmt
    this.txSend = db.transaction((id: string, d: number, event: string, json: string, bytes: number, now: number, given?: string): number => {
      const existing = s.row[d].get(id) as ChannelRow | undefined
      if (isMintedId(id) && !existing) throw unknownChannelError(id, `${this.backend} at ${dir}`)
      // Sends to the agent come from the app (d 0), so they mark the channel as seen by one.
      const owner = existing ? existing.owner : ownerOf(id, given)
      if (!existing) this.create(id, now, d === 0, owner)
      else if (d === 0 && !existing.app_seen) s.markApp.run(id)
      // Closed, expired and full come first, as on the other backends; a throw below undoes the bump with the rest.
      if (s.bump[d].run({ id, now, fresh: now - limits.idleTtlMs, max: limits.maxPending }).changes === 0) {
        const current = s.row[d].get(id) as ChannelRow
        if (current.state !== OPEN) throw closedError(id)
        if (current.touched_at < now - limits.idleTtlMs) {
          this.expire(id, now)
          return -1
        }
        throw queueFullError(id, limits)
      }
      const used = this.counter('bytes')
      if (used + bytes > limits.maxStoreBytes) {
        this.expireIdle(now)
        const after = this.counter('bytes')
        if (after + bytes > limits.maxStoreBytes) throw quotaError('maxStoreBytes', limits.maxStoreBytes, after, bytes)
      }
      // The owner's share, checked in the same transaction as the insert, so replicas racing cannot overshoot it.
      if (owner !== '' && this.usage(owner).bytes + bytes > limits.maxStoreBytesPerSubject) {
        this.expireIdle(now)
        const mine = this.usage(owner).bytes
        if (mine + bytes > limits.maxStoreBytesPerSubject) throw quotaError('maxStoreBytesPerSubject', limits.maxStoreBytesPerSubject, mine, bytes)
      }
      // The channel's next number: read in this write transaction, so no other writer can take it meanwhile.
      const n = (existing?.last_seq ?? 0) + 1
      s.insert.run(id, d, event, json, now, bytes, owner, n)
      return n
    })
    this.txAck = db.transaction((id: string, d: number, upTo: number, now: number): number => {
      // Past the newest id this channel handed out.
      const last = (s.lastSeq.get(id) as { last_seq: number } | undefined)?.last_seq ?? 0
      if (upTo > last) return -1
      const n = s.ackUpTo.run(id, d, upTo).changes
      if (n > 0) s.lower[d].run({ id, n, now })
      return n
    })
    this.txSetAside = db.transaction((id: string, d: number, seqs: number[], now: number) => {
      let n = 0
      for (const seq of seqs) n += s.dropOne.run(seq).changes
      if (n > 0) {
        s.lower[d].run({ id, n, now })
        s.count.run('set_aside', n)
        s.countSetAside.run(n, id)
      }
    })
    this.txClose = db.transaction((id: string, state: number, now: number) => {
      s.end.run({ id, state, now })
      s.dropMessages.run(id)
      s.noteClose.run(id, now)
    })
    this.txSweep = db.transaction((now: number): number => {
      const expired = this.expireIdle(now)
      // Tombstones keep a closed id refusing calls for a while, then go too.
      s.forget.run(now - limits.idleTtlMs * TOMBSTONE_TTL_FACTOR)
      s.forgetCloses.run(now - 60_000)
      // Owners holding nothing (an address seen once, long ago) leave no row behind.
      s.forgetOwners.run()
      return expired
    })
    this.stopSweeper = startSweeper(limits.idleTtlMs, () => this.sweep())
  }

  /**
   * A writer's frames reach the WAL file a moment before its commit becomes visible to readers (SQLite
   * publishes it in the shared-memory index, which fires no file event). So ring now, and again at each of
   * TRAILING_RINGS_MS after the last event, instead of leaving a reader that looked too early to the fallback poll.
   */
  private walChanged(): void {
    this.ringChanged()
    clearTimeout(this.trailingRing)
    const at = Date.now()
    const look = (step: number) => {
      if (step >= TRAILING_RINGS_MS.length) return
      this.trailingRing = setTimeout(
        () => {
          this.ringChanged()
          look(step + 1)
        },
        Math.max(0, TRAILING_RINGS_MS[step]! - (Date.now() - at)),
      )
      this.trailingRing.unref()
    }
    look(0)
  }

  private stopWatch(): void {
    this.stopWatching?.()
    this.stopWatching = undefined
    clearInterval(this.changePoll)
    clearTimeout(this.unwatch)
  }

  /**
   * Whether another connection (another process, or another store on the same file) committed since the last
   * look. Every write of this store's own also fires the WAL watcher, and its waiters were already rung by
   * the write itself: without this check each of them cost five change scans (the event and its trailing looks).
   */
  private othersWrote(): boolean {
    const version = this.dataVersion()
    if (version === this.seenVersion) return false
    this.seenVersion = version
    return true
  }

  private dataVersion(): number {
    return (this.stmt.dataVersion.get() as { data_version: number }).data_version
  }

  private markSeen(): void {
    try {
      this.seenVersion = this.dataVersion()
      this.seenMessage = (this.stmt.newestMessage.get() as { seq: number }).seq
      this.seenClose = (this.stmt.newestClose.get() as { seq: number }).seq
    } catch {
      // Unreadable now: the first check will ring for everything it finds.
    }
  }

  /**
   * Wakes only the waiters of queues that got a message, or channels that were closed, since the last check:
   * two primary-key range reads per WAL change, whatever the number of idle waiters on other channels.
   */
  private ringChanged(): void {
    if (this.disposed || !this.bell.busy) return
    let messages: Array<{ channel: string; dir: number }>
    let closes: Array<{ seq: number; channel: string }>
    try {
      if (!this.othersWrote()) return
      const newest = (this.stmt.newestMessage.get() as { seq: number }).seq
      messages = newest > this.seenMessage ? (this.stmt.newMessages.all(this.seenMessage) as typeof messages) : []
      this.seenMessage = Math.max(this.seenMessage, newest)
      closes = this.stmt.newCloses.all(this.seenClose) as typeof closes
    } catch {
      // A busy or broken file: let every waiter re-check and meet the error itself.
      this.bell.ringAll()
      return
    }
    for (const { channel, dir } of messages) this.bell.ring(bellKey(channel, DIRECTIONS[dir]))
    for (const { seq, channel } of closes) {
      this.seenClose = Math.max(this.seenClose, seq)
      for (const direction of DIRECTIONS) this.bell.ring(bellKey(channel, direction))
    }
  }

  /** A counter the schema's triggers keep: 'bytes' of stored messages, open 'channels'. */
  private counter(name: 'bytes' | 'channels'): number {
    return (this.stmt.stat.get(name) as { value: number } | undefined)?.value ?? 0
  }

  /** What `owner` holds now (zeros for an owner with no row yet). */
  private usage(owner: string): { bytes: number; channels: number; set_aside: number } {
    return (this.stmt.usage.get(owner) as { bytes: number; channels: number; set_aside: number } | undefined) ?? { bytes: 0, channels: 0, set_aside: 0 }
  }

  /**
   * Creates a channel row charged to `owner`, within the store's and the owner's channel quotas (idle channels
   * are expired first so they hold no room). Runs in the caller's write transaction.
   */
  private create(id: string, now: number, appSeen: boolean, owner: string): void {
    if (this.counter('channels') >= this.limits.maxChannels) {
      this.expireIdle(now)
      const open = this.counter('channels')
      if (open >= this.limits.maxChannels) throw quotaError('maxChannels', this.limits.maxChannels, open)
    }
    if (owner !== '') {
      this.stmt.ensureOwner.run(owner)
      if (this.usage(owner).channels >= this.limits.maxChannelsPerSubject) {
        this.expireIdle(now)
        const mine = this.usage(owner).channels
        if (mine >= this.limits.maxChannelsPerSubject) throw quotaError('maxChannelsPerSubject', this.limits.maxChannelsPerSubject, mine)
      }
    }
    this.stmt.create.run(id, now, appSeen ? 1 : 0, owner)
  }

  /** Expires every channel idle past the TTL (inside the caller's write transaction); returns how many. */
  private expireIdle(now: number): number {
    const idle = this.stmt.idle.all(now - this.limits.idleTtlMs) as Array<{ id: string }>
    for (const { id } of idle) this.expire(id, now)
    return idle.length
  }

  private expire(id: string, now: number): void {
    this.stmt.end.run({ id, state: EXPIRED, now })
    this.stmt.dropMessages.run(id)
    this.stmt.noteClose.run(id, now)
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

  async open(scope?: string, owner?: string): Promise<string> {
    const id = mintChannelId(scope)
    const charged = ownerOf(id, owner)
    this.guard(() => this.db.transaction(() => this.create(id, Date.now(), true, charged)).immediate())
    return id
  }

  async send(id: string, direction: Direction, message: OutgoingMessage, owner?: string): Promise<string> {
    checkChannelId(id)
    const d = dirIndex(checkDirection(direction))
    const { event, json, bytes } = encodeMessage(message, this.limits)
    ownerOf(id, owner)
    const seq = this.guard(() => this.txSend.immediate(id, d, event, json, bytes, Date.now(), owner))
    if (seq < 0) throw closedError(id)
    this.bell.ring(bellKey(id, direction))
    return String(seq)
  }

  /** Reads the channel row; undefined when the id was never used. Throws when closed or expired. */
  private state(id: string, d: number, now: number): ChannelRow | undefined {
    const current = this.stmt.row[d].get(id) as ChannelRow | undefined
    if (!current && isMintedId(id)) throw unknownChannelError(id, `${this.backend} at ${this.dir}`)
    if (!current) return undefined
    if (current.state !== OPEN) throw closedError(id)
    if (current.touched_at < now - this.limits.idleTtlMs) {
      this.db.transaction(() => this.expire(id, now)).immediate()
      throw closedError(id)
    }
    return current
  }

  private tryRead(id: string, d: number, max: number, since: number, owner: string, consume?: DrainOptions['accept'] | true): ChannelMessage[] | undefined {
    return this.guard(() => {
      if (!consume) return this.readRows(id, d, max, since, owner)
      // A drain reads, checks and removes in one write transaction, so concurrent drains never share a message.
      return this.db
        .transaction(() => {
          const out = this.readRows(id, d, max, since, owner)
          if (out) {
            if (consume !== true) consume(out)
            this.txAck(id, d, Number(out[out.length - 1].id), Date.now())
          }
          return out
        })
        .immediate()
    })
  }

  private readRows(id: string, d: number, max: number, since: number, owner: string): ChannelMessage[] | undefined {
    for (;;) {
      const now = Date.now()
      const current = this.state(id, d, now)
      // Reads of the agent's messages (d 1) come from the app, so they mark the channel as seen by one.
      if (!current) {
        this.inWrite(() => this.create(id, now, d === 1, owner))
        return undefined
      }
      if (d === 1 && !current.app_seen) this.stmt.markApp.run(id)
      if (current.pending <= 0) {
        if (now - current.touched_at > TOUCH_EVERY_MS) this.stmt.touch.run(now, id)
        return undefined
      }
      const rows = this.stmt.first.all(id, d, since, max) as MessageRow[]
      if (rows.length === 0) return undefined
      // Parse before anything is removed: a row that will not parse (a flipped byte on disk) is set aside on
      // its own, and its neighbours are still delivered.
      const out: ChannelMessage[] = []
      const bad: number[] = []
      for (const r of rows) {
        const decoded = decodeData(r.data)
        if (decoded.ok && typeof r.event === 'string') out.push({ id: String(r.n), event: r.event, data: decoded.data, at: r.at })
        else bad.push(r.seq)
      }
      if (bad.length) {
        ;(this.db.inTransaction ? this.txSetAside : this.txSetAside.immediate)(id, d, bad, now)
        this.setAsideListeners.emit({ channelId: id, direction: DIRECTIONS[d], count: bad.length })
      }
      if (out.length) return out
    }
  }

  async drain(id: string, direction: Direction, options: DrainOptions = {}): Promise<ChannelMessage[]> {
    return this.read(id, direction, { ...options, after: undefined, since: undefined }, options.accept ?? true)
  }

  async read(id: string, direction: Direction, options: ReadOptions = {}, consume?: DrainOptions['accept'] | true): Promise<ChannelMessage[]> {
    checkChannelId(id)
    const d = dirIndex(checkDirection(direction))
    const max = drainMax(options.max)
    const wait = waitMs(options.waitMs)
    const owner = ownerOf(id, options.owner)
    if (options.after !== undefined) await this.ack(id, direction, options.after, options.owner)
    const since = options.since === undefined ? 0 : checkAfter(options.since)
    const found = await waitFor(this.bell, bellKey(id, direction), { waitMs: wait, signal: options.signal, fallbackPollMs: FALLBACK_POLL_MS }, () =>
      this.tryRead(id, d, max, since, owner, consume),
    )
    return found ?? []
  }

  async ack(id: string, direction: Direction, upTo: string, owner?: string): Promise<number> {
    checkChannelId(id)
    const d = dirIndex(checkDirection(direction))
    const n = checkAfter(upTo)
    const charged = ownerOf(id, owner)
    return this.guard(() => {
      const now = Date.now()
      const current = this.state(id, d, now)
      // A cursor past the newest id is refused before anything changes: no channel made, no app mark.
      if (!current && n > 0) throw afterTooLarge(upTo)
      if (!current) this.inWrite(() => this.create(id, now, d === 1, charged))
      const removed = this.txAck.immediate(id, d, n, now)
      if (removed < 0) throw afterTooLarge(upTo)
      if (current && d === 1 && !current.app_seen) this.stmt.markApp.run(id)
      return removed
    })
  }

  async stats(owner?: string): Promise<ChannelStats> {
    // No owner, or '' (no one in particular): the store's own counters.
    const mine = owner === undefined ? '' : ownerOf('', owner)
    if (mine !== '') {
      return this.guard(() => {
        const { bytes, channels, set_aside } = this.usage(mine)
        const limits = { bytes: this.limits.maxStoreBytesPerSubject, channels: this.limits.maxChannelsPerSubject }
        return { backend: this.backend, setAside: set_aside, bytes, channels, limits }
      })
    }
    return this.guard(() => ({
      backend: this.backend,
      setAside: (this.stmt.stat.get('set_aside') as { value: number } | undefined)?.value ?? 0,
      bytes: this.counter('bytes'),
      channels: this.counter('channels'),
      limits: { bytes: this.limits.maxStoreBytes, channels: this.limits.maxChannels },
    }))
  }

  async appSeen(id: string): Promise<boolean> {
    checkChannelId(id)
    return this.guard(() => (this.stmt.appSeen.get(id) as { app_seen: number } | undefined)?.app_seen === 1)
  }

  onSetAside(listener: (event: SetAsideEvent) => void): () => void {
    return this.setAsideListeners.add(listener)
  }

  /** Runs `fn` in the caller's transaction, or in its own write transaction (a quota check and its insert stay atomic). */
  private inWrite(fn: () => void): void {
    if (this.db.inTransaction) fn()
    else this.db.transaction(fn).immediate()
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
    // Its waiters re-check, find the channel closed and fail with CHANNEL_CLOSED instead of sleeping on.
    for (const direction of DIRECTIONS) this.bell.ring(bellKey(id, direction))
  }

  async sweep(): Promise<number> {
    return this.guard(() => this.txSweep.immediate(Date.now()))
  }

  async dispose(): Promise<void> {
    if (this.disposed) return
    this.stopSweeper()
    this.stopWatch()
    clearTimeout(this.trailingRing)
    this.disposed = true
    this.bell.ringAll()
    this.db.close()
  }
}
