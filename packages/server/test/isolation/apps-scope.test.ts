import { openSqlite } from '../../src/channel/sqlite-driver.js'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openAppStore } from '../../src/apps/index.js'
import { tempDir } from '../channel/temp-dir.js'
import { CHANNEL, describeAppsScope } from './apps-scope.case.js'

describeAppsScope({
  name: 'sqlite',
  async open() {
    const { dir, remove } = tempDir('duet-isolation-apps-')
    const a = await openAppStore({ dataDir: dir })
    const b = await openAppStore({ dataDir: dir })
    return {
      stores: [a, b],
      done: async () => {
        await Promise.all([a.close(), b.close()])
        remove()
      },
    }
  },
})

describe('an apps.db written before subjects existed', () => {
  it('opens, and its saved apps, data, renders and log stay in the shared space (no subject), apart from every subject', async () => {
    const { dir, remove } = tempDir('duet-isolation-migrate-')
    try {
      // Schema 2, as the previous release wrote it.
      const old = openSqlite(join(dir, 'apps.db'))
      old.exec(`
        CREATE TABLE renders (channel_id TEXT PRIMARY KEY, kind TEXT NOT NULL, title TEXT, html TEXT, source TEXT, props TEXT, rendered_at INTEGER NOT NULL);
        CREATE INDEX renders_by_time ON renders (rendered_at);
        CREATE TABLE saved_apps (name TEXT PRIMARY KEY, kind TEXT NOT NULL, title TEXT, description TEXT, html TEXT, source TEXT, props TEXT, saved_at INTEGER NOT NULL);
        CREATE TABLE app_data (app TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, bytes INTEGER NOT NULL, updated_at INTEGER NOT NULL, PRIMARY KEY (app, key));
        CREATE TABLE server_log (id INTEGER PRIMARY KEY AUTOINCREMENT, at INTEGER NOT NULL, level TEXT NOT NULL, message TEXT NOT NULL, data TEXT);
        INSERT INTO renders VALUES ('${CHANNEL}', 'html', NULL, '<p>old</p>', NULL, NULL, 1);
        INSERT INTO saved_apps VALUES ('old-app', 'html', 'Old', 'kept', '<p>old</p>', NULL, NULL, 2);
        INSERT INTO app_data VALUES ('old-app', 'k', '[1,2]', 5, 3);
        INSERT INTO server_log (at, level, message, data) VALUES (4, 'info', 'old row', NULL);
        PRAGMA user_version = 2;
      `)
      old.close()
      const store = await openAppStore({ dataDir: dir })
      try {
        const shared = store.forSubject(undefined)
        expect((await shared.loadApp('old-app')).description).toBe('kept')
        expect((await store.loadApp('old-app')).html).toBe('<p>old</p>')
        expect((await shared.getData('old-app', 'k')).value).toEqual([1, 2])
        expect((await shared.getRender(CHANNEL))?.html).toBe('<p>old</p>')
        expect((await shared.tail(10)).map((e) => e.message)).toEqual(['old row'])
        const alice = store.forSubject('alice')
        expect(await alice.listApps()).toEqual([])
        expect(await alice.getRender(CHANNEL)).toBeUndefined()
        expect(await alice.tail(10)).toEqual([])
        // Both spaces may now use one name.
        await alice.recordRender(CHANNEL, { kind: 'html', html: '<p>new</p>' })
        await alice.saveApp('old-app', CHANNEL)
        expect((await shared.loadApp('old-app')).html).toBe('<p>old</p>')
      } finally {
        await store.close()
      }
    } finally {
      remove()
    }
  })
})
