import { h, pretty } from './dom.js'

/** A panel that lists entries, newest last, with an optional replace-all mode. */
export interface LogPanel {
  element: HTMLElement
  add(label: string, value: unknown): void
  set(label: string, value: unknown): void
  clear(): void
}

/** A titled, collapsible list of JSON entries; `testid` names it for tests and users' scripts. */
export function logPanel(title: string, testid: string, open = true): LogPanel {
  const list = h('div', { 'data-testid': testid })
  const element = h('details', { open }, h('summary', {}, title), list)
  const entry = (label: string, value: unknown) =>
    h('div', { class: 'entry' }, h('div', { class: 'dir' }, label), h('pre', {}, typeof value === 'string' ? value : pretty(value)))
  return {
    element,
    add(label, value) {
      list.append(entry(label, value))
      list.scrollTop = list.scrollHeight
    },
    set(label, value) {
      list.replaceChildren(entry(label, value))
    },
    clear() {
      list.replaceChildren()
    },
  }
}

/** One line of the JSON-RPC trace. */
export interface TraceEntry {
  dir: 'view->host' | 'host->view' | 'host->server' | 'server->host'
  server?: string
  message: unknown
}

/** The full trace, both ways, with a text filter and a direction filter applied as you type. */
export function tracePanel(): { element: HTMLElement; add(entry: TraceEntry): void; clear(): void } {
  const entries: { entry: TraceEntry; row: HTMLElement; text: string }[] = []
  const filter = h('input', { placeholder: 'filter (method, id, text)', 'data-testid': 'trace-filter', size: '24' })
  const dir = h(
    'select',
    { 'data-testid': 'trace-dir' },
    h('option', { value: '' }, 'all'),
    h('option', { value: 'view' }, 'app ↔ host'),
    h('option', { value: 'server' }, 'host ↔ server'),
  )
  const list = h('div', { 'data-testid': 'trace' })
  const visible = (e: { entry: TraceEntry; text: string }) => {
    const q = filter.value.trim().toLowerCase()
    const d = dir.value
    if (d && !e.entry.dir.includes(d)) return false
    return !q || e.text.toLowerCase().includes(q)
  }
  const refresh = () => {
    for (const e of entries) e.row.hidden = !visible(e)
  }
  filter.addEventListener('input', refresh)
  dir.addEventListener('change', refresh)
  const element = h('details', { open: true }, h('summary', {}, 'JSON-RPC trace'), h('div', {}, filter, ' ', dir), list)
  return {
    element,
    add(entry) {
      const text = JSON.stringify(entry.message)
      const row = h(
        'div',
        { class: 'entry', 'data-dir': entry.dir },
        h('span', { class: 'dir' }, `${entry.dir}${entry.server ? ` [${entry.server}]` : ''} `),
        h('code', {}, text),
      )
      const item = { entry, row, text: `${entry.dir} ${text}` }
      entries.push(item)
      row.hidden = !visible(item)
      list.append(row)
    },
    clear() {
      entries.length = 0
      list.replaceChildren()
    },
  }
}
