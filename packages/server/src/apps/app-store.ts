import { join } from 'node:path'
import { invalidOption } from '../server/errors.js'
import { createAppData } from './app-data.js'
import { APPS_DB_FILE, openAppsDatabase } from './database.js'
import { DuetError } from 'duetkit/protocol'
import type { AppLimits } from './limits.js'
import { resolveAppLimits } from './limits.js'
import { createRenderStore } from './render-store.js'
import { createSavedApps } from './saved-apps.js'
import { createServerLog } from './server-log.js'

export interface AppStoreOptions {
  /** The folder for `apps.db` (created when missing); usually `resolveDataDir()`. */
  dataDir: string
  limits?: Partial<AppLimits>
}

type Parts = ReturnType<typeof createRenderStore> & ReturnType<typeof createSavedApps> & ReturnType<typeof createAppData> & ReturnType<typeof createServerLog>

/** Renders, saved apps, app data and the server log, in one SQLite file shared by every server process. */
export interface AppStore extends Parts {
  /** The SQLite file. */
  readonly file: string
  readonly limits: Readonly<AppLimits>
  /** Closes the file; later calls fail with `DISPOSED`. Safe to call twice. */
  close(): void
}

/**
 * Opens the agent-apps store in a data dir.
 *
 * @example
 * const store = openAppStore({ dataDir: resolveDataDir() })
 * store.recordRender(channelId, { kind: 'html', html: '<p>Hi</p>' })
 * store.saveApp('greeting', channelId)
 */
export function openAppStore(options: AppStoreOptions): AppStore {
  if (options === null || typeof options !== 'object') invalidOption('openAppStore', 'options', 'must be an object { dataDir, limits? }')
  if (typeof options.dataDir !== 'string' || options.dataDir.length === 0) invalidOption('openAppStore', 'dataDir', 'must be a non-empty folder path')
  const limits = resolveAppLimits('openAppStore', options.limits)
  const db = openAppsDatabase(options.dataDir)
  const parts: Parts = {
    ...createRenderStore(db, limits),
    ...createSavedApps(db, limits),
    ...createAppData(db, limits),
    ...createServerLog(db, limits),
  }
  // Wraps every method so a call after close() says so, instead of better-sqlite3's generic TypeError.
  const guarded = Object.fromEntries(
    Object.entries(parts).map(([name, fn]) => [
      name,
      (...args: unknown[]) => {
        if (!db.open)
          throw new DuetError('DISPOSED', `The agent-apps store (${join(options.dataDir, APPS_DB_FILE)}) is closed; open it again with openAppStore.`)
        return (fn as (...a: unknown[]) => unknown)(...args)
      },
    ]),
  ) as Parts
  return Object.freeze({
    ...guarded,
    file: join(options.dataDir, APPS_DB_FILE),
    limits: Object.freeze(limits),
    close() {
      if (db.open) db.close()
    },
  })
}
