import { component, xs, type Drivers } from 'duetkit'
import type { JSX } from 'duetkit/jsx-runtime'
import { argumentsFromJson, argumentsFromValues, draftArguments, fieldsFromSchema, valuesFromArguments, type Field } from './schema-form.js'

/** What the form asks of the page: call the tool with these arguments, or cancel the call under way. */
export type ToolFormRequest = { call: Record<string, unknown> } | { cancel: true }
export type ToolFormDrivers = Drivers & { PAGE: { source: undefined; sink: ToolFormRequest } }

export interface ToolFormState {
  name: string
  description: string
  fields: Field[]
  /** Each control's value: its text, or a checkbox's checked state. */
  values: Record<string, string | boolean>
  /** Editing the arguments as raw JSON rather than in the form. */
  raw: boolean
  json: string
  jsonError: string
  /** Why the last Call was refused, one line per field. */
  errors: string[]
}

/** The form of a tool, from its input schema: each field at its schema default. */
export function toolFormState(tool: { name: string; description?: string; inputSchema?: unknown }): ToolFormState {
  const fields = fieldsFromSchema(tool.inputSchema)
  const values: Record<string, string | boolean> = {}
  for (const f of fields)
    values[f.name] = f.kind === 'boolean' && f.required ? f.initial === true : typeof f.initial === 'string' ? f.initial : String(f.initial ?? '')
  return { name: tool.name, description: tool.description ?? '', fields, values, raw: false, json: '', jsonError: '', errors: [] }
}

// A text area as tall as its text, so a pasted component is read whole rather than through a slot.
const fit = (_old: JSX.Element, v?: JSX.Element) => {
  const area = (v ?? _old).elm as HTMLTextAreaElement
  area.style.height = 'auto'
  area.style.height = `${area.scrollHeight + 2}px`
}
const growing = { insert: (v: JSX.Element) => requestAnimationFrame(() => fit(v)), postpatch: fit }

// The label names its control by id too: the control is built apart from it.
const controlId = (f: Field) => `tool-field-${f.name}`

function control(f: Field, value: string | boolean): JSX.Element {
  const common = { className: 'field', id: controlId(f), 'data-name': f.name, 'data-testid': `field-${f.name}`, name: f.name }
  if (f.kind === 'boolean' && f.required) return <input type="checkbox" {...common} checked={value === true} />
  if (f.kind === 'boolean' || f.kind === 'enum') {
    const options = f.kind === 'boolean' ? ['true', 'false'] : (f.options ?? [])
    return (
      <select {...common}>
        {f.kind === 'boolean' || !f.required ? <option value="">—</option> : null}
        {options.map((o) => (
          <option value={o} selected={value === o}>
            {o}
          </option>
        ))}
      </select>
    )
  }
  if (f.kind === 'json' || f.kind === 'text')
    return (
      <textarea
        {...common}
        rows={1}
        placeholder={f.kind === 'json' ? 'JSON' : ''}
        className={`field${f.monospace || f.kind === 'json' ? ' code' : ''}`}
        value={String(value)}
        hook={growing}
      />
    )
  // Text, not type=number: a browser empties a number input holding a typo, so it would be sent as "left out".
  return <input type="text" {...common} inputMode={f.kind === 'integer' ? 'numeric' : 'decimal'} value={String(value)} />
}

/**
 * A tool's form: a control per field of its input schema, with a raw-JSON mode beside it (for
 * arguments the form cannot express, and for pasting a call from a log), Call and Cancel.
 */
export const ToolForm = component<ToolFormState, Record<string, never>, ToolFormDrivers>()(
  function ToolForm({ state }) {
    return (
      <div className="tool-area-form">
        <h2>{state.name}</h2>
        <p>{state.description}</p>
        <div className="tool-args">
          <div className="args-bar">
            <button type="button" className="args-mode" data-testid="args-mode">
              {state.raw ? 'Edit as form' : 'Edit as JSON'}
            </button>
          </div>
          <form className="tool-form" data-testid="tool-form" hidden={state.raw}>
            {state.fields.map((f) => (
              <label key={f.name} for={controlId(f)} title={f.description ?? ''}>
                <span>{`${f.name}${f.required ? ' *' : ''} (${f.kind})`}</span>
                {control(f, state.values[f.name] ?? '')}
                {f.description ? <small>{f.description}</small> : null}
              </label>
            ))}
            {state.fields.length === 0 ? <p>This tool takes no arguments.</p> : null}
          </form>
          <div hidden={!state.raw}>
            <label>
              <span>arguments (JSON)</span>
              <textarea className="code args-json" rows={4} spellcheck={false} data-testid="args-json" value={state.json} hook={growing} />
            </label>
            <div className="status error" data-testid="args-json-error">
              {state.jsonError}
            </div>
          </div>
        </div>
        <div data-testid="form-errors">
          {state.errors.map((e) => (
            <div className="status error">{e}</div>
          ))}
        </div>
        <button type="button" className="call" data-testid="call-button">
          Call tool
        </button>{' '}
        <button type="button" className="cancel" data-testid="cancel-button">
          Cancel
        </button>
      </div>
    )
  },
  {
    intent: ({ DOM }) => ({
      // One stream for every control: each names itself with data-name; checkboxes are read as checked.
      VALUE: xs.merge(DOM.input('.field').control(), DOM.change('.field').control()),
      JSON: DOM.input('.args-json').value(),
      MODE: DOM.click('.args-mode').mapTo(null),
      CALL: DOM.click('.call').mapTo(null),
      CANCEL: DOM.click('.cancel').mapTo(null),
      // Enter in a lone text field submits a form; the form is sent with Call only.
      SUBMIT: DOM.submit('.tool-form', { preventDefault: true }).mapTo(null),
    }),
    model: {
      VALUE: (state, c) => {
        const f = state.fields.find((x) => x.name === c.data.name)
        if (!f) return state
        return { ...state, values: { ...state.values, [f.name]: f.kind === 'boolean' && f.required ? c.checked : c.value } }
      },
      JSON: (state, json) => {
        const read = argumentsFromJson(json)
        return { ...state, json, jsonError: read.ok ? '' : read.errors.join('; ') }
      },
      MODE: (state) => {
        if (!state.raw) return { ...state, raw: true, json: JSON.stringify(draftArguments(state.fields, state.values), null, 2), jsonError: '' }
        // Back to the form only when the form can show every value; otherwise stay and say why.
        const read = argumentsFromJson(state.json)
        if (!read.ok) return { ...state, jsonError: read.errors.join('; ') }
        const shown = valuesFromArguments(state.fields, read.args)
        if (!shown.ok) return { ...state, jsonError: `cannot show these arguments in the form: ${shown.error}` }
        return { ...state, raw: false, values: shown.values, jsonError: '' }
      },
      CALL: {
        STATE: (state) => {
          const read = readArguments(state)
          return { ...state, errors: read.ok ? [] : read.errors, ...(state.raw ? { jsonError: read.ok ? '' : read.errors.join('; ') } : {}) }
        },
        PAGE: (state) => {
          const read = readArguments(state)
          return read.ok ? { call: read.args } : undefined
        },
      },
      CANCEL: { PAGE: () => ({ cancel: true }) },
      SUBMIT: (state) => state,
    },
  },
)

/** The arguments as the form or the JSON editor hold them, or what is wrong with them. */
export function readArguments(state: ToolFormState): ReturnType<typeof argumentsFromJson> {
  return state.raw ? argumentsFromJson(state.json) : argumentsFromValues(state.fields, state.values)
}
