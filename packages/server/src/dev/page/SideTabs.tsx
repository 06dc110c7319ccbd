import { component, type Drivers } from 'duetkit'

/** One tab of the left column: its id (the pane's test id and mount point) and label. */
export interface SideTab {
  id: string
  label: string
}

export interface SideTabsState {
  tabs: SideTab[]
  shown: string
}

/** What the tabs tell the page: a tab was shown (the resources and prompts tabs list afresh then). */
export type SideTabsRequest = { shown: string }
export type SideTabsDrivers = Drivers & { PAGE: { source: undefined; sink: SideTabsRequest } }

/**
 * Tools, resources and prompts share the left column; one is shown at a time. Each pane is left empty
 * for the page to run its list in (`[data-pane=<id>]`): the runtime never touches a pane's content.
 */
export const SideTabs = component<SideTabsState, Record<string, never>, SideTabsDrivers>()(
  function SideTabs({ state }) {
    return (
      <div>
        <div className="side-tabs" role="tablist">
          {state.tabs.map((t) => (
            <button type="button" role="tab" className="side-tab" data-tab={t.id} data-testid={`side-tab-${t.id}`} aria-selected={t.id === state.shown}>
              {t.label}
            </button>
          ))}
        </div>
        {state.tabs.map((t) => (
          <div key={t.id} role="tabpanel" data-testid={`side-pane-${t.id}`} data-pane={t.id} hidden={t.id !== state.shown} />
        ))}
      </div>
    )
  },
  {
    initialState: { tabs: [], shown: '' },
    intent: ({ DOM }) => ({ SHOW: DOM.click('.side-tab').data('tab') }),
    model: {
      SHOW: { STATE: (state, shown) => ({ ...state, shown }), PAGE: (_state, shown) => ({ shown }) },
    },
  },
)
