import type { AppsDatabase } from './database.js'
import { DuetError } from 'duetkit/protocol'
import { appQuotaError, type AppLimits } from './limits.js'
import { utf8Bytes } from './limits.js'
import { checkAppName, checkDataKey } from './names.js'
import type { DataPage, PageRequest } from './paging.js'
import { pageOf } from './paging.js'

/** What `put_app_data` stored: the value's shape and size. */
export interface DataInfo {
  app: string
  key: string
  kind: 'array' | 'string' | 'json'
  /** Items (array), characters (string) or 1 (any other JSON value): what pages count in. */
  total: number
  bytes: number
}

export interface PutDataOptions {
  /** Add to the end of the stored array or string instead of replacing it. */
  append?: boolean
}

function kindOf(value: unknown): DataInfo['kind'] {
  return Array.isArray(value) ? 'array' : typeof value === 'string' ? 'string' : 'json'
}

function totalOf(value: unknown): number {
  return Array.isArray(value) || typeof value === 'string' ? value.length : 1
}

/** The value a put stores: `value`, or with `append` the stored array or string with `value` added. */
export function merged(app: string, key: string, stored: string | undefined, value: unknown, append: boolean): unknown {
  if (!append || stored === undefined) return value
  const current: unknown = JSON.parse(stored)
  if (Array.isArray(current) && Array.isArray(value)) return current.concat(value)
  if (typeof current === 'string' && typeof value === 'string') return current + value
  throw new DuetError(
    'INVALID_ARGUMENT',
    `append needs the same kind as the stored value: ${app}/${key} holds ${kindOf(current) === 'json' ? 'a JSON value' : `a ${kindOf(current)}`} and the new value is ${kindOf(value) === 'json' ? 'a JSON value' : `a ${kindOf(value)}`}. Append arrays to arrays and strings to strings, or put without append to replace it.`,
    { field: 'value' },
  )
}

/** A put of a new key when the app's keys are at their cap. */
export function keysFullError(app: string, limits: AppLimits, used = limits.maxKeysPerApp): DuetError {
  return new DuetError(
    'LIMIT_REACHED',
    `App '${app}' already has ${used} data keys, limit ${limits.maxKeysPerApp} (maxKeysPerApp); put bigger values under fewer keys (arrays page well).`,
    {
      quota: 'maxKeysPerApp',
      limit: limits.maxKeysPerApp,
      used,
    },
  )
}

/** Checks and encodes what a put stores: its JSON, byte size and shape, or TOO_LARGE. */
export function encodeValue(app: string, key: string, next: unknown, limits: AppLimits): { json: string; info: DataInfo } {
  const json = JSON.stringify(next)
  const bytes = utf8Bytes(json)
  if (bytes > limits.maxValueBytes) {
    throw new DuetError(
      'TOO_LARGE',
      `${app}/${key} would take ${bytes} bytes, over the limit of ${limits.maxValueBytes}; split the content over several keys (e.g. 'chapter-1', 'chapter-2').`,
      { field: 'value', size: bytes, limit: limits.maxValueBytes },
    )
  }
  return { json, info: { app, key, kind: kindOf(next), total: totalOf(next), bytes } }
}

/** Checks a put's arguments before anything is read or written. */
export function checkPut(app: string, key: string, value: unknown): void {
  checkAppName(app, 'app')
  checkDataKey(key)
  if (value === undefined || (typeof value === 'number' && !Number.isFinite(value))) {
    throw new DuetError('INVALID_ARGUMENT', 'value is missing: pass any JSON value (an array pages by items, a string by characters)', { field: 'value' })
  }
}

/**
 * get_app_data of a key the app does not have. It names no other key, and reads the same whether the app has
 * other keys or none, so a caller learns nothing it did not ask for.
 */
export function noDataError(app: string, key: string): DuetError {
  return new DuetError('NOT_FOUND', `There is no data under '${app}/${key}': the agent stores it with put_app_data (check the app name and key).`, {
    kind: 'data',
    name: `${app}/${key}`,
  })
}

/** What a put of a new key would add to: the app's keys, and the owner's and the store's keys and namespaces. */
export interface DataCounts {
  appKeys: number
  ownerKeys: number
  allKeys: number
  ownerApps: number
  allApps: number
}

