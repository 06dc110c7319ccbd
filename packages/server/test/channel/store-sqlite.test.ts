import { writeFileSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { openSqlite } from '../../src/channel/sqlite-driver.js'
import { afterAll, describe, expect, it } from 'vitest'
import { openChannelStore } from '../../src/channel/index.js'
import { scopeChannelStore, subjectScope } from '../../src/channel/subject-scope.js'
import { SQLITE_FILE, SQLITE_SUBDIR } from '../../src/channel/sqlite-store.js'
import { channelError, describeChannelStore } from './store.case.js'
import { storeWithOneCorruptRow } from './corrupt-sqlite.js'
import { tempDir } from './temp-dir.js'

const shared = tempDir()
afterAll(() => shared.remove())

describeChannelStore('sqlite', (limits) => openChannelStore({ backend: 'sqlite', dataDir: shared.dir, limits }))

describe('sqlite store specifics', () => {
  it('one flipped byte in one stored message costs that message only: 49 of 50 delivered, the bad one counted', async () => {
    const { dir, remove } = tempDir()
    try {
      const { id } = await storeWithOneCorruptRow(dir, 50, 17)
      const store = await openChannelStore({ dataDir: dir })
      const reported: unknown[] = []
      store.onSetAside((event) => reported.push(event))
      const got = await store.drain(id, 'app-to-agent')
      expect(reported).toEqual([{ channelId: id, direction: 'app-to-agent', count: 1 }])
      expect(got.map((m) => (m.data as { i: number }).i)).toEqual([...Array(50).keys()].filter((i) => i !== 17))
      expect(await store.stats()).toMatchObject({ backend: 'sqlite', setAside: 1, bytes: 0 })
      expect(await store.peek(id, 'app-to-agent')).toBe(0)
      await store.dispose()
    } finally {
      remove()
    }
  })

  it('upgrades a file from before quotas: its stored bytes and open channels are counted, per subject too, its channels count as seen and keep their cursor bound, and their ids go on per channel', async () => {
    const { dir, remove } = tempDir()
    try {
      mkdirSync(join(dir, SQLITE_SUBDIR), { recursive: true })
      // The schema an older Duet wrote (no size column, no app_seen marker, no counters).
      const old = openSqlite(join(dir, SQLITE_SUBDIR, SQLITE_FILE))
      old.exec(`
        CREATE TABLE channels (id TEXT PRIMARY KEY, state INTEGER NOT NULL DEFAULT 0, touched_at INTEGER NOT NULL,
          pending_0 INTEGER NOT NULL DEFAULT 0, pending_1 INTEGER NOT NULL DEFAULT 0) WITHOUT ROWID;
        CREATE TABLE messages (seq INTEGER PRIMARY KEY AUTOINCREMENT, channel TEXT NOT NULL, dir INTEGER NOT NULL,
          event TEXT NOT NULL, data TEXT NOT NULL, at INTEGER NOT NULL);
        CREATE TABLE stats (name TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;`)
      const now = Date.now()
      old.prepare('INSERT INTO channels (id, touched_at, pending_0) VALUES (?, ?, 2)').run('ch-old', now)
      old.prepare('INSERT INTO channels (id, state, touched_at) VALUES (?, 1, ?)').run('ch-closed', now)
      for (const data of ['"é"', '{"a":1}'])
        old.prepare('INSERT INTO messages (channel, dir, event, data, at) VALUES (?, 0, ?, ?, ?)').run('ch-old', 'ev', data, now)
      // A subject's channel (its key carries the subject's scope) is counted as that subject's.
      const mine = `${subjectScope('alice')}.ch-mine`
      old.prepare('INSERT INTO channels (id, touched_at, pending_0) VALUES (?, ?, 1)').run(mine, now)
      old.prepare('INSERT INTO messages (channel, dir, event, data, at) VALUES (?, 0, ?, ?, ?)').run(mine, 'ev', '"hers"', now)
      old.close()
      const store = await openChannelStore({ dataDir: dir })
      try {
        expect(await scopeChannelStore(store, 'alice').stats()).toMatchObject({ bytes: 2 + 6, channels: 1 })
        expect(await scopeChannelStore(store, 'bob').stats()).toMatchObject({ bytes: 0, channels: 0 })
        await scopeChannelStore(store, 'alice').close('ch-mine')
        // 'ev' twice, '"é"' (4 bytes in UTF-8) and '{"a":1}' (7).
        expect(await store.stats()).toMatchObject({ bytes: 2 + 4 + 2 + 7, channels: 1 })
        expect(await store.appSeen('ch-old')).toBe(true)
        const got = await store.read('ch-old', 'app-to-agent', { after: '0' })
        expect(got.map((m) => m.data)).toEqual(['é', { a: 1 }])
        await store.ack('ch-old', 'app-to-agent', got[1].id)
        expect(await store.stats()).toMatchObject({ bytes: 0, channels: 1 })
        // An old channel keeps the cursor bound it had, the store's newest id (alice's message, 3)…
        expect(await store.ack('ch-old', 'app-to-agent', '3')).toBe(0)
        // …and its ids go on from there, per channel now: its next is 4, past every id it handed out before,
        // while a new channel starts its own count. Each is bound by its own newest id.
        const next = await store.send('ch-old', 'app-to-agent', { event: 'ev' })
        expect(next).toBe('4')
        expect(await store.send('ch-new', 'app-to-agent', { event: 'ev' })).toBe('1')
        expect((await channelError(store.ack('ch-old', 'app-to-agent', '5'))).code).toBe('INVALID_OPTION')
        expect(await store.ack('ch-old', 'app-to-agent', next)).toBe(1)
      } finally {
        await store.dispose()
      }
    } finally {
      remove()
    }
  })

  it('numbers a message an older Duet process writes to the same file (its INSERT has no id column) in its channel, and delivers it', async () => {
    const { dir, remove } = tempDir()
    try {
      const store = await openChannelStore({ dataDir: dir })
      try {
        const id = await store.open()
        expect(await store.send(id, 'app-to-agent', { event: 'new' })).toBe('1')
        await store.send(await store.open(), 'app-to-agent', { event: 'elsewhere' })
        // The statement the previous release prepares: no `n`, the id was the row number.
        const older = openSqlite(join(dir, SQLITE_SUBDIR, SQLITE_FILE))
        older.prepare('UPDATE channels SET pending_0 = pending_0 + 1 WHERE id = ?').run(id)
        older.prepare(`INSERT INTO messages (channel, dir, event, data, at, size, owner) VALUES (?, 0, 'old', '"x"', ?, 4, '')`).run(id, Date.now())
        older.close()
        expect(await store.send(id, 'app-to-agent', { event: 'new' })).toBe('3')
        const got = await store.read(id, 'app-to-agent', { after: '1' })
        expect(got.map((m) => [m.id, m.event])).toEqual([
          ['2', 'old'],
          ['3', 'new'],
        ])
      } finally {
        await store.dispose()
      }
    } finally {
      remove()
    }
  })

  it('keeps one WAL-mode database file under the data dir', async () => {
    const { dir, remove } = tempDir()
    try {
      const store = await openChannelStore({ dataDir: dir })
      expect(store.backend).toBe('sqlite')
      await store.send('ch-1', 'app-to-agent', { event: 'e' })
      const db = openSqlite(join(dir, SQLITE_SUBDIR, SQLITE_FILE), { readonly: true })
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal')
      expect(db.prepare('SELECT count(*) AS n FROM messages').get()).toEqual({ n: 1 })
      db.close()
      await store.dispose()
    } finally {
      remove()
    }
  })

  it('removes the rows of expired channels when it sweeps', async () => {
    const { dir, remove } = tempDir()
    try {
      const store = await openChannelStore({ dataDir: dir, limits: { idleTtlMs: 200 } })
      const stale = await store.open()
      for (let i = 0; i < 50; i++) await store.send(stale, 'agent-to-app', { event: 'e', data: i })
      // Expiry is about wall-clock time: past idleTtlMs (200 ms), the first channel has expired.
      await new Promise((r) => setTimeout(r, 500))
      const live = await store.open()
      await store.send(live, 'agent-to-app', { event: 'e' })
      expect(await store.sweep()).toBe(1)
      const db = openSqlite(join(dir, SQLITE_SUBDIR, SQLITE_FILE), { readonly: true })
      expect(db.prepare('SELECT channel, count(*) AS n FROM messages GROUP BY channel').all()).toEqual([{ channel: live, n: 1 }])
      db.close()
      await store.dispose()
    } finally {
      remove()
    }
  })

  it('fails with STORE_UNAVAILABLE when the data dir is a file, cannot be created, or holds a corrupt database, and with DISPOSED after dispose', async () => {
    const { dir, remove } = tempDir()
    try {
      const file = join(dir, 'not-a-dir')
      writeFileSync(file, 'x')
      let err = await channelError(openChannelStore({ dataDir: file }))
      expect(err.code).toBe('STORE_UNAVAILABLE')
      expect(err.message).toContain(file)
      expect(err.message).toMatch(/writable directory/)
      err = await channelError(openChannelStore({ dataDir: join(file, 'below-a-file') }))
      expect(err.code).toBe('STORE_UNAVAILABLE')
      if (process.getuid?.() !== 0) {
        // Root ignores permission bits, so an unwritable folder can only be tested as another user.
        const locked = join(dir, 'locked')
        mkdirSync(locked, { mode: 0o500 })
        err = await channelError(openChannelStore({ dataDir: locked }))
        expect(err.code).toBe('STORE_UNAVAILABLE')
      }
      mkdirSync(join(dir, 'corrupt', SQLITE_SUBDIR), { recursive: true })
      writeFileSync(join(dir, 'corrupt', SQLITE_SUBDIR, SQLITE_FILE), 'this is not a database, just text long enough to have a header'.repeat(100))
      err = await channelError(openChannelStore({ dataDir: join(dir, 'corrupt') }))
      expect(err.code).toBe('STORE_UNAVAILABLE')
      // A failed open leaves the process able to open a good store.
      const store = await openChannelStore({ dataDir: join(dir, 'good') })
      await store.send('ch-ok', 'app-to-agent', { event: 'e' })
      expect(await store.peek('ch-ok', 'app-to-agent')).toBe(1)
      await store.dispose()
      expect((await channelError(store.peek('ch-ok', 'app-to-agent'))).code).toBe('DISPOSED')
    } finally {
      remove()
    }
  })

  it('refuses unknown backends and a redis backend without a URL', async () => {
    await expect(openChannelStore({ backend: 'mongo' as never })).rejects.toMatchObject({
      code: 'INVALID_OPTION',
      message: expect.stringMatching(/options\.backend/),
    })
    await expect(openChannelStore({ backend: 'redis' })).rejects.toMatchObject({ code: 'INVALID_OPTION', message: expect.stringMatching(/options\.url/) })
  })
})
