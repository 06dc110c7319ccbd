import { writeFileSync, mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, describe, expect, it } from 'vitest'
import { openChannelStore } from '../../src/channel/index.js'
import { SQLITE_FILE, SQLITE_SUBDIR } from '../../src/channel/sqlite-store.js'
import { channelError, describeChannelStore } from './store.case.js'
import { tempDir } from './temp-dir.js'

const shared = tempDir()
afterAll(() => shared.remove())

describeChannelStore('sqlite', (limits) => openChannelStore({ backend: 'sqlite', dataDir: shared.dir, limits }))

describe('sqlite store specifics', () => {
  it('one flipped byte in one stored message costs that message only: 49 of 50 delivered, the bad one counted', async () => {
    const { dir, remove } = tempDir()
    try {
      let store = await openChannelStore({ dataDir: dir })
      const id = await store.open()
      for (let i = 0; i < 50; i++) await store.send(id, 'app-to-agent', { event: 'e', data: { i, mark: i === 17 ? 'POISON-MARK' : 'fine' } })
      // Closing checkpoints the WAL into the main file, where the byte is flipped.
      await store.dispose()
      const file = join(dir, SQLITE_SUBDIR, SQLITE_FILE)
      const bytes = readFileSync(file)
      const at = bytes.indexOf('POISON-MARK')
      expect(at).toBeGreaterThan(0)
      expect(bytes.indexOf('POISON-MARK', at + 1)).toBe(-1)
      // The byte just before the marker is the string's opening quote: flipping it breaks that row's JSON.
      bytes[at - 1] ^= 0x01
      writeFileSync(file, bytes)
      store = await openChannelStore({ dataDir: dir })
      const got = await store.drain(id, 'app-to-agent')
      expect(got.map((m) => (m.data as { i: number }).i)).toEqual([...Array(50).keys()].filter((i) => i !== 17))
      expect(await store.stats()).toEqual({ backend: 'sqlite', setAside: 1 })
      expect(await store.peek(id, 'app-to-agent')).toBe(0)
      await store.dispose()
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
      const db = new Database(join(dir, SQLITE_SUBDIR, SQLITE_FILE), { readonly: true })
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
      await new Promise((r) => setTimeout(r, 500))
      const live = await store.open()
      await store.send(live, 'agent-to-app', { event: 'e' })
      expect(await store.sweep()).toBe(1)
      const db = new Database(join(dir, SQLITE_SUBDIR, SQLITE_FILE), { readonly: true })
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
