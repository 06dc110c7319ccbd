import type { JSX } from 'duetkit/jsx-runtime'
import type { ListProblem } from './browse.js'

/** What a tab's list asks the page for when refreshed: every server's listing, answered as LISTED or LIST_FAILED. */
export type ListRequest = { list: true; ok: 'LISTED'; error: 'LIST_FAILED' }

/** The state both tabs' lists keep: the sections the page listed, and why the last listing failed as a whole. */
export interface ListState<Section> {
  sections: Section[]
  error: string
}

/** The model entries both lists share: REFRESH asks the page, LISTED and LIST_FAILED take its answer. */
export function listing<Section, S extends ListState<Section>>(what: string) {
  return {
    REFRESH: { PAGE: (): ListRequest => ({ list: true, ok: 'LISTED', error: 'LIST_FAILED' }) },
    LISTED: (state: S, sections: Section[]): S => ({ ...state, sections, error: '' }),
    LIST_FAILED: (state: S, { error }: { error: string }): S => ({ ...state, error: `listing ${what} failed: ${error}` }),
  }
}

/** A tab's list: Refresh (class `<kind>-refresh`), why listing failed, and a section per server. */
export function listView(kind: 'resources' | 'prompts', state: ListState<unknown>, sections: JSX.Element[]): JSX.Element {
  return (
    <div>
      <button type="button" className={`${kind}-refresh`} data-testid={`${kind}-refresh`}>
        Refresh
      </button>
      {state.error ? <div className="error-banner">{state.error}</div> : null}
      <div data-testid={kind === 'resources' ? 'resource-list' : 'prompt-list'}>{sections}</div>
    </div>
  )
}

// The server's name and version on a line of its own, so a note below never runs into it.
function sectionTitle(title: string): JSX.Element {
  return (
    <div>
      <b>{title}</b>
    </div>
  )
}

/** One server's section: its title, then its status when it is not connected, else what it listed. */
export function sectionView(s: { id: string; title: string; status?: string }, testid: string, body: () => (JSX.Element | null)[]): JSX.Element {
  if (s.status)
    return (
      <div key={s.id} className="server">
        {sectionTitle(s.title)}
        <div className="status error">{s.status}</div>
      </div>
    )
  return (
    <div key={s.id} className="server" data-testid={testid}>
      {sectionTitle(s.title)}
      {body()}
    </div>
  )
}

/** A listing's problem as shown under its heading, else `empty` when it listed nothing. */
export function problemView(p: ListProblem | undefined, testid: string, count: number, empty: string): JSX.Element | null {
  if (p?.note) return <small>{p.note}</small>
  if (p?.error)
    return (
      <div className="error-banner" data-testid={testid}>
        {p.error}
      </div>
    )
  return count === 0 ? <small>{empty}</small> : null
}
