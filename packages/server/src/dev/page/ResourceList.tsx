import { component, type Drivers } from 'duetkit'
import type { JSX } from 'duetkit/jsx-runtime'
import type { ListProblem, ResourceSection } from './browse.js'

/** What the list asks of the page: list every server's resources, or open one (or a template) in the middle column. */
export type ResourceListRequest =
  | { list: true; ok: 'LISTED'; error: 'LIST_FAILED' }
  | { open: { server: string; resource: ResourceSection['resources'][number] } }
  | { template: { server: string; template: ResourceSection['templates'][number] } }
export type ResourceListDrivers = Drivers & { PAGE: { source: undefined; sink: ResourceListRequest } }

export interface ResourceListState {
  sections: ResourceSection[]
  /** Why the last listing failed as a whole. */
  error: string
}

type Actions = { LISTED: ResourceSection[]; LIST_FAILED: { error: string } }

/** A listing's problem as shown under its heading: a quiet note, or an error banner. */
export function problemView(p: ListProblem | undefined, testid: string): JSX.Element | null {
  if (p?.note) return <small>{p.note}</small>
  if (p?.error)
    return (
      <div className="error-banner" data-testid={testid}>
        {p.error}
      </div>
    )
  return null
}

// The server's name and version on a line of its own, so a note below never runs into it.
export function sectionTitle(title: string): JSX.Element {
  return (
    <div>
      <b>{title}</b>
    </div>
  )
}

function section(s: ResourceSection): JSX.Element {
  if (s.status)
    return (
      <div key={s.id} className="server">
        {sectionTitle(s.title)}
        <div className="status error">{s.status}</div>
      </div>
    )
  return (
    <div key={s.id} className="server" data-testid={`resources-${s.id}`}>
      {sectionTitle(s.title)}
      <h2>Resources</h2>
      {problemView(s.resourcesProblem, 'resource-list-error')}
      {!s.resourcesProblem && s.resources.length === 0 ? <small>no resources</small> : null}
      {s.resources.map((r, i) => (
        <button
          type="button"
          className="tool resource-item"
          data-testid="resource-item"
          data-uri={r.uri}
          data={{ server: s.id, index: i }}
          title={r.description ?? ''}
        >
          {r.name}
          <br />
          <small>{r.uri}</small>
        </button>
      ))}
      <h2>Templates</h2>
      {problemView(s.templatesProblem, 'resource-list-error')}
      {!s.templatesProblem && s.templates.length === 0 ? <small>no templates</small> : null}
      {s.templates.map((t, i) => (
        <button type="button" className="tool template-item" data-testid="template-item" data={{ server: s.id, index: i }} title={t.description ?? ''}>
          {t.name}
          <br />
          <small>{t.uriTemplate}</small>
        </button>
      ))}
    </div>
  )
}

/**
 * The resources tab: every connected server's resources and resource templates. Picking one opens it
 * in the middle column (a resource is read at once; a template gets a field per variable). The page
 * hands it REFRESH each time the tab is shown.
 */
export const ResourceList = component<ResourceListState, Record<string, never>, ResourceListDrivers, Actions>()(
  function ResourceList({ state }) {
    return (
      <div>
        <button type="button" className="resources-refresh" data-testid="resources-refresh">
          Refresh
        </button>
        {state.error ? <div className="error-banner">{state.error}</div> : null}
        <div data-testid="resource-list">{state.sections.map(section)}</div>
      </div>
    )
  },
  {
    initialState: { sections: [], error: '' },
    intent: ({ DOM }) => ({
      REFRESH: DOM.click('.resources-refresh').mapTo(null),
      OPEN: DOM.click('.resource-item').dataset(),
      TEMPLATE: DOM.click('.template-item').dataset(),
    }),
    model: {
      REFRESH: { PAGE: () => ({ list: true, ok: 'LISTED', error: 'LIST_FAILED' }) },
      LISTED: (state, sections) => ({ ...state, sections, error: '' }),
      LIST_FAILED: (state, { error }) => ({ ...state, error: `listing resources failed: ${error}` }),
      OPEN: {
        PAGE: (state, d) => {
          const resource = state.sections.find((s) => s.id === d.server)?.resources[Number(d.index)]
          return resource ? { open: { server: d.server, resource } } : undefined
        },
      },
      TEMPLATE: {
        PAGE: (state, d) => {
          const template = state.sections.find((s) => s.id === d.server)?.templates[Number(d.index)]
          return template ? { template: { server: d.server, template } } : undefined
        },
      },
    },
  },
)
