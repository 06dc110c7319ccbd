import { DuetError } from 'duetkit/protocol'
import { invalidOption } from '../server/errors.js'

/** Size and count limits of the agent-apps store. Every limit is checked before anything is written. */
export interface AppLimits {
  /** Characters of one render's `html` or `source` (hosts cap one tool call near 1.3 M characters). */
  maxRenderChars: number
  /**
   * Render records kept in all. Past it, the subject holding the most renders loses its oldest, so a subject
   * that renders a lot evicts its own renders, never a lighter user's (saved apps are copies and stay).
   */
  maxRenders: number
  /** Render records one subject keeps; its own oldest is forgotten first (default 100, 1/10 of the store). */
  maxRendersPerSubject: number
  /** Saved apps in all, every subject together. */
  maxSavedApps: number
  /** Saved apps one subject keeps (the shared space, without auth, counts as one subject). */
  maxSavedAppsPerSubject: number
  /** Bytes of one app-data value as stored (JSON-encoded UTF-8), after an append too. */
  maxValueBytes: number
  /** Keys in one app's data. */
  maxKeysPerApp: number
  /** App-data namespaces (the `app` of put_app_data) in all, and of one subject. */
  maxDataApps: number
  maxDataAppsPerSubject: number
  /** App-data keys in all, and of one subject (every namespace together). */
  maxDataKeys: number
  maxDataKeysPerSubject: number
  /** Largest `limit` of one `get_app_data` page, in items (arrays) or characters (strings). */
  maxPageItems: number
  maxPageChars: number
  /** Bytes of one page's JSON; an array page stops early rather than go over (it always holds one item). */
  maxPageBytes: number
  /** Log rows kept; older rows are dropped on write. */
  maxLogRows: number
  maxLogMessageChars: number
  maxLogDataBytes: number
}

export const DEFAULT_APP_LIMITS: Readonly<AppLimits> = Object.freeze({
  maxRenderChars: 2_000_000,
  maxRenders: 1000,
  maxRendersPerSubject: 100,
  maxSavedApps: 50_000,
  maxSavedAppsPerSubject: 500,
  maxValueBytes: 8 * 1024 * 1024,
  maxKeysPerApp: 1000,
  maxDataApps: 100_000,
  maxDataAppsPerSubject: 100,
  maxDataKeys: 1_000_000,
  maxDataKeysPerSubject: 10_000,
  maxPageItems: 1000,
  maxPageChars: 200_000,
  maxPageBytes: 1024 * 1024,
  maxLogRows: 5000,
  maxLogMessageChars: 4000,
  maxLogDataBytes: 16 * 1024,
})

/** Merges overrides onto the defaults, rejecting anything that is not a positive integer. */
export function resolveAppLimits(where: string, overrides: Partial<AppLimits> = {}): AppLimits {
  const limits = { ...DEFAULT_APP_LIMITS }
  for (const [name, value] of Object.entries(overrides)) {
    if (!(name in DEFAULT_APP_LIMITS)) invalidOption(where, `limits.${name}`, `is not a known limit (known: ${Object.keys(DEFAULT_APP_LIMITS).join(', ')})`)
    if (value === undefined) continue
    if (!Number.isSafeInteger(value) || (value as number) < 1) invalidOption(where, `limits.${name}`, `must be a positive integer, got ${String(value)}`)
    limits[name as keyof AppLimits] = value as number
  }
  return limits
}

/** Bytes of a string in UTF-8, the unit the limits count in. */
export function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8')
}

/** The count limits of the store that have a per-subject twin, as LIMIT_REACHED names them. */
export type AppQuota = 'maxSavedApps' | 'maxSavedAppsPerSubject' | 'maxDataApps' | 'maxDataAppsPerSubject' | 'maxDataKeys' | 'maxDataKeysPerSubject'

const WHAT: Record<AppQuota, string> = {
  maxSavedApps: 'saved apps on this server',
  maxSavedAppsPerSubject: 'saved apps of yours',
  maxDataApps: 'app-data namespaces on this server',
  maxDataAppsPerSubject: 'app-data namespaces of yours',
  maxDataKeys: 'app-data keys on this server',
  maxDataKeysPerSubject: 'app-data keys of yours',
}

/** LIMIT_REACHED for a store count at its quota, naming the quota, its limit and the use; nothing was written. */
export function appQuotaError(quota: AppQuota, limit: number, used: number, advice: string): DuetError {
  return new DuetError('LIMIT_REACHED', `There are already ${used} ${WHAT[quota]}, limit ${limit} (${quota}); ${advice}`, { quota, limit, used })
}
