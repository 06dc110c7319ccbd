import { Collection, component, type Drivers } from 'duetkit'
import { pretty } from './dom.js'
import type { TraceEntry } from './panels.js'
import { ARROWS, addEntry, clock, exportRows, initialTraceState, refilter, type TraceRow, type TraceState } from './trace-rows.js'

/** What the trace asks of the page: save its rows (oldest first) as a JSON file. */
export type TraceRequest = { export: unknown[] }
export type TraceDrivers = Drivers & { PAGE: { source: undefined; sink: TraceRequest } }

/**
 * One row: time, direction, server, method, id, duration and failure, then the payload; a large one
 * behind a toggle with a one-line preview, its full text built only while open.
 */
const TraceRowView = component<TraceRow>()(
  function TraceRowView({ state: row }) {
    return (
      <div className={`entry trace-entry${row.failed ? ' failed' : ''}`} data-dir={row.dir} hidden={row.hidden}>
        <div className="trace-head">
          <span className="time">{clock(row.at)}</span>
          <span className="dir">{ARROWS[row.dir]}</span>
          {row.server ? <span className="dir">[{row.server}]</span> : null}
          <b data-testid="trace-method">{row.method ? `${row.method}${row.answer ? ' (answer)' : ''}` : 'response'}</b>
          {row.rpcId !== undefined ? <span className="dir">#{String(row.rpcId)}</span> : null}
          {row.durationMs !== undefined ? (
            <span className="duration" data-testid="trace-duration">
              {row.durationMs} ms
            </span>
          ) : null}
          {row.failed ? (
            <span className="failed-tag" data-testid="trace-failed">
              {row.failed}
            </span>
          ) : null}
        </div>
        {row.body !== undefined ? (
          <pre>{row.body}</pre>
        ) : (
          <div>
            <code className="preview">{row.preview}</code>
            <details className="payload" data-testid="trace-collapsed" open={row.open}>
              <summary>full payload {(row.bytes / 1024).toFixed(1)} KB (show)</summary>
              <pre>{row.open ? pretty(row.message) : ''}</pre>
            </details>
          </div>
        )}
      </div>
    )
  },
  {
    // `toggle` does not bubble; the runtime listens in the capture phase, so it is heard here.
    intent: ({ DOM }) => ({ TOGGLE: DOM.toggle('.payload').map((e) => (e.target as HTMLDetailsElement).open) }),
    model: { TOGGLE: (row, open) => ({ ...row, open }) },
  },
)

/**
 * The JSON-RPC trace, newest first: each row with time, direction, method, duration of answered requests
 * (matched by id), failures marked, large payloads behind a toggle; filters, and an export as JSON. The
 * page hands it ADD (each message, stamped with its time) and CLEAR.
 */
export const TracePanel = component<TraceState, Record<string, never>, TraceDrivers, { ADD: TraceEntry & { at: number } }>()(
  function TracePanel({ state }) {
    return (
      <details open>
        <summary>
          JSON-RPC trace <small data-testid="trace-count">{state.rows.length ? `(${state.rows.length})` : ''}</small>
        </summary>
        <div className="trace-bar">
          <input
            className="trace-filter"
            placeholder="filter (method, id, text)"
            aria-label="Filter the trace"
            data-testid="trace-filter"
            size={20}
            value={state.query}
          />{' '}
          <select className="trace-dir" aria-label="Direction" data-testid="trace-dir" value={state.dir}>
            <option value="">all</option>
            <option value="view">app ↔ host</option>
            <option value="server">host ↔ server</option>
            {Object.entries(ARROWS).map(([value, label]) => (
              <option value={value}>{label}</option>
            ))}
          </select>{' '}
          <label>
            <input type="checkbox" className="trace-errors" data-testid="trace-errors" checked={state.errorsOnly} />
            errors only
          </label>{' '}
          <label>
            <input type="checkbox" className="trace-background" data-testid="trace-background" checked={state.background} />
            agent panel polls
          </label>{' '}
          <button type="button" className="trace-export" data-testid="trace-export">
            Export JSON
          </button>{' '}
          <button type="button" className="trace-clear" data-testid="trace-clear">
            Clear
          </button>
        </div>
        <div className="trace-list" data-testid="trace">
          <Collection of={TraceRowView} from="rows" />
        </div>
      </details>
    )
  },
  {
    initialState: initialTraceState,
    intent: ({ DOM }) => ({
      QUERY: DOM.input('.trace-filter').value(),
      DIR: DOM.change('.trace-dir').value(),
      ERRORS: DOM.change('.trace-errors').checked(),
      BACKGROUND: DOM.change('.trace-background').checked(),
      EXPORT: DOM.click('.trace-export').mapTo(null),
      CLEAR: DOM.click('.trace-clear').mapTo(null),
    }),
    model: {
      ADD: addEntry,
      QUERY: (state, query) => refilter(state, { query }),
      DIR: (state, dir) => refilter(state, { dir }),
      ERRORS: (state, errorsOnly) => refilter(state, { errorsOnly }),
      BACKGROUND: (state, background) => refilter(state, { background }),
      EXPORT: { PAGE: (state) => ({ export: exportRows(state.rows) }) },
      CLEAR: (state) => ({ ...state, rows: [], pending: {} }),
    },
  },
)
