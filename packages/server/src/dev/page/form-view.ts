import { h } from './dom.js'
import { argumentsFromJson, argumentsFromValues, draftArguments, fieldsFromSchema, valuesFromArguments, type ReadResult } from './schema-form.js'

type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement

/**
 * Renders the form for a tool's input schema, with a raw-JSON mode beside it; `read()` returns the
 * arguments or what is wrong. Strings are text areas, so newlines in a fragment or a component survive.
 */
export function toolForm(schema: unknown): { element: HTMLElement; read(): ReadResult } {
  const fields = fieldsFromSchema(schema)
  const controls = new Map<string, Control>()
  const form = h('form', { class: 'tool-form', 'data-testid': 'tool-form' })
  form.addEventListener('submit', (e) => e.preventDefault())
  for (const f of fields) {
    let control: Control
    if (f.kind === 'boolean' && f.required) {
      control = h('input', { type: 'checkbox', checked: f.initial === true })
    } else if (f.kind === 'boolean') {
      control = h('select', {}, ...['', 'true', 'false'].map((v) => h('option', { value: v, selected: String(f.initial ?? '') === v }, v || '—')))
    } else if (f.kind === 'enum') {
      control = h(
        'select',
        {},
        ...(f.required ? [] : [h('option', { value: '' }, '—')]),
        ...(f.options ?? []).map((v) => h('option', { value: v, selected: f.initial === v }, v)),
      )
    } else if (f.kind === 'json' || f.kind === 'text') {
      control = growing(h('textarea', { rows: '1', placeholder: f.kind === 'json' ? 'JSON' : '', class: f.monospace || f.kind === 'json' ? 'code' : '' }))
      control.value = typeof f.initial === 'string' ? f.initial : ''
    } else {
      // Text, not type=number: a browser empties a number input holding a typo, so it would be sent as "left out".
      control = h('input', { type: 'text', inputmode: f.kind === 'integer' ? 'numeric' : 'decimal' })
      control.value = typeof f.initial === 'string' ? f.initial : ''
    }
    control.setAttribute('data-testid', `field-${f.name}`)
    control.name = f.name
    controls.set(f.name, control)
    const title = `${f.name}${f.required ? ' *' : ''} (${f.kind})`
    form.append(h('label', { title: f.description }, h('span', {}, title), control, f.description ? h('small', {}, f.description) : null))
  }
  if (fields.length === 0) form.append(h('p', {}, 'This tool takes no arguments.'))

  // Raw JSON: for arguments the form cannot express, and for pasting a call from a log.
  const json = growing(h('textarea', { rows: '4', class: 'code', spellcheck: 'false', 'data-testid': 'args-json' }))
  const jsonError = h('div', { class: 'status error', 'data-testid': 'args-json-error' })
  const jsonBox = h('div', { hidden: true }, json, jsonError)
  const toggle = h('button', { type: 'button', 'data-testid': 'args-mode' }, 'Edit as JSON')
  let raw = false

  const formValues = () => {
    const values: Record<string, string | boolean> = {}
    for (const [name, c] of controls) values[name] = c instanceof HTMLInputElement && c.type === 'checkbox' ? c.checked : c.value
    return values
  }
  const checkJson = () => {
    const read = argumentsFromJson(json.value)
    jsonError.textContent = read.ok ? '' : read.errors.join('; ')
    return read
  }
  json.addEventListener('input', checkJson)
  toggle.addEventListener('click', () => {
    if (!raw) {
      json.value = JSON.stringify(draftArguments(fields, formValues()), null, 2)
      jsonError.textContent = ''
    } else {
      // Back to the form only when the form can show every value; otherwise stay and say why.
      const read = checkJson()
      if (!read.ok) return
      const shown = valuesFromArguments(fields, read.args)
      if (!shown.ok) {
        jsonError.textContent = `cannot show these arguments in the form: ${shown.error}`
        return
      }
      for (const [name, c] of controls) {
        const v = shown.values[name]
        if (c instanceof HTMLInputElement && c.type === 'checkbox') c.checked = v === true
        else c.value = String(v)
      }
    }
    raw = !raw
    form.hidden = raw
    jsonBox.hidden = !raw
    toggle.textContent = raw ? 'Edit as form' : 'Edit as JSON'
    if (raw) fit(json)
    else for (const c of controls.values()) if (c instanceof HTMLTextAreaElement) fit(c)
  })

  const element = h('div', { class: 'tool-args' }, h('div', { class: 'args-bar' }, toggle), form, jsonBox)
  return {
    element,
    read() {
      return raw ? checkJson() : argumentsFromValues(fields, formValues())
    },
  }
}

// A text area as tall as its text, so a pasted component is read whole rather than through a slot.
function growing(area: HTMLTextAreaElement): HTMLTextAreaElement {
  area.addEventListener('input', () => fit(area))
  // Its height is only known once it is in the page.
  requestAnimationFrame(() => fit(area))
  return area
}

function fit(area: HTMLTextAreaElement): void {
  area.style.height = 'auto'
  area.style.height = `${area.scrollHeight + 2}px`
}
