import { pretty } from './dom.js'
import type { TraceEntry } from './panels.js'

/** Payloads larger than this (bytes of JSON) are collapsed: a view's HTML would otherwise fill the page. */
export const COLLAPSE_BYTES = 2048
/** The trace keeps this many entries; older ones are dropped (from the page and the export). */
export const MAX_ENTRIES = 2000

export const ARROWS: Record<TraceEntry['dir'], string> = {
  'host->view': '→ view',
  'view->host': '← view',
  'host->server': '→ server',
  'server->host': '← server',
  'host->model': '→ model',
  'model->host': '← model',
}
const OPPOSITE: Record<TraceEntry['dir'], TraceEntry['dir']> = {
  'host->view': 'view->host',
  'view->host': 'host->view',
  'host->server': 'server->host',
  'server->host': 'host->server',
  'host->model': 'model->host',
  'model->host': 'host->model',
}

type Rpc = { id?: unknown; method?: unknown; error?: { code?: unknown; message?: unknown }; result?: { isError?: unknown } }

/** One row of the trace: what it shows is worked out once, when it arrives (or its answer does). */
export interface TraceRow {
  /** Arrival order: the Collection's key. */
  id: number
  at: number
  dir: TraceEntry['dir']
  server?: string
  method?: string
  rpcId?: string | number
  /** The message is an answer (shown as "<method> (answer)"). */
  answer: boolean
  /** On a response (and on its request, once answered): milliseconds between the two. */
  durationMs?: number
  /** Why the request failed: a JSON-RPC error, or a tool result with isError. */
  failed?: string
  /** The agent panel's own watching polls (and their answers): hidden unless asked for, as they come every second. */
  background?: boolean
  message: unknown
  /** Small payloads: the indented JSON. Large ones: undefined, with `preview` and `bytes` instead. */
  body?: string
  preview?: string
  bytes: number
  /** A large payload's toggle is open (its full text is only built then). */
  open: boolean
  /** Lower-cased text the filter searches: what the row shows, not a large payload's every byte. */
  text: string
  hidden: boolean
}

/** The trace's filters, as the bar above it sets them. */
export interface TraceFilters {
  query: string
  /** '' all, 'view' or 'server' a side, or one direction. */
  dir: string
  errorsOnly: boolean
  background: boolean
}

export interface TraceState extends TraceFilters {
  /** Newest first. */
  rows: TraceRow[]
  seq: number
  /** Requests waiting for their answer, by side ("view" or the server's id), sender and id → row id. */
  pending: Record<string, number>
}

export const initialTraceState: TraceState = { rows: [], seq: 0, pending: {}, query: '', dir: '', errorsOnly: false, background: false }

/** Whether the filters let `row` show. */
export function visible(row: TraceRow, f: TraceFilters): boolean {
  const q = f.query.trim().toLowerCase()
  if (f.dir && !(f.dir === row.dir || (!f.dir.includes('->') && row.dir.includes(f.dir)))) return false
  if (f.errorsOnly && !row.failed) return false
  if (row.background && !f.background) return false
  return !q || row.text.includes(q)
}

// The filter searches what the row shows: a view's HTML naming every method would otherwise match them all.
function searchText(row: Omit<TraceRow, 'text' | 'hidden'>, json: string): string {
  const searched = row.body === undefined ? (row.preview ?? '') : `${json} ${row.body}`
  return `${ARROWS[row.dir]} ${row.dir} ${row.server ?? ''} ${row.method ?? ''} ${row.failed ?? ''} ${searched}`.toLowerCase()
}

function finish(row: Omit<TraceRow, 'text' | 'hidden'>, json: string, f: TraceFilters): TraceRow {
  const withText = { ...row, text: searchText(row, json), hidden: false }
  return { ...withText, hidden: !visible(withText, f) }
}

