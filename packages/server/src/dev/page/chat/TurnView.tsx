import type { JSX } from 'duetkit/jsx-runtime'
import { usageLine, type ToolItem, type TurnItem, type TurnState } from './chat-state.js'

/** One turn: the user's message (or the view's, for a `ui/message`), then what the model did, then its tokens. */
export function TurnView({ state }: { state: TurnState }): JSX.Element {
  return (
    <div className="turn" data-testid="chat-turn" data-turn={state.id}>
      <div className={`bubble user${state.from ? ' from-view' : ''}`} data-testid="chat-user">
        {state.from ? <div className="dir">from the view of {state.from.tool} (ui/message)</div> : null}
        {state.text}
      </div>
      {state.items.map((item) => itemView(item))}
      {state.error ? (
        <div className="error-banner" data-testid="chat-error">
          {state.error}
        </div>
      ) : null}
      <div className="usage" data-testid="chat-usage">
        {state.done ? `${state.finish === 'stopped' ? 'stopped · ' : ''}${usageLine(state.usage)}` : 'working…'}
      </div>
    </div>
  )
}

function itemView(item: TurnItem): JSX.Element {
  if (item.kind === 'text')
    return (
      <div key={item.id} className="bubble assistant" data-testid="chat-assistant">
        {item.text}
      </div>
    )
  return toolView(item)
}

function toolView(item: ToolItem): JSX.Element {
  return (
    <div key={item.id} className={`tool-call ${item.status}`} data-testid="chat-tool" data-tool={item.tool}>
      <details>
        <summary>
          {item.tool} <span className="dir">{item.status === 'running' ? 'running…' : item.status}</span>
        </summary>
        <pre>{JSON.stringify(item.input, null, 2)}</pre>
      </details>
      {item.error ? <div className="status error">{item.error}</div> : null}
      {/* Left empty: the CHAT driver mounts the view's iframe here, and the runtime never touches it again. */}
      {item.uri ? <div className="chat-view" data-view-call={item.callId} /> : null}
    </div>
  )
}
