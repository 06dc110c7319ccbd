import { Collection, component, xs } from 'duetkit'
import type { ChatDrivers } from './chat-driver.js'
import { applyChatEvent, initialChatState, isBusy, type ChatState } from './chat-state.js'
import { TurnView } from './TurnView.js'

/**
 * The chat of `duet dev --model`: the transcript (each turn with the model's text, its tool calls and
 * their views inline, and the turn's token counts), and the composer with its stop button.
 */
export const ChatPanel = component<ChatState, Record<string, never>, ChatDrivers>()(
  function ChatPanel({ state }) {
    const busy = isBusy(state)
    return (
      <div className="chat" data-testid="chat">
        <div className="chat-head">
          <h2>Chat</h2>
          <span className="chat-model" data-testid="chat-model">
            {state.model}
          </span>
        </div>
        <div className="chat-transcript" data-testid="chat-transcript">
          {state.turns.length === 0 ? <p className="chat-empty">Ask the model something; it can call every tool on the left that is not app-only.</p> : null}
          <Collection of={TurnView} from="turns" />
        </div>
        {state.notice ? (
          <div className="error-banner" data-testid="chat-notice">
            {state.notice}
          </div>
        ) : null}
        <div className="composer">
          <input className="chat-input" data-testid="chat-input" placeholder="Message the model" value={state.draft} />
          <button type="button" className="chat-send" data-testid="chat-send" disabled={!state.draft.trim()}>
            Send
          </button>
          {busy ? (
            <button type="button" className="chat-stop" data-testid="chat-stop">
              Stop
            </button>
          ) : null}
        </div>
      </div>
    )
  },
  {
    initialState: initialChatState,
    intent: ({ DOM, CHAT }) => ({
      EVENT: CHAT.select('event'),
      DRAFT: DOM.input('.chat-input').value(),
      SEND: xs.merge(
        DOM.click('.chat-send').mapTo(null),
        DOM.keydown('.chat-input')
          .filter((e) => e.key === 'Enter' && !e.shiftKey)
          .mapTo(null),
      ),
      STOP: DOM.click('.chat-stop').mapTo(null),
    }),
    model: {
      EVENT: (state, event) => applyChatEvent(state, event),
      DRAFT: (state, draft) => ({ ...state, draft, notice: undefined }),
      SEND: {
        STATE: (state) => (state.draft.trim() ? { ...state, draft: '' } : state),
        CHAT: (state) => (state.draft.trim() ? { send: state.draft } : undefined),
      },
      STOP: { CHAT: () => ({ stop: true }) },
    },
  },
)