/** Adds one entry at `at`: pairs an answer with its request (both get the duration and any failure), keeps MAX_ENTRIES. */
export function addEntry(state: TraceState, entry: TraceEntry & { at: number }): TraceState {
  const m = (entry.message ?? {}) as Rpc
  const side = entry.dir.includes('view') ? 'view' : `server:${entry.server ?? ''}`
  const rpcId = typeof m.id === 'string' || typeof m.id === 'number' ? m.id : undefined
  const json = JSON.stringify(entry.message) ?? 'undefined'
  const large = json.length > COLLAPSE_BYTES
  const id = state.seq + 1
  const row: Omit<TraceRow, 'text' | 'hidden'> = {
    id,
    at: entry.at,
    dir: entry.dir,
    ...(entry.server ? { server: entry.server } : {}),
    ...(rpcId !== undefined ? { rpcId } : {}),
    answer: false,
    message: entry.message,
    bytes: json.length,
    open: false,
    ...(large ? { preview: JSON.stringify(abridge(entry.message, 0)) } : { body: pretty(entry.message) }),
  }
  const pending = { ...state.pending }
  let rows = state.rows
  if (typeof m.method === 'string') {
    row.method = m.method
    if (isWatchPoll(m)) row.background = true
    if (rpcId !== undefined) pending[`${side}|${entry.dir}|${rpcId}`] = id
  } else if (rpcId !== undefined && ('result' in m || 'error' in m)) {
    const key = `${side}|${OPPOSITE[entry.dir]}|${rpcId}`
    const requestId = pending[key]
    delete pending[key]
    if (m.error) row.failed = `error ${String(m.error.code)}${m.error.message ? ` ${String(m.error.message)}` : ''}`
    else if (m.result?.isError === true) row.failed = 'tool result isError'
    const at = requestId === undefined ? -1 : rows.findIndex((r) => r.id === requestId)
    if (at >= 0) {
      const request = rows[at]
      row.method = request.method
      row.answer = true
      row.durationMs = row.at - request.at
      if (request.background) row.background = true
      const { text: _t, hidden: _h, ...rest } = request
      const answered = finish(
        { ...rest, durationMs: row.durationMs, ...(row.failed ? { failed: row.failed } : {}) },
        JSON.stringify(request.message) ?? '',
        state,
      )
      rows = rows.map((r, i) => (i === at ? answered : r))
    }
  }
  rows = [finish(row, json, state), ...rows]
  if (rows.length > MAX_ENTRIES) {
    const dropped = new Set(rows.slice(MAX_ENTRIES).map((r) => r.id))
    rows = rows.slice(0, MAX_ENTRIES)
    for (const [k, v] of Object.entries(pending)) if (dropped.has(v)) delete pending[k]
  }
  return { ...state, rows, seq: id, pending }
}

/** New filters: only rows whose visibility changes become new objects, so the rest are not drawn again. */
export function refilter(state: TraceState, f: Partial<TraceFilters>): TraceState {
  const next = { ...state, ...f }
  return { ...next, rows: state.rows.map((r) => (visible(r, next) === !r.hidden ? r : { ...r, hidden: !r.hidden })) }
}

/** Every row as the export writes it, oldest first. */
export function exportRows(rows: readonly TraceRow[]): unknown[] {
  return [...rows].reverse().map(({ at, dir, server, method, rpcId, durationMs, failed, background, message }) => ({
    at: new Date(at).toISOString(),
    dir,
    ...(server ? { server } : {}),
    ...(method ? { method } : {}),
    ...(rpcId !== undefined ? { id: rpcId } : {}),
    ...(durationMs !== undefined ? { durationMs } : {}),
    ...(failed ? { failed } : {}),
    ...(background ? { background } : {}),
    message,
  }))
}

// The message with long strings cut and big objects and arrays summarised: method, ids and small fields stay readable.
function abridge(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return value.length > 80 ? `${value.slice(0, 60)}… (${value.length} chars)` : value
  if (value === null || typeof value !== 'object') return value
  if (depth > 5) return Array.isArray(value) ? `[… ${value.length} items]` : '{…}'
  if (Array.isArray(value))
    return value.length > 8 ? [...value.slice(0, 8).map((v) => abridge(v, depth + 1)), `… ${value.length - 8} more`] : value.map((v) => abridge(v, depth + 1))
  const entries = Object.entries(value)
  if (entries.length > 16) return { '…': `${entries.length} keys` }
  return Object.fromEntries(entries.map(([k, v]) => [k, abridge(v, depth + 1)]))
}

// The agent panel's watcher: poll_agent_messages with `since`, which reads without taking.
function isWatchPoll(m: Rpc): boolean {
  const params = (m as { params?: { name?: unknown; arguments?: { since?: unknown } } }).params
  return m.method === 'tools/call' && params?.name === 'poll_agent_messages' && params.arguments?.since !== undefined
}

/** hh:mm:ss.mmm in local time. */
export function clock(at: number): string {
  const d = new Date(at)
  const two = (n: number) => String(n).padStart(2, '0')
  return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}.${String(d.getMilliseconds()).padStart(3, '0')}`
}
