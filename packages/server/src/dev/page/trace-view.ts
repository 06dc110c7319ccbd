import { h, pretty } from './dom.js'
import type { TraceEntry } from './panels.js'

/** Payloads larger than this (bytes of JSON) are collapsed: a view's HTML would otherwise fill the page. */
const COLLAPSE_BYTES = 2048
/** The trace keeps this many entries; older ones are dropped (from the page and the export). */
const MAX_ENTRIES = 2000

const ARROWS: Record<TraceEntry['dir'], string> = {
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

/** One row as the trace keeps it and exports it. */
interface Row {
  at: number
  dir: TraceEntry['dir']
  server?: string
  method?: string
  id?: string | number
  /** On a response (and on its request, once answered): milliseconds between the two. */
  durationMs?: number
  /** Why the request failed: a JSON-RPC error, or a tool result with isError. */
  failed?: string
  /** The agent panel's own watching polls (and their answers): hidden unless asked for, as they come every second. */
  background?: boolean
  message: unknown
  element: HTMLElement
  text: string
}

/**
 * The JSON-RPC trace, newest first: time, direction, method, duration of answered requests (matched by
 * id), failures marked, large payloads behind a toggle, filters, and an export of everything as JSON.
 */
export function tracePanel(): { element: HTMLElement; add(entry: TraceEntry): void; clear(): void } {
  const rows: Row[] = []
  // Requests waiting for their answer, by side ("view" or the server's id), sender and id.
  const pending = new Map<string, Row>()

  const filter = h('input', { placeholder: 'filter (method, id, text)', 'data-testid': 'trace-filter', size: '20' })
  const dir = h(
    'select',
    { 'data-testid': 'trace-dir' },
    h('option', { value: '' }, 'all'),
    h('option', { value: 'view' }, 'app ↔ host'),
    h('option', { value: 'server' }, 'host ↔ server'),
    ...Object.entries(ARROWS).map(([value, label]) => h('option', { value }, label)),
  )
  const errorsOnly = h('input', { type: 'checkbox', 'data-testid': 'trace-errors' })
  const showBackground = h('input', { type: 'checkbox', 'data-testid': 'trace-background' })
  const exportButton = h('button', { type: 'button', 'data-testid': 'trace-export' }, 'Export JSON')
  const clearButton = h('button', { type: 'button', 'data-testid': 'trace-clear' }, 'Clear')
  const count = h('small', { 'data-testid': 'trace-count' })
  const list = h('div', { class: 'trace-list', 'data-testid': 'trace' })

  const visible = (r: Row) => {
    const q = filter.value.trim().toLowerCase()
    const d = dir.value
    if (d && !(d === r.dir || (!d.includes('->') && r.dir.includes(d)))) return false
    if (errorsOnly.checked && !r.failed) return false
    if (r.background && !showBackground.checked) return false
    return !q || r.text.includes(q)
  }
  const refresh = () => {
    for (const r of rows) r.element.hidden = !visible(r)
  }
  filter.addEventListener('input', refresh)
  dir.addEventListener('change', refresh)
  errorsOnly.addEventListener('change', refresh)
  showBackground.addEventListener('change', refresh)
  const clear = () => {
    rows.length = 0
    pending.clear()
    list.replaceChildren()
    count.textContent = ''
  }
  clearButton.addEventListener('click', clear)
  exportButton.addEventListener('click', () => {
    const data = rows.map(({ at, dir, server, method, id, durationMs, failed, background, message }) => ({
      at: new Date(at).toISOString(),
      dir,
      ...(server ? { server } : {}),
      ...(method ? { method } : {}),
      ...(id !== undefined ? { id } : {}),
      ...(durationMs !== undefined ? { durationMs } : {}),
      ...(failed ? { failed } : {}),
      ...(background ? { background } : {}),
      message,
    }))
    const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }))
    const a = h('a', { href: url, download: `duet-trace-${new Date().toISOString().replace(/[:.]/g, '-')}.json` })
    document.body.append(a)
    a.click()
    a.remove()
    setTimeout(() => URL.revokeObjectURL(url), 10_000)
  })

  const element = h(
    'details',
    { open: true },
    h('summary', {}, 'JSON-RPC trace ', count),
    h(
      'div',
      { class: 'trace-bar' },
      filter,
      ' ',
      dir,
      ' ',
      h('label', {}, errorsOnly, 'errors only'),
      ' ',
      h('label', {}, showBackground, 'agent panel polls'),
      ' ',
      exportButton,
      ' ',
      clearButton,
    ),
    list,
  )

  return {
    element,
    clear,
    add(entry) {
      const m = (entry.message ?? {}) as Rpc
      const side = entry.dir.includes('view') ? 'view' : `server:${entry.server ?? ''}`
      const id = typeof m.id === 'string' || typeof m.id === 'number' ? m.id : undefined
      const row: Row = { at: Date.now(), dir: entry.dir, server: entry.server, id, message: entry.message, element: h('div'), text: '' }
      if (typeof m.method === 'string') {
        row.method = m.method
        row.background = isWatchPoll(m)
        if (id !== undefined) pending.set(`${side}|${entry.dir}|${id}`, row)
      } else if (id !== undefined && ('result' in m || 'error' in m)) {
        const key = `${side}|${OPPOSITE[entry.dir]}|${id}`
        const request = pending.get(key)
        pending.delete(key)
        if (m.error) row.failed = `error ${String(m.error.code)}${m.error.message ? ` ${String(m.error.message)}` : ''}`
        else if (m.result?.isError === true) row.failed = 'tool result isError'
        if (request) {
          row.method = request.method
          row.durationMs = row.at - request.at
          request.durationMs = row.durationMs
          request.failed = row.failed
          row.background = request.background
          render(request)
          request.element.hidden = !visible(request)
        }
      }
      render(row)
      rows.push(row)
      list.prepend(row.element)
      row.element.hidden = !visible(row)
      while (rows.length > MAX_ENTRIES) rows.shift()!.element.remove()
      count.textContent = `(${rows.length})`
    },
  }
}

