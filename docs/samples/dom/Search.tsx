// DOM sources in one component: values, checkboxes, keys, data attributes, custom events, merged streams.
import { component, xs } from 'duetkit'

export interface State {
  query: string
  exact: boolean
  searches: string[]
  opened: string | null
}

export const Search = component<State>()(
  function Search({ state }) {
    return (
      <form className="search">
        <input className="query" value={state.query} />
        <label>
          <input type="checkbox" className="exact" checked={state.exact} /> Exact
        </label>
        <button type="button" className="go">
          Search
        </button>
        <ul>
          {state.searches.map((s) => (
            <li key={s} className="past" data={{ query: s }}>
              {s}
            </li>
          ))}
        </ul>
      </form>
    )
  },
  {
    initialState: { query: '', exact: false, searches: [], opened: null },
    intent: ({ DOM }) => ({
      TYPE: DOM.input('.query').value(), // the field's value on every keystroke
      EXACT: DOM.change('.exact').checked(), // a checkbox's checked, as a boolean
      // Enter in the field or a click on the button: two streams, one action.
      GO: xs.merge(
        DOM.keydown('.query').filter((e) => e.key === 'Enter'),
        DOM.click('.go'),
      ),
      OPEN: DOM.click('.past').data('query'), // data-query of the clicked row
      // Any event type, custom ones included, through select().events().
      CLEAR: DOM.select('.search').events('clear-history'),
    }),
    model: {
      TYPE: (state, query) => ({ ...state, query }),
      EXACT: (state, exact) => ({ ...state, exact }),
      GO: (state) => (state.query ? { ...state, searches: [state.query, ...state.searches], query: '' } : state),
      OPEN: (state, query) => ({ ...state, opened: query }),
      CLEAR: (state) => ({ ...state, searches: [] }),
    },
  },
)
