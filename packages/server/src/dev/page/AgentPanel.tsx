import { component, xs, type Drivers } from 'duetkit'
import type { AgentRequest, Polled } from './agent-poll.js'
import { pretty } from './dom.js'

export type AgentDrivers = Drivers & { AGENT: { source: undefined; sink: AgentRequest } }

interface InboxEntry {
  key: string
  channel: string
  label: string
  message: unknown
}

export interface AgentPanelState {
  channel: string
  watch: boolean
  consume: boolean
  event: string
  data: string
  status: string
  pollStatus: string
  polling: boolean
  /** Per channel, the last message id seen: the watcher's `since`, or the acknowledgement cursor when playing the agent. */
  cursors: Record<string, string>
  /** `channel|id` of every message shown, so one first watched, then taken, shows once. */
  seen: string[]
  inbox: InboxEntry[]
}

type Actions = {
  CHANNEL: string
  WATCH: boolean
  CONSUME: boolean
  CLEAR: null
  EVENT: string
  DATA: string
  SEND: null
  TICK: number
  /** From the page: a tool result or input named this channel. */
  SET_CHANNEL: string
  POLLED: Polled | string
  POLL_FAILED: { error: string }
  SENT: Polled | string
  SEND_FAILED: { error: string }
}

export const initialAgentState: AgentPanelState = {
  channel: '',
  watch: false,
  consume: false,
  event: 'answer',
  data: '',
  status: '',
  pollStatus: '',
  polling: false,
  cursors: {},
  seen: [],
  inbox: [],
}

// Newest first; an entry is labelled with its channel, its event and whether it was watched or taken.
function received(state: AgentPanelState, polled: Polled): AgentPanelState {
  const cursors = { ...state.cursors }
  const seen = new Set(state.seen)
  const fresh: InboxEntry[] = []
  for (const m of polled.messages) {
    const mid = (m as { id?: unknown }).id
    if (typeof mid === 'string') {
      cursors[polled.channel] = mid
      if (seen.has(`${polled.channel}|${mid}`)) continue
      seen.add(`${polled.channel}|${mid}`)
    }
    const ev = (m as { event?: unknown }).event
    const label = `[${polled.channel}] ${typeof ev === 'string' ? ev : 'message'}${polled.taking ? ' (taken)' : ' (watched)'}`
    fresh.unshift({
      key: `${polled.channel}|${typeof mid === 'string' ? mid : `n${state.inbox.length + fresh.length}`}`,
      channel: polled.channel,
      label,
      message: m,
    })
  }
  return { ...state, polling: false, cursors, seen: [...seen], inbox: [...fresh, ...state.inbox], pollStatus: polled.problem ?? '' }
}

/**
 * The agent's side of a channel. By default it only watches (a real agent polling the same server still
 * gets every message); it takes them, playing the agent, only when "play the agent" is ticked. It follows
 * the newest channel a tool result names; Send notify_ui answers on the channel in the field.
 */
export const AgentPanel = component<AgentPanelState, Record<string, never>, AgentDrivers, Actions>()(
  function AgentPanel({ state }) {
    return (
      <details open>
        <summary>Agent (channel)</summary>
        <div>
          <input className="agent-channel" placeholder="channel id" data-testid="agent-channel" size={28} value={state.channel} />{' '}
          <label title="Read the app’s messages without taking them (a real agent still gets them)">
            <input type="checkbox" className="agent-watch" data-testid="agent-listen" checked={state.watch} />
            watch
          </label>{' '}
          <label title="Take the messages, as the agent would: a real agent on this channel then gets none">
            <input type="checkbox" className="agent-consume" data-testid="agent-consume" checked={state.consume} />
            play the agent
          </label>{' '}
          <button type="button" className="agent-clear" data-testid="agent-clear">
            Clear
          </button>
        </div>
        <div className="status error" data-testid="agent-poll-status">
          {state.pollStatus}
        </div>
        <div className="agent-inbox">
          <div data-testid="agent-inbox">
            {state.inbox.map((e) => (
              <div key={e.key} className="entry" data-channel={e.channel}>
                <div className="dir">{e.label}</div>
                <pre>{pretty(e.message)}</pre>
              </div>
            ))}
          </div>
        </div>
        <div>
          {/* Prefilled with "answer", so a placeholder alone would not say what the field is. */}
          <label title="The event name notify_ui sends to the app">
            event <input className="agent-event" placeholder="event" data-testid="agent-event" size={10} value={state.event} />
          </label>{' '}
          <button type="button" className="agent-send" data-testid="agent-send">
            Send notify_ui
          </button>
        </div>
        <textarea className="code agent-data" rows={3} placeholder="data (JSON)" data-testid="agent-data" value={state.data} />
        <div className="status" data-testid="agent-status">
          {state.status}
        </div>
      </details>
    )
  },
  {
    initialState: initialAgentState,
    intent: ({ DOM }) => ({
      CHANNEL: DOM.input('.agent-channel').value(),
      WATCH: DOM.change('.agent-watch').checked(),
      CONSUME: DOM.change('.agent-consume').checked(),
      CLEAR: DOM.click('.agent-clear').mapTo(null),
      EVENT: DOM.input('.agent-event').value(),
      DATA: DOM.input('.agent-data').value(),
      SEND: DOM.click('.agent-send').mapTo(null),
      TICK: xs.periodic(1000),
    }),
    model: {
      CHANNEL: (state, channel) => ({ ...state, channel, pollStatus: '' }),
      WATCH: (state, watch) => ({ ...state, watch }),
      CONSUME: (state, consume) => ({ ...state, consume }),
      CLEAR: (state) => ({ ...state, inbox: [] }),
      EVENT: (state, event) => ({ ...state, event }),
      DATA: (state, data) => ({ ...state, data }),
      // Every result that names a channel moves the panel to it: the newest render is the one on screen.
      SET_CHANNEL: (state, channel) => ({ ...state, channel, watch: true, pollStatus: channel === state.channel ? state.pollStatus : '' }),
      TICK: {
        STATE: (state) => (state.watch && state.channel.trim() && !state.polling ? { ...state, polling: true } : state),
        AGENT: (state) => {
          const channel = state.channel.trim()
          if (!state.watch || !channel || state.polling) return undefined
          return { poll: { channel, taking: state.consume, cursor: state.cursors[channel] ?? '0' }, ok: 'POLLED', error: 'POLL_FAILED' }
        },
      },
      POLLED: (state, polled) => (typeof polled === 'string' ? state : received(state, polled)),
      POLL_FAILED: (state, { error }) => ({ ...state, polling: false, pollStatus: `poll failed: ${error}` }),
      SEND: {
        STATE: (state) => (parses(state.data) ? state : { ...state, status: 'data is not valid JSON' }),
        AGENT: (state) => {
          if (!parses(state.data)) return undefined
          const data = state.data.trim() ? JSON.parse(state.data) : undefined
          return {
            notify: { channel: state.channel.trim(), event: state.event.trim(), ...(data === undefined ? {} : { data }) },
            ok: 'SENT',
            error: 'SEND_FAILED',
          }
        },
      },
      SENT: (state, status) => ({ ...state, status: typeof status === 'string' ? status : '' }),
      SEND_FAILED: (state, { error }) => ({
        ...state,
        status: error.startsWith('notify_ui') || error.startsWith('no connected') ? error : `notify_ui failed: ${error}`,
      }),
    },
  },
)

function parses(data: string): boolean {
  if (!data.trim()) return true
  try {
    JSON.parse(data)
    return true
  } catch {
    return false
  }
}
