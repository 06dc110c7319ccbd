import { join } from 'node:path'
import { DuetError } from 'duetkit/protocol'
import { importWithPeer } from '../channel/optional-peer.js'
import { invalidOption } from '../server/errors.js'
import { createAppData } from './app-data.js'
import { APPS_DB_FILE, openAppsDatabase } from './database.js'
import type { AppLimits } from './limits.js'
import { resolveAppLimits } from './limits.js'
import { createRenderStore } from './render-store.js'
import { createSavedApps } from './saved-apps.js'
import { createServerLog } from './server-log.js'
import { inSubjectSpace } from './subject-space.js'
import { checkSubject, subjectScope } from '../channel/subject-scope.js'

export interface AppStoreOptions {
  /** 'sqlite' (default: `apps.db` in `dataDir`, shared by the local processes) or 'redis' (replicas on many machines). */
  backend?: 'sqlite' | 'redis'
  /** The folder for `apps.db` (created when missing); usually `resolveDataDir()`. Required for sqlite. */
  dataDir?: string
  /** Redis URL, e.g. `redis://127.0.0.1:6379`; required for the redis backend. */
  url?: string
  limits?: Partial<AppLimits>
}

type Parts = ReturnType<typeof createRenderStore> &
  ReturnType<ReturnType<typeof createSavedApps>> &
  ReturnType<ReturnType<typeof createAppData>> &
  ReturnType<ReturnType<typeof createServerLog>>

/** The store's operations, each answering with a promise (Redis answers over the network). */
export type AppStoreOperations = {
  [K in keyof Parts]: Parts[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<R> : never
}

/**
 * Renders, saved apps, app data and the server log: in one SQLite file shared by every local server
 * process, or in Redis shared by replicas. Both backends keep the same limits and give the same errors.
 */
export interface AppStore extends AppStoreOperations {
  readonly backend: 'sqlite' | 'redis'
  /** Where the data lives: the SQLite file, or the Redis URL with any password hidden. */
  readonly location: string
  readonly limits: Readonly<AppLimits>
  /**
   * The store as one authenticated subject (a token's `sub`) sees it: its own saved apps, app data, log and the
   * renders of its own channels; another subject's are NOT_FOUND (or absent from lists and tails) and cannot
   * be overwritten or deleted. `undefined` is the shared space: what the store's own operations reach, and
   * every row written before subjects existed. Limits apply per space as well as in all (saved apps, data keys
   * and namespaces, log rows); renders count per subject, and in the shared space per `owner` (a client address's
   * `addressScope` without auth), so one caller's renders never evict another's.
   */
  forSubject(subject: string | undefined, owner?: string): AppStoreOperations
  /** Closes the file or connection; later calls fail with `DISPOSED`. Safe to call twice. */
  close(): Promise<void>
}

/**
 * Opens the agent-apps store: SQLite in a data dir, or Redis at a URL (the `redis` package, an
 * optional peer, is loaded only then).
 *
 * @example
 * const store = await openAppStore({ dataDir: resolveDataDir() })
 * await store.recordRender(channelId, { kind: 'html', html: '<p>Hi</p>' })
 * await store.saveApp('greeting', channelId)
 */
export async function openAppStore(options: AppStoreOptions): Promise<AppStore> {
  const factory = 'openAppStore'
  if (options === null || typeof options !== 'object') invalidOption(factory, 'options', 'must be an object { dataDir, limits? } or { backend: "redis", url }')
  const backend = options.backend ?? 'sqlite'
  if (backend === 'sqlite') {
    if (options.url !== undefined) invalidOption(factory, 'url', "is for the redis backend; pass backend: 'redis' too")
    return openSqliteAppStore(options.dataDir as string, options.limits)
  }
  if (backend !== 'redis') invalidOption(factory, 'backend', `must be 'sqlite' or 'redis', got ${JSON.stringify(backend)}`)
  if (typeof options.url !== 'string' || !/^rediss?:\/\//.test(options.url)) invalidOption(factory, 'url', "must be a Redis URL like 'redis://127.0.0.1:6379'")
  const limits = resolveAppLimits(factory, options.limits)
  const { openRedisAppStore } = await importWithPeer('redis', `${factory}: the redis backend`, () => import('./redis-app-store.js'))
  return openRedisAppStore(options.url, limits)
}

/** The SQLite store, opened synchronously (registerAgentAppTools opens one this way when given a dataDir). */
export function openSqliteAppStore(dataDir: string, limitOverrides?: Partial<AppLimits>): AppStore {
  if (typeof dataDir !== 'string' || dataDir.length === 0) invalidOption('openAppStore', 'dataDir', 'must be a non-empty folder path')
  const limits = resolveAppLimits('openAppStore', limitOverrides)
  const db = openAppsDatabase(dataDir)
  const file = join(dataDir, APPS_DB_FILE)
  const renders = createRenderStore(db, limits)
  const saved = createSavedApps(db, limits)
  const data = createAppData(db, limits)
  const log = createServerLog(db, limits)
  /** The operations of one owner's space ('' shared); statements are prepared once, above, for every owner. */
  const space = (owner: string): AppStoreOperations => {
    const parts: Parts = { ...renders, ...saved(owner), ...data(owner), ...log(owner) }
    // Wraps every method so a call after close() says so, instead of better-sqlite3's generic TypeError,
    // and so that errors arrive as rejections, as they do from Redis.
    return Object.fromEntries(
      Object.entries(parts).map(([name, fn]) => [
        name,
        async (...args: unknown[]) => {
          if (!db.open) throw new DuetError('DISPOSED', `The agent-apps store (${file}) is closed; open it again with openAppStore.`)
          return (fn as (...a: unknown[]) => unknown)(...args)
        },
      ]),
    ) as AppStoreOperations
  }
  const shared = space('')
  return Object.freeze({
    ...shared,
    forSubject(subject: string | undefined, owner?: string) {
      checkSubject(subject, 'forSubject')
      return inSubjectSpace(subject === undefined ? shared : space(subjectScope(subject)), subject, owner)
    },
    backend: 'sqlite' as const,
    location: file,
    limits: Object.freeze(limits),
    async close() {
      if (db.open) db.close()
    },
  })
}
