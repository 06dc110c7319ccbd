import { describe, expect, it } from 'vitest'
import { openSqlite } from '../../src/channel/sqlite-driver.js'
import { openAppStore } from '../../src/apps/index.js'
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
