import type { Resource, ResourceTemplateType } from '@modelcontextprotocol/client'
import { component, type Drivers } from 'duetkit'
import { ContentItem, ErrorBanner } from './content-items.js'
import { errorText, type ResourceContent } from './content-view.js'
import { expandTemplate, templateVariables } from './uri-template.js'

/** A request to the server the view came from, answered with the result or `{ error, code }`. */
export type RpcRequest<Ok extends string, Failed extends string> = {
  rpc: { server: string; method: string; params: Record<string, unknown> }
  ok: Ok
  error: Failed
}
export type ResourceViewDrivers = Drivers & { RPC: { source: undefined; sink: RpcRequest<'READ_DONE', 'READ_FAILED'> } }

export interface ResourceViewState {
  server: string
  title: string
  description: string
  /** The resource's URI, or the template's. */
  uri: string
  /** A template's variables, in order, and what is typed for each; absent for a plain resource. */
  template?: { names: string[]; values: Record<string, string>; error?: string }
  /** What the output shows: nothing yet, a read under way, its contents, or why it failed. */
  output: { kind: 'none' } | { kind: 'reading'; uri: string } | { kind: 'read'; uri: string; contents: ResourceContent[] } | { kind: 'error'; text: string }
}

type Actions = { READ_DONE: { contents?: ResourceContent[] }; READ_FAILED: { error: string; code?: unknown } }

/** A resource, read when shown (the page dispatches READ). */
export function resourceViewState(server: string, r: Resource): ResourceViewState {
  return { server, title: r.title ?? r.name, description: r.description ?? '', uri: r.uri, output: { kind: 'none' } }
}

/** A template, with a field per variable; one that does not parse says so where the output goes. */
export function templateViewState(server: string, t: ResourceTemplateType): ResourceViewState {
  const base = { server, title: t.title ?? t.name, description: t.description ?? '', uri: t.uriTemplate, output: { kind: 'none' as const } }
  try {
    return { ...base, template: { names: templateVariables(t.uriTemplate), values: {} } }
  } catch (err) {
    return { ...base, template: { names: [], values: {}, error: errorText('parsing the template', err) } }
  }
}

/** The URI a read asks for: the resource's, or the template expanded with what is typed. */
export function uriToRead(state: ResourceViewState): string {
  const t = state.template
  return t?.names.length ? expandTemplate(state.uri, t.values) : state.uri
}

// What keeps a read from being sent: a template that did not parse, or variables left empty.
function refusal(state: ResourceViewState): string | undefined {
  const t = state.template
  if (!t) return undefined
  if (t.error) return t.error
  const empty = t.names.filter((n) => !t.values[n])
  return empty.length ? `fill in ${empty.join(', ')} first` : undefined
}

/**
 * A resource or a resource template in the middle column: its title, description and URI; a template
 * gets a field per variable, the expanded URI as typed, and Read. What was read shows below, as text.
 */
export const ResourceView = component<ResourceViewState, Record<string, never>, ResourceViewDrivers, Actions>()(
  function ResourceView({ state }) {
    const t = state.template
    const out = state.output
    return (
      <div>
        <h2>{state.title}</h2>
        <p>{state.description}</p>
        <code>{state.uri}</code>
        {t ? (
          <form className="tool-form template-form" data-testid="template-form">
            {t.names.map((name) => (
              <label key={name}>
                <span>{name}</span>
                <input className="template-var" name={name} data-name={name} data-testid={`template-var-${name}`} value={t.values[name] ?? ''} />
              </label>
            ))}
            <button type="submit" data-testid="template-read">
              Read
            </button>
          </form>
        ) : null}
        {t ? (
          <p>
            URI: <code data-testid="template-uri">{uriToRead(state)}</code>
          </p>
        ) : null}
        <div data-testid="resource-output">
          {out.kind === 'reading' ? <small>{`reading ${out.uri}…`}</small> : null}
          {out.kind === 'error' ? ErrorBanner('resource-error', out.text) : null}
          {out.kind === 'read' && out.contents.length === 0 ? <small>{`${out.uri} returned no contents`}</small> : null}
          {out.kind === 'read' ? out.contents.map(ContentItem) : null}
        </div>
      </div>
    )
  },
  {
    intent: ({ DOM }) => ({
      VAR: DOM.input('.template-var').control(),
      READ: DOM.submit('.template-form', { preventDefault: true }).mapTo(null),
    }),
    model: {
      VAR: (state, c) => (state.template ? { ...state, template: { ...state.template, values: { ...state.template.values, [c.data.name]: c.value } } } : state),
      READ: {
        STATE: (state) => {
          const why = refusal(state)
          return { ...state, output: why ? { kind: 'error', text: why } : { kind: 'reading', uri: uriToRead(state) } }
        },
        RPC: (state) =>
          refusal(state)
            ? undefined
            : { rpc: { server: state.server, method: 'resources/read', params: { uri: uriToRead(state) } }, ok: 'READ_DONE', error: 'READ_FAILED' },
      },
      READ_DONE: (state, result) =>
        state.output.kind === 'reading' ? { ...state, output: { kind: 'read', uri: state.output.uri, contents: result.contents ?? [] } } : state,
      READ_FAILED: (state, err) =>
        state.output.kind === 'reading' ? { ...state, output: { kind: 'error', text: errorText(`resources/read ${state.output.uri}`, err) } } : state,
    },
  },
)
