import type { AppsDatabase } from './database.js'
import { DuetError } from 'duetkit/protocol'
import type { AppLimits } from './limits.js'
import { utf8Bytes } from './limits.js'
import { checkChannelId, ownerOf } from '../channel/store.js'
import { checkAppName } from './names.js'

/** What a display tool rendered: a raw HTML fragment, or a Duet component's source with its props. */
export interface RenderInput {
  kind: 'html' | 'component'
  title?: string
  /** The fragment, for `kind: 'html'`. */
  html?: string
  /** The component's module source, for `kind: 'component'`. */
  source?: string
  /** JSON props the component was rendered with. */
  props?: Record<string, unknown>
  /**
   * The app this render belongs to: the app-data namespace (and saved-app name) its view may touch. A view's
   * calls that name their render are confined to it; a render without one may touch no app data.
   */
  app?: string
}

/** A render as stored, with the channel it was shown on. */
export interface RenderRecord extends RenderInput {
  channelId: string
  /** Milliseconds since the epoch. */
  renderedAt: number
}

/** A render's columns, shared by the renders and saved_apps tables. */
export interface RenderRow {
  kind: string
  title: string | null
  html: string | null
  source: string | null
  props: string | null
}

/** A render record's row: the render's columns and the app it belongs to (saved apps keep the render's only). */
export type RecordRow = RenderRow & { app: string | null }

const MAX_TITLE_CHARS = 200

/** Checks a render and returns its record's row form (shared by both backends, so both refuse the same input). */
export function renderToRow(input: RenderInput, limits: AppLimits): RecordRow {
  if (input === null || typeof input !== 'object') {
    throw new DuetError('INVALID_ARGUMENT', 'recordRender: the render must be an object { kind, title?, html?, source?, props? }', { field: 'render' })
  }
  const { kind, title, html, source, props, app } = input
  if (app !== undefined) checkAppName(app, 'app')
  if (kind !== 'html' && kind !== 'component') {
    throw new DuetError('INVALID_ARGUMENT', `recordRender: kind must be 'html' or 'component', got ${JSON.stringify(kind)}`, { field: 'kind' })
  }
  const body = kind === 'html' ? html : source
  const field = kind === 'html' ? 'html' : 'source'
  if (typeof body !== 'string' || body.length === 0) {
    throw new DuetError('INVALID_ARGUMENT', `recordRender: a '${kind}' render needs a non-empty ${field} string`, { field })
  }
  if (body.length > limits.maxRenderChars) {
    throw new DuetError(
      'TOO_LARGE',
      `recordRender: ${field} has ${body.length} characters, over the limit of ${limits.maxRenderChars}; keep bulky content out of the app and serve it with put_app_data`,
      { field, size: body.length, limit: limits.maxRenderChars },
    )
  }
  if (title !== undefined && (typeof title !== 'string' || title.length > MAX_TITLE_CHARS)) {
    throw new DuetError('INVALID_ARGUMENT', `recordRender: title must be a string of at most ${MAX_TITLE_CHARS} characters`, { field: 'title' })
  }
  let propsJson: string | null = null
  if (props !== undefined) {
    if (props === null || typeof props !== 'object' || Array.isArray(props)) {
      throw new DuetError('INVALID_ARGUMENT', 'recordRender: props must be a JSON object', { field: 'props' })
    }
    propsJson = JSON.stringify(props)
    const size = utf8Bytes(propsJson)
    if (size > limits.maxValueBytes) {
      throw new DuetError('TOO_LARGE', `recordRender: props take ${size} bytes as JSON, over the limit of ${limits.maxValueBytes}`, {
        field: 'props',
        size,
        limit: limits.maxValueBytes,
      })
    }
  }
  return {
    kind,
    title: title ?? null,
    html: kind === 'html' ? body : null,
    source: kind === 'component' ? body : null,
    props: propsJson,
    app: app ?? null,
  }
}

/** The render fields of a row, without nulls. */
export function rowToRender(row: RenderRow & { app?: string | null }): RenderInput {
  const render: RenderInput = { kind: row.kind as RenderInput['kind'] }
  if (typeof row.app === 'string') render.app = row.app
  if (row.title !== null) render.title = row.title
  if (row.html !== null) render.html = row.html
  if (row.source !== null) render.source = row.source
  if (row.props !== null) render.props = JSON.parse(row.props)
  return render
}

/**
 * The render records of the store: one per channel, the latest render wins. Each render has an owner (the
 * subject whose scope its channel key carries, else the owner the caller passes: a client address's space
 * without auth, '' for no one in particular). An owner past `maxRendersPerSubject` loses its own oldest; a store
 * past `maxRenders` takes the oldest of the owner holding the most, so one user's many renders never evict a
 * lighter user's.
 */
export function createRenderStore(db: AppsDatabase, limits: AppLimits) {
  // A render replaces the channel's row with a new one, so rowids follow the recording order (a new row's rowid
  // is above every row there): "oldest" is the first recorded, also of renders in one millisecond, as the Redis
  // store's sequence has it.
  const upsert = db.prepare(`INSERT OR REPLACE INTO renders (channel_id, kind, title, html, source, props, rendered_at, owner, app)
    VALUES (@channelId, @kind, @title, @html, @source, @props, @renderedAt, @owner, @app)`)
  // Keeps an owner's newest rows.
  const pruneOwner = db.prepare(`DELETE FROM renders WHERE rowid IN (
    SELECT rowid FROM renders WHERE owner = ? ORDER BY rowid DESC LIMIT -1 OFFSET ?)`)
  const total = db.prepare('SELECT count(*) AS n FROM renders')
  // Of owners holding as many, the one whose oldest render was recorded first.
  const heaviest = db.prepare('SELECT owner FROM renders GROUP BY owner ORDER BY count(*) DESC, min(rowid) LIMIT 1')
  const dropOldest = db.prepare(`DELETE FROM renders WHERE rowid = (SELECT min(rowid) FROM renders WHERE owner = ?)`)
  const select = db.prepare('SELECT kind, title, html, source, props, app, rendered_at FROM renders WHERE channel_id = ?')

  const record = db.transaction((channelId: string, row: RecordRow, renderedAt: number, owner: string) => {
    upsert.run({ channelId, ...row, renderedAt, owner })
    if (owner !== '') pruneOwner.run(owner, limits.maxRendersPerSubject)
    for (let n = (total.get() as { n: number }).n; n > limits.maxRenders; n--) dropOldest.run((heaviest.get() as { owner: string }).owner)
  })

  return {
    /** Records what was rendered on a channel, replacing an earlier render there; `owner`: see `ownerOf`. */
    recordRender(channelId: string, input: RenderInput, owner?: string): RenderRecord {
      checkChannelId(channelId)
      const charged = ownerOf(channelId, owner)
      const row = renderToRow(input, limits)
      const renderedAt = Date.now()
      record.immediate(channelId, row, renderedAt, charged)
      return { ...rowToRender(row), channelId, renderedAt }
    },
    /** The latest render on a channel, if one was recorded (and not yet pruned). */
    getRender(channelId: string): RenderRecord | undefined {
      checkChannelId(channelId)
      const row = select.get(channelId) as (RecordRow & { rendered_at: number }) | undefined
      return row ? { ...rowToRender(row), channelId, renderedAt: row.rendered_at } : undefined
    },
  }
}
