import type { GetPromptResult, Prompt } from '@modelcontextprotocol/client'
import { component, type Drivers } from 'duetkit'
import { ErrorBanner, PromptMessageView } from './content-items.js'
import { errorText } from './content-view.js'
import type { RpcRequest } from './ResourceView.js'

export type PromptViewDrivers = Drivers & { RPC: { source: undefined; sink: RpcRequest<'GOT', 'GET_FAILED'> } }

export interface PromptViewState {
  server: string
  prompt: Prompt
  /** What is typed for each argument. */
  values: Record<string, string>
  output: { kind: 'none' } | { kind: 'getting' } | { kind: 'got'; result: GetPromptResult } | { kind: 'error'; text: string }
}

type Actions = { GOT: GetPromptResult; GET_FAILED: { error: string; code?: unknown } }

export const promptViewState = (server: string, prompt: Prompt): PromptViewState => ({ server, prompt, values: {}, output: { kind: 'none' } })

const missing = (state: PromptViewState) => (state.prompt.arguments ?? []).filter((a) => a.required && !state.values[a.name]).map((a) => a.name)

// Empty optional fields are left out rather than sent as "", which a server would take as a value.
const argumentsOf = (state: PromptViewState) => Object.fromEntries(Object.entries(state.values).filter(([, v]) => v !== ''))

/** A prompt in the middle column: a text area per argument (they are strings, often several lines), Get prompt, its messages. */
export const PromptView = component<PromptViewState, Record<string, never>, PromptViewDrivers, Actions>()(
  function PromptView({ state }) {
    const p = state.prompt
    const out = state.output
    return (
      <div>
        <h2>{p.title ?? p.name}</h2>
        <p>{p.description ?? ''}</p>
        <form className="tool-form prompt-form" data-testid="prompt-form">
          {(p.arguments ?? []).map((a) => (
            <label key={a.name} title={a.description ?? ''}>
              <span>{`${a.name}${a.required ? ' *' : ''}`}</span>
              <textarea
                className="prompt-arg"
                name={a.name}
                data-name={a.name}
                rows={2}
                data-testid={`prompt-arg-${a.name}`}
                value={state.values[a.name] ?? ''}
              />
              {a.description ? <small>{a.description}</small> : null}
            </label>
          ))}
          {(p.arguments ?? []).length === 0 ? <p>This prompt takes no arguments.</p> : null}
          <button type="submit" data-testid="prompt-get">
            Get prompt
          </button>
        </form>
        <div data-testid="prompt-output">
          {out.kind === 'getting' ? <small>{`getting ${p.name}…`}</small> : null}
          {out.kind === 'error' ? ErrorBanner('prompt-error', out.text) : null}
          {/* The result's description is shown only when it says more than the listing did. */}
          {out.kind === 'got' && out.result.description && out.result.description !== p.description ? <p>{out.result.description}</p> : null}
          {out.kind === 'got' ? (out.result.messages ?? []).map(PromptMessageView) : null}
        </div>
      </div>
    )
  },
  {
    intent: ({ DOM }) => ({
      ARG: DOM.input('.prompt-arg').control(),
      GET: DOM.submit('.prompt-form', { preventDefault: true }).mapTo(null),
    }),
    model: {
      ARG: (state, c) => ({ ...state, values: { ...state.values, [c.data.name]: c.value } }),
      GET: {
        STATE: (state) => {
          const need = missing(state)
          return { ...state, output: need.length ? { kind: 'error', text: `required: ${need.join(', ')}` } : { kind: 'getting' } }
        },
        RPC: (state) =>
          missing(state).length
            ? undefined
            : {
                rpc: { server: state.server, method: 'prompts/get', params: { name: state.prompt.name, arguments: argumentsOf(state) } },
                ok: 'GOT',
                error: 'GET_FAILED',
              },
      },
      GOT: (state, result) => (state.output.kind === 'getting' ? { ...state, output: { kind: 'got', result } } : state),
      GET_FAILED: (state, err) =>
        state.output.kind === 'getting' ? { ...state, output: { kind: 'error', text: errorText(`prompts/get ${state.prompt.name}`, err) } } : state,
    },
  },
)
