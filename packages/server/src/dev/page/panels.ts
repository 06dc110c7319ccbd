import { run } from 'duetkit'
import { LogList } from './log-panel.js'

/** A panel that lists entries, newest last, with an optional replace-all mode. */
export interface LogPanel {
  /** Appends an entry; `owner` tags it (e.g. 'view') so `clearOwned` can drop what one source left. */
  add(label: string, value: unknown, owner?: string): void
  set(label: string, value: unknown): void
  clear(): void
  /** Removes the entries added with this owner, keeping the rest. */
  clearOwned(owner: string): void
}

/** A titled, collapsible list of JSON entries (the {@link LogList} component) run in `mountPoint`; `testid` names it for tests and users' scripts. */
export function logPanel(mountPoint: Element, title: string, testid: string, open = true): LogPanel {
  const app = run(LogList, {}, { mountPoint, props: { title, testid, open } })
  return {
    add: (label, value, owner) => void app.dispatch('ADD', { label, value, ...(owner && { owner }) }),
    set: (label, value) => void app.dispatch('SET', { label, value }),
    clear: () => void app.dispatch('CLEAR'),
    clearOwned: (owner) => void app.dispatch('CLEAR_OWNED', owner),
  }
}

/** One line of the JSON-RPC trace. */
export interface TraceEntry {
  dir: 'view->host' | 'host->view' | 'host->server' | 'server->host' | 'host->model' | 'model->host'
  server?: string
  message: unknown
}
