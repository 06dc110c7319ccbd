import { h, pretty } from './dom.js'

/** A panel that lists entries, newest last, with an optional replace-all mode. */
export interface LogPanel {
  element: HTMLElement
  /** Appends an entry; `owner` tags it (e.g. 'view') so `clearOwned` can drop what one source left. */
  add(label: string, value: unknown, owner?: string): void
  set(label: string, value: unknown): void
  clear(): void
  /** Removes the entries added with this owner, keeping the rest. */
  clearOwned(owner: string): void
}

/** A titled, collapsible list of JSON entries; `testid` names it for tests and users' scripts. */
export function logPanel(title: string, testid: string, open = true): LogPanel {
  const list = h('div', { 'data-testid': testid })
  const element = h('details', { open }, h('summary', {}, title), list)
  const entry = (label: string, value: unknown, owner?: string) =>
    h('div', { class: 'entry', 'data-owner': owner }, h('div', { class: 'dir' }, label), h('pre', {}, typeof value === 'string' ? value : pretty(value)))
  return {
    element,
    add(label, value, owner) {
      list.append(entry(label, value, owner))
      list.scrollTop = list.scrollHeight
    },
    clearOwned(owner) {
      for (const el of Array.from(list.children)) if (el.getAttribute('data-owner') === owner) el.remove()
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
  dir: 'view->host' | 'host->view' | 'host->server' | 'server->host' | 'host->model' | 'model->host'
  server?: string
  message: unknown
}