// (Re)draws a row in place: a request is drawn again when its answer arrives, with the duration.
function render(row: Row): void {
  const json = JSON.stringify(row.message) ?? 'undefined'
  const m = row.message
  const isResponse = row.method !== undefined && !(typeof m === 'object' && m !== null && 'method' in m)
  const head = h(
    'div',
    { class: 'trace-head' },
    h('span', { class: 'time' }, clock(row.at)),
    h('span', { class: 'dir' }, ARROWS[row.dir]),
    row.server ? h('span', { class: 'dir' }, `[${row.server}]`) : null,
    h('b', { 'data-testid': 'trace-method' }, row.method ? `${row.method}${isResponse ? ' (answer)' : ''}` : 'response'),
    row.id !== undefined ? h('span', { class: 'dir' }, `#${row.id}`) : null,
    row.durationMs !== undefined ? h('span', { class: 'duration', 'data-testid': 'trace-duration' }, `${row.durationMs} ms`) : null,
    row.failed ? h('span', { class: 'failed-tag', 'data-testid': 'trace-failed' }, row.failed) : null,
  )
  const large = json.length > COLLAPSE_BYTES
  const body = large ? collapsed(row.message, json.length) : h('pre', {}, pretty(row.message))
  const element = h('div', { class: `entry trace-entry${row.failed ? ' failed' : ''}`, 'data-dir': row.dir }, head, body)
  element.hidden = row.element.hidden
  row.element.replaceWith(element)
  row.element = element
  // The filter searches what the row shows: a view's HTML naming every method would otherwise match them all.
  const searched = large ? JSON.stringify(abridge(row.message, 0)) : `${json} ${pretty(row.message)}`
  row.text = `${ARROWS[row.dir]} ${row.dir} ${row.server ?? ''} ${row.method ?? ''} ${row.failed ?? ''} ${searched}`.toLowerCase()
}

// A large payload behind a toggle, with a one-line preview of its shape; the full text is only built when opened.
function collapsed(message: unknown, bytes: number): HTMLElement {
  const pre = h('pre')
  const box = h('details', { class: 'payload', 'data-testid': 'trace-collapsed' }, h('summary', {}, `full payload ${(bytes / 1024).toFixed(1)} KB (show)`), pre)
  box.addEventListener('toggle', () => {
    if (box.open && !pre.textContent) pre.textContent = pretty(message)
  })
  return h('div', {}, h('code', { class: 'preview' }, JSON.stringify(abridge(message, 0))), box)
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

function clock(at: number): string {
  const d = new Date(at)
  const two = (n: number) => String(n).padStart(2, '0')
  return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}.${String(d.getMilliseconds()).padStart(3, '0')}`
}
