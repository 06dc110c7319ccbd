import { component } from 'duetkit'
import type { JSX } from 'duetkit/jsx-runtime'
import { pretty } from './dom.js'

/** One entry of a log panel; `owner` tags who added it (e.g. 'view'), so that one source's lines can go. */
export interface LogEntry {
  id: number
  label: string
  value: unknown
  owner?: string
}

export interface LogPanelState {
  entries: LogEntry[]
  seq: number
}

/** What a log panel shows around its entries. */
export interface LogPanelProps {
  title: string
  testid: string
  open: boolean
}

// Newest last, so a panel that only grows keeps its scroll at the bottom after each patch.
const toBottom = { postpatch: (_old: JSX.Element, v: JSX.Element) => ((v.elm as HTMLElement).scrollTop = (v.elm as HTMLElement).scrollHeight) }

/** A titled, collapsible list of JSON entries; the page hands it ADD, SET, CLEAR and CLEAR_OWNED. */
export const LogList = component<
  LogPanelState,
  LogPanelProps,
  Record<string, never>,
  { ADD: Omit<LogEntry, 'id'>; SET: Omit<LogEntry, 'id' | 'owner'>; CLEAR: undefined; CLEAR_OWNED: string }
>()(
  function LogList({ state, props }) {
    return (
      <details open={props.open}>
        <summary>{props.title}</summary>
        <div data-testid={props.testid} hook={toBottom}>
          {state.entries.map((e) => (
            <div key={e.id} className="entry" data-owner={e.owner}>
              <div className="dir">{e.label}</div>
              <pre>{typeof e.value === 'string' ? e.value : pretty(e.value)}</pre>
            </div>
          ))}
        </div>
      </details>
    )
  },
  {
    initialState: { entries: [], seq: 0 },
    model: {
      ADD: (s, e) => ({ seq: s.seq + 1, entries: [...s.entries, { id: s.seq + 1, ...e }] }),
      SET: (s, e) => ({ seq: s.seq + 1, entries: [{ id: s.seq + 1, ...e }] }),
      CLEAR: (s) => ({ ...s, entries: [] }),
      CLEAR_OWNED: (s, owner) => ({ ...s, entries: s.entries.filter((e) => e.owner !== owner) }),
    },
  },
)
