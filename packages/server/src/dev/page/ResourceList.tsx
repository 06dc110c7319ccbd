import { component, type Drivers } from 'duetkit'
import type { JSX } from 'duetkit/jsx-runtime'
import type { ResourceSection } from './browse.js'
import { type ListRequest, type ListState, listing, listView, problemView, sectionView } from './browse-list.js'

/** What the list asks of the page: list every server's resources, or open one (or a template) in the middle column. */
export type ResourceListRequest =
  | ListRequest
  | { open: { server: string; resource: ResourceSection['resources'][number] } }
  | { template: { server: string; template: ResourceSection['templates'][number] } }
export type ResourceListDrivers = Drivers & { PAGE: { source: undefined; sink: ResourceListRequest } }

export type ResourceListState = ListState<ResourceSection>

type Actions = { LISTED: ResourceSection[]; LIST_FAILED: { error: string } }

function section(s: ResourceSection): JSX.Element {
  return sectionView(s, `resources-${s.id}`, () => [
    <h2>Resources</h2>,
    problemView(s.resourcesProblem, 'resource-list-error', s.resources.length, 'no resources'),
    ...s.resources.map((r, i) => (
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
    )),
    <h2>Templates</h2>,
    problemView(s.templatesProblem, 'resource-list-error', s.templates.length, 'no templates'),
    ...s.templates.map((t, i) => (
      <button type="button" className="tool template-item" data-testid="template-item" data={{ server: s.id, index: i }} title={t.description ?? ''}>
        {t.name}
        <br />
        <small>{t.uriTemplate}</small>
      </button>
    )),
  ])
}

/**
 * The resources tab: every connected server's resources and resource templates. Picking one opens it
 * in the middle column (a resource is read at once; a template gets a field per variable). The page
 * hands it REFRESH each time the tab is shown.
 */
export const ResourceList = component<ResourceListState, Record<string, never>, ResourceListDrivers, Actions>()(
  function ResourceList({ state }) {
    return listView('resources', state, state.sections.map(section))
  },
  {
    initialState: { sections: [], error: '' },
    intent: ({ DOM }) => ({
      REFRESH: DOM.click('.resources-refresh').mapTo(null),
      OPEN: DOM.click('.resource-item').dataset(),
      TEMPLATE: DOM.click('.template-item').dataset(),
    }),
    model: {
      ...listing<ResourceSection, ResourceListState>('resources'),
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
