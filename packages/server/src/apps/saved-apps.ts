import type { AppsDatabase } from './database.js'
import { DuetError } from 'duetkit/protocol'
import { appQuotaError, type AppLimits } from './limits.js'
import { checkChannelId } from '../channel/store.js'
import { checkAppName } from './names.js'
import type { RenderInput, RenderRow } from './render-store.js'
import { rowToRender } from './render-store.js'

/** A saved app: a copy of a render under a name, with what the agent said about it. */
export interface SavedApp extends RenderInput {
  name: string
  description?: string
  /** Milliseconds since the epoch. */
  savedAt: number
}

/** One line of `list_saved_apps`. */
export interface SavedAppSummary {
  name: string
  kind: RenderInput['kind']
  title?: string
  description?: string
  savedAt: number
}

export interface SaveAppOptions {
  description?: string
  /** Overwrite a saved app of the same name instead of failing with `ALREADY_EXISTS`. */
  replace?: boolean
}

const MAX_DESCRIPTION_CHARS = 2000

/** A saved app's stored columns. */
export type SavedRow = RenderRow & { name: string; description: string | null; saved_at: number }

/** Checks a saved app's description: absent, or a string of at most 2,000 characters. */
export function checkDescription(description: unknown): void {
  if (description !== undefined && (typeof description !== 'string' || description.length > MAX_DESCRIPTION_CHARS)) {
    throw new DuetError('INVALID_ARGUMENT', `description must be a string of at most ${MAX_DESCRIPTION_CHARS} characters`, { field: 'description' })
  }
}

/** save_app on a channel with no render record. */
export function noRenderError(channelId: string): DuetError {
  return new DuetError(
    'NOT_FOUND',
    `Nothing was rendered on channel '${channelId}' (or it is too old to be kept). Render the app with a display tool, then save it with the channel_id that tool returned.`,
    { kind: 'render', name: channelId },
  )
}

/** save_app on a name in use, without replace. */
export function nameTakenError(name: string): DuetError {
  return new DuetError(
    'ALREADY_EXISTS',
    `A saved app is already named '${name}'. Pass replace: true to overwrite it, or choose another name (list_saved_apps shows the names in use).`,
    { name },
  )
}

/**
 * The error for save_app of a new name, or undefined when there is room: `mine` saved apps of the caller's space
 * against `maxSavedAppsPerSubject`, `all` of the store against `maxSavedApps`.
 */
export function savedAppsFull(mine: number, all: number, limits: AppLimits): DuetError | undefined {
  const advice = 'delete one with delete_saved_app first, or save under a name in use with replace: true.'
  if (mine >= limits.maxSavedAppsPerSubject) return appQuotaError('maxSavedAppsPerSubject', limits.maxSavedAppsPerSubject, mine, advice)
  if (all >= limits.maxSavedApps) return appQuotaError('maxSavedApps', limits.maxSavedApps, all, advice)
  return undefined
}

/** load_app of a name nobody saved, naming (some of) the saved apps there are. */
export function noSavedAppError(name: string, names: string[]): DuetError {
  return new DuetError(
    'NOT_FOUND',
    `No saved app is named '${name}'. ${names.length ? `Saved apps: ${names.slice(0, 20).join(', ')}${names.length > 20 ? ', ...' : ''}.` : 'Nothing is saved yet.'}`,
    { kind: 'app', name },
  )
}

/** A saved app from its stored columns (the SQLite row, or the Redis hash in the same shape). */
export function rowToSaved(row: SavedRow): SavedApp {
  const app: SavedApp = { name: row.name, ...rowToRender(row), savedAt: row.saved_at }
  if (row.description !== null) app.description = row.description
  return app
}

/**
 * Saved apps: named copies of render records, kept until deleted. Returns the operations of one owner's space
 * ('' shared, or a subject's scope): names, the cap and lists are per owner.
 */
export function createSavedApps(db: AppsDatabase, limits: AppLimits) {
  const renderOf = db.prepare('SELECT kind, title, html, source, props FROM renders WHERE channel_id = ?')
  const exists = db.prepare('SELECT 1 FROM saved_apps WHERE owner = ? AND name = ?')
  const count = db.prepare('SELECT count(*) AS n FROM saved_apps WHERE owner = ?')
  const countAll = db.prepare('SELECT count(*) AS n FROM saved_apps')
  const upsert = db.prepare(`INSERT INTO saved_apps (owner, name, kind, title, description, html, source, props, saved_at)
    VALUES (@owner, @name, @kind, @title, @description, @html, @source, @props, @savedAt)
    ON CONFLICT (owner, name) DO UPDATE SET kind = excluded.kind, title = excluded.title, description = excluded.description,
      html = excluded.html, source = excluded.source, props = excluded.props, saved_at = excluded.saved_at`)
  const list = db.prepare('SELECT name, kind, title, description, saved_at FROM saved_apps WHERE owner = ? ORDER BY saved_at DESC, name')
  const load = db.prepare('SELECT name, kind, title, description, html, source, props, saved_at FROM saved_apps WHERE owner = ? AND name = ?')
  const remove = db.prepare('DELETE FROM saved_apps WHERE owner = ? AND name = ?')

  // Check and write in one transaction, so two processes saving one name cannot both succeed.
  const save = db.transaction((owner: string, name: string, channelId: string, options: SaveAppOptions): SavedApp => {
    const render = renderOf.get(channelId) as RenderRow | undefined
    if (!render) throw noRenderError(channelId)
    const taken = exists.get(owner, name) !== undefined
    if (taken && !options.replace) throw nameTakenError(name)
    const full = taken ? undefined : savedAppsFull((count.get(owner) as { n: number }).n, (countAll.get() as { n: number }).n, limits)
    if (full) throw full
    const savedAt = Date.now()
    upsert.run({ owner, name, ...render, description: options.description ?? null, savedAt })
    return rowToSaved({ name, ...render, description: options.description ?? null, saved_at: savedAt })
  })

  return (owner: string) => ({
    /** Saves what was last rendered on a channel under a name. */
    saveApp(name: string, channelId: string, options: SaveAppOptions = {}): SavedApp {
      checkAppName(name)
      checkChannelId(channelId)
      checkDescription(options.description)
      return save.immediate(owner, name, channelId, options)
    },
    /** Every saved app, newest first, without its body. */
    listApps(): SavedAppSummary[] {
      return (list.all(owner) as SavedRow[]).map((row) => {
        const summary: SavedAppSummary = { name: row.name, kind: row.kind as SavedAppSummary['kind'], savedAt: row.saved_at }
        if (row.title !== null) summary.title = row.title
        if (row.description !== null) summary.description = row.description
        return summary
      })
    },
    /** One saved app with its body; `NOT_FOUND` names the apps that do exist. */
    loadApp(name: string): SavedApp {
      checkAppName(name)
      const row = load.get(owner, name) as SavedRow | undefined
      if (row) return rowToSaved(row)
      throw noSavedAppError(
        name,
        (list.all(owner) as SavedRow[]).map((r) => r.name),
      )
    },
    /** Deletes a saved app; returns false when there was none of that name. */
    deleteApp(name: string): boolean {
      checkAppName(name)
      return remove.run(owner, name).changes > 0
    },
  })
}
