// A view that shows fresh data whenever it is mounted. A host that re-mounts a view (duet dev on
// save, a chat switched back to) replays the original tool input and result, which may be hours old:
// this view shows the replayed result at once, then calls its own tool again and shows that answer.
import { component, type NoProps } from 'duetkit'
import type { CallToolResult, McpDrivers, McpErrorReply } from 'duetkit/mcp'
import type { QueueServer } from './server'

export interface State {
  queue: string
  waiting: number | null
  countedAt: string
  refreshing: boolean
  error: string
}

type Counted = CallToolResult<{ queue: string; waiting: number; countedAt: string }>

// FRESH (the answer of the view's own call) and FAILED are actions no intent source produces: declared here.
export const App = component<State, NoProps, McpDrivers<QueueServer, 'show_queue'>, { FRESH: Counted; FAILED: McpErrorReply }>()(
  function Queue({ state }) {
    return (
      <main>
        <h1>{state.queue || 'Queue'}</h1>
        <p className="count">{state.waiting === null ? '…' : `${state.waiting} waiting`}</p>
        <small className="when">
          {state.countedAt ? `counted ${state.countedAt}` : ''}
          {state.refreshing ? ' (refreshing)' : ''}
        </small>
        {state.error ? <p role="alert">{state.error}</p> : null}
      </main>
    )
  },
  {
    initialState: { queue: '', waiting: null, countedAt: '', refreshing: false, error: '' },
    intent: ({ MCP }) => ({
      // On every mount, first or re-mount, the host sends the tool's input: the moment to ask again.
      INPUT: MCP.select('tool-input'),
      RESULT: MCP.select('tool-result'),
    }),
    model: {
      INPUT: {
        STATE: (state, args) => ({ ...state, queue: args.queue ?? state.queue, refreshing: true }),
        MCP: (_state, args) => ({ callTool: 'show_queue', args: { queue: args.queue ?? '' }, ok: 'FRESH', error: 'FAILED' }),
      },
      // The original (or replayed) result: shown until the fresh one comes, never after it.
      RESULT: (state, result) => (state.refreshing ? { ...state, ...counted(result.structuredContent) } : state),
      FRESH: (state, result) => ({ ...state, ...counted(result.structuredContent), refreshing: false }),
      FAILED: (state, { error }) => ({ ...state, refreshing: false, error }),
    },
  },
)

function counted(content: { waiting: number; countedAt: string } | undefined): Pick<State, 'waiting' | 'countedAt'> {
  return { waiting: content?.waiting ?? null, countedAt: content?.countedAt ?? '' }
}
