import type { Prompt } from '@modelcontextprotocol/client'
import { component, type Drivers } from 'duetkit'
import type { JSX } from 'duetkit/jsx-runtime'
import type { PromptSection } from './browse.js'
import { problemView, sectionTitle } from './ResourceList.js'

/** What the list asks of the page: list every server's prompts, or open one in the middle column. */
export type PromptListRequest = { list: true; ok: 'LISTED'; error: 'LIST_FAILED' } | { open: { server: string; prompt: Prompt } }
export type PromptListDrivers = Drivers & { PAGE: { source: undefined; sink: PromptListRequest } }

export interface PromptListState {
  sections: PromptSection[]
  error: string
}

type Actions = { LISTED: PromptSection[]; LIST_FAILED: { error: string } }

function section(s: PromptSection): JSX.Element {
  if (s.status)
    return (
      <div key={s.id} className="server">
        {sectionTitle(s.title)}
        <div className="status error">{s.status}</div>
      </div>
    )
  return (
    <div key={s.id} className="server" data-testid={`prompts-${s.id}`}>
      {sectionTitle(s.title)}
      {problemView(s.problem, 'prompt-list-error')}
      {!s.problem && s.prompts.length === 0 ? <small>no prompts</small> : null}
      {s.prompts.map((p) => (
        <button type="button" className="tool prompt-item" data-testid="prompt-item" data-name={p.name} data={{ server: s.id }} title={p.description ?? ''}>
          {p.title ?? p.name}
        </button>
      ))}
    </div>
  )
}

/** The prompts tab: every connected server's prompts; picking one opens its form in the middle column. */
export const PromptList = component<PromptListState, Record<string, never>, PromptListDrivers, Actions>()(
  function PromptList({ state }) {
    return (
      <div>
        <button type="button" className="prompts-refresh" data-testid="prompts-refresh">
          Refresh
        </button>
        {state.error ? <div className="error-banner">{state.error}</div> : null}
        <div data-testid="prompt-list">{state.sections.map(section)}</div>
      </div>
    )
  },
  {
    initialState: { sections: [], error: '' },
    intent: ({ DOM }) => ({
      REFRESH: DOM.click('.prompts-refresh').mapTo(null),
      OPEN: DOM.click('.prompt-item').dataset(),
    }),
    model: {
      REFRESH: { PAGE: () => ({ list: true, ok: 'LISTED', error: 'LIST_FAILED' }) },
      LISTED: (state, sections) => ({ ...state, sections, error: '' }),
      LIST_FAILED: (state, { error }) => ({ ...state, error: `listing prompts failed: ${error}` }),
      OPEN: {
        PAGE: (state, d) => {
          const prompt = state.sections.find((s) => s.id === d.server)?.prompts.find((p) => p.name === d.name)
          return prompt ? { open: { server: d.server, prompt } } : undefined
        },
      },
    },
  },
)
