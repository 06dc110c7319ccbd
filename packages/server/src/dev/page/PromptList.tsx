import type { Prompt } from '@modelcontextprotocol/client'
import { component, type Drivers } from 'duetkit'
import type { JSX } from 'duetkit/jsx-runtime'
import type { PromptSection } from './browse.js'
import { type ListRequest, type ListState, listing, listView, problemView, sectionView } from './browse-list.js'

/** What the list asks of the page: list every server's prompts, or open one in the middle column. */
export type PromptListRequest = ListRequest | { open: { server: string; prompt: Prompt } }
export type PromptListDrivers = Drivers & { PAGE: { source: undefined; sink: PromptListRequest } }

export type PromptListState = ListState<PromptSection>

type Actions = { LISTED: PromptSection[]; LIST_FAILED: { error: string } }

function section(s: PromptSection): JSX.Element {
  return sectionView(s, `prompts-${s.id}`, () => [
    problemView(s.problem, 'prompt-list-error', s.prompts.length, 'no prompts'),
    ...s.prompts.map((p) => (
      <button type="button" className="tool prompt-item" data-testid="prompt-item" data-name={p.name} data={{ server: s.id }} title={p.description ?? ''}>
        {p.title ?? p.name}
      </button>
    )),
  ])
}

/** The prompts tab: every connected server's prompts; picking one opens its form in the middle column. */
export const PromptList = component<PromptListState, Record<string, never>, PromptListDrivers, Actions>()(
  function PromptList({ state }) {
    return listView('prompts', state, state.sections.map(section))
  },
  {
    initialState: { sections: [], error: '' },
    intent: ({ DOM }) => ({
      REFRESH: DOM.click('.prompts-refresh').mapTo(null),
      OPEN: DOM.click('.prompt-item').dataset(),
    }),
    model: {
      ...listing<PromptSection, PromptListState>('prompts'),
      OPEN: {
        PAGE: (state, d) => {
          const prompt = state.sections.find((s) => s.id === d.server)?.prompts.find((p) => p.name === d.name)
          return prompt ? { open: { server: d.server, prompt } } : undefined
        },
      },
    },
  },
)
