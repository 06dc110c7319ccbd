import { describe, expect, it } from 'vitest'
import { join } from 'node:path'
import { openSqlite } from '../../src/channel/sqlite-driver.js'
import { openAppStore } from '../../src/apps/index.js'
import { subjectScope } from '../../src/channel/subject-scope.js'
import { tempDataDir } from './harness.js'
import { caught, describeAppStore } from './store.case.js'

let tmp = tempDataDir()
describeAppStore('sqlite', {
  async fresh() {
    tmp.remove()
    tmp = tempDataDir()
  },
  open: (limits) => openAppStore({ dataDir: tmp.dir, ...(limits && { limits }) }),
})

describe('sqlite app store specifics', () => {
  it('rejects bad options, naming the factory and option', async () => {
    await expect(openAppStore(undefined as never)).rejects.toThrow(/openAppStore: option 'options'/)
    await expect(openAppStore({ dataDir: '' })).rejects.toThrow(/openAppStore: option 'dataDir'/)
    await expect(openAppStore({ dataDir: tmp.dir, limits: { maxRenders: 0 } })).rejects.toThrow(/option 'limits.maxRenders' must be a positive integer/)
    await expect(openAppStore({ dataDir: tmp.dir, limits: { nope: 1 } as never })).rejects.toThrow(/option 'limits.nope' is not a known limit/)
    await expect(openAppStore({ backend: 'mongo' as never, dataDir: tmp.dir })).rejects.toThrow(/option 'backend' must be 'sqlite' or 'redis'/)
    await expect(openAppStore({ dataDir: tmp.dir, url: 'redis://127.0.0.1:1' })).rejects.toThrow(/option 'url' is for the redis backend/)
    await expect(openAppStore({ backend: 'redis', url: 'http://127.0.0.1:6379' })).rejects.toThrow(/option 'url' must be a Redis URL/)
  })

  it('refuses a file written by a newer schema instead of corrupting it', async () => {
    const store = await openAppStore({ dataDir: tmp.dir })
    await store.close()
    const raw = openSqlite(store.location)
    raw.pragma('user_version = 99')
    raw.close()
    expect(await caught(openAppStore({ dataDir: tmp.dir }))).toMatchObject({ code: 'STORE_UNAVAILABLE', message: expect.stringMatching(/newer Duet/) })
  })

  it("gives a schema-3 file's renders their owner, so a subject's old renders count against its own cap", async () => {
    const dir = tempDataDir()
    try {
      const raw = openSqlite(join(dir.dir, 'apps.db'))
      // The renders table of schema 3: no owner, no app.
      raw.exec(`CREATE TABLE renders (channel_id TEXT PRIMARY KEY, kind TEXT NOT NULL, title TEXT, html TEXT, source TEXT, props TEXT,
        rendered_at INTEGER NOT NULL)`)
      const key = `${subjectScope('alice')}.ch-old`
      raw
        .prepare(`INSERT INTO renders (channel_id, kind, html, rendered_at) VALUES (?, 'html', '<p>old</p>', 1), ('ch-shared', 'html', '<p>x</p>', 2)`)
        .run(key)
      raw.pragma('user_version = 3')
      raw.close()
      const store = await openAppStore({ dataDir: dir.dir, limits: { maxRendersPerSubject: 1 } })
      const alice = store.forSubject('alice')
      expect(await alice.getRender('ch-old')).toMatchObject({ html: '<p>old</p>' })
      // Her next render pushes out her old one (hers by its key), not the shared space's.
      await alice.recordRender('ch-new', { kind: 'html', html: '<p>new</p>' })
      expect(await alice.getRender('ch-old')).toBeUndefined()
      expect(await store.getRender('ch-shared')).toMatchObject({ html: '<p>x</p>' })
      await store.close()
    } finally {
      dir.remove()
    }
  })

  it("numbers a schema-4 file's log rows per subject, going on from each one's newest, also for a row a schema-4 process writes after", async () => {
    const dir = tempDataDir()
    try {
      const raw = openSqlite(join(dir.dir, 'apps.db'))
      // The log of schema 4: the row id, counted across subjects, was each entry's id.
      raw.exec(`CREATE TABLE server_log (id INTEGER PRIMARY KEY AUTOINCREMENT, owner TEXT NOT NULL DEFAULT '', at INTEGER NOT NULL,
        level TEXT NOT NULL, message TEXT NOT NULL, data TEXT)`)
      const log = raw.prepare(`INSERT INTO server_log (owner, at, level, message) VALUES (?, 1, 'info', ?)`)
      for (const [owner, message] of [
        [subjectScope('alice'), 'a1'],
        [subjectScope('bob'), 'b1'],
        [subjectScope('alice'), 'a2'],
      ])
        log.run(owner!, message!)
      raw.pragma('user_version = 4')
      raw.close()
      const store = await openAppStore({ dataDir: dir.dir })
      const alice = store.forSubject('alice')
      expect((await alice.tail(5)).map((e) => [e.id, e.message])).toEqual([
        [1, 'a1'],
        [3, 'a2'],
      ])
      expect((await alice.log('info', 'a3')).id).toBe(4)
      expect((await store.forSubject('bob').log('info', 'b2')).id).toBe(3)
      // A process still on schema 4 (its INSERT names no number) writing beside this one: its row is numbered too.
      const older = openSqlite(store.location)
      older.prepare(`INSERT INTO server_log (owner, at, level, message) VALUES (?, 2, 'info', 'a4')`).run(subjectScope('alice'))
      older.close()
      expect((await alice.tail(2)).map((e) => [e.id, e.message])).toEqual([
        [4, 'a3'],
        [5, 'a4'],
      ])
      await store.close()
      const file = openSqlite(store.location, { readonly: true })
      expect(file.pragma('user_version', { simple: true })).toBe(5)
      file.close()
    } finally {
      dir.remove()
    }
  })

  it("reads a schema-1 file's 'warn' rows as 'warning'", async () => {
    const dir = tempDataDir()
    try {
      const first = await openAppStore({ dataDir: dir.dir })
      await first.close()
      const raw = openSqlite(first.location)
      raw.pragma('user_version = 1')
      raw.prepare('INSERT INTO server_log (at, level, message) VALUES (?, ?, ?)').run(Date.now(), 'warn', 'old warning')
      raw.close()
      const store = await openAppStore({ dataDir: dir.dir })
      expect(await store.tail(5, 'warning')).toEqual([expect.objectContaining({ level: 'warning', message: 'old warning' })])
      await store.close()
    } finally {
      dir.remove()
    }
  })
})