/** The error for a put of a new key past one of the key or namespace quotas, or undefined when there is room. */
export function dataFull(app: string, counts: DataCounts, limits: AppLimits): DuetError | undefined {
  if (counts.appKeys >= limits.maxKeysPerApp) return keysFullError(app, limits, counts.appKeys)
  const advice = 'put bigger values under fewer keys (arrays page well), or reuse the keys and namespaces you have.'
  if (counts.appKeys === 0) {
    if (counts.ownerApps >= limits.maxDataAppsPerSubject) return appQuotaError('maxDataAppsPerSubject', limits.maxDataAppsPerSubject, counts.ownerApps, advice)
    if (counts.allApps >= limits.maxDataApps) return appQuotaError('maxDataApps', limits.maxDataApps, counts.allApps, advice)
  }
  if (counts.ownerKeys >= limits.maxDataKeysPerSubject) return appQuotaError('maxDataKeysPerSubject', limits.maxDataKeysPerSubject, counts.ownerKeys, advice)
  if (counts.allKeys >= limits.maxDataKeys) return appQuotaError('maxDataKeys', limits.maxDataKeys, counts.allKeys, advice)
  return undefined
}

/**
 * The app data store: JSON values under (app, key), written by the agent and read back by the
 * app a page at a time. Data, never code: nothing stored here is ever run by the server. Returns the
 * operations of one owner's space ('' shared, or a subject's scope).
 */
export function createAppData(db: AppsDatabase, limits: AppLimits) {
  const select = db.prepare('SELECT value FROM app_data WHERE owner = ? AND app = ? AND key = ?')
  const keys = db.prepare('SELECT key FROM app_data WHERE owner = ? AND app = ? ORDER BY key')
  const count = db.prepare('SELECT count(*) AS n FROM app_data WHERE owner = ? AND app = ?')
  const ownerKeys = db.prepare('SELECT count(*) AS n FROM app_data WHERE owner = ?')
  const allKeys = db.prepare('SELECT count(*) AS n FROM app_data')
  const ownerApps = db.prepare('SELECT count(DISTINCT app) AS n FROM app_data WHERE owner = ?')
  const allApps = db.prepare('SELECT count(*) AS n FROM (SELECT DISTINCT owner, app FROM app_data)')
  const n = (statement: { get(...args: unknown[]): unknown }, ...args: unknown[]) => (statement.get(...args) as { n: number }).n
  const upsert = db.prepare(`INSERT INTO app_data (owner, app, key, value, bytes, updated_at) VALUES (?, ?, ?, ?, ?, ?)
    ON CONFLICT (owner, app, key) DO UPDATE SET value = excluded.value, bytes = excluded.bytes, updated_at = excluded.updated_at`)

  const put = db.transaction((owner: string, app: string, key: string, value: unknown, append: boolean): DataInfo => {
    const stored = (select.get(owner, app, key) as { value: string } | undefined)?.value
    // The value itself first (too large never fits), then the quotas a new key counts against, as on Redis.
    const { json, info } = encodeValue(app, key, merged(app, key, stored, value, append), limits)
    if (stored === undefined) {
      const appKeys = n(count, owner, app)
      // The namespace counts only matter for a new namespace; they are the slower queries.
      const apps = appKeys === 0 ? { ownerApps: n(ownerApps, owner), allApps: n(allApps) } : { ownerApps: 0, allApps: 0 }
      const full = dataFull(app, { appKeys, ownerKeys: n(ownerKeys, owner), allKeys: n(allKeys), ...apps }, limits)
      if (full) throw full
    }
    upsert.run(owner, app, key, json, info.bytes, Date.now())
    return info
  })

  return (owner: string) => ({
    /** Stores a JSON value (replacing it, or appending to a stored array or string). */
    putData(app: string, key: string, value: unknown, options: PutDataOptions = {}): DataInfo {
      checkPut(app, key, value)
      return put.immediate(owner, app, key, value, options.append === true)
    },
    /** One page of a stored value (see `pageOf` for how arrays, strings and other values page). */
    getData(app: string, key: string, request: PageRequest = {}): DataPage {
      checkAppName(app, 'app')
      checkDataKey(key)
      const row = select.get(owner, app, key) as { value: string } | undefined
      if (!row) throw noDataError(app, key)
      return pageOf(JSON.parse(row.value), request, limits)
    },
    /** The keys of an app's data, sorted. */
    dataKeys(app: string): string[] {
      checkAppName(app, 'app')
      return (keys.all(owner, app) as Array<{ key: string }>).map((r) => r.key)
    },
  })
}
