import { h } from './dom.js'
import { argumentsFromValues, fieldsFromSchema, type ReadResult } from './schema-form.js'

/** Renders the form for a tool's input schema; `read()` returns the arguments or what is wrong. */
export function toolForm(schema: unknown): { element: HTMLElement; read(): ReadResult } {
  const fields = fieldsFromSchema(schema)
  const controls = new Map<string, HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>()
  const element = h('form', { class: 'tool-form', 'data-testid': 'tool-form' })
  element.addEventListener('submit', (e) => e.preventDefault())
  for (const f of fields) {
    let control: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement
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
    } else if (f.kind === 'json') {
      control = h('textarea', { rows: '3', placeholder: 'JSON' })
      control.value = typeof f.initial === 'string' ? f.initial : ''
    } else {
      control = h('input', { type: f.kind === 'text' ? 'text' : 'number', step: f.kind === 'number' ? 'any' : undefined })
      control.value = typeof f.initial === 'string' ? f.initial : ''
    }
    control.setAttribute('data-testid', `field-${f.name}`)
    control.name = f.name
    controls.set(f.name, control)
    const title = `${f.name}${f.required ? ' *' : ''} (${f.kind})`
    element.append(h('label', { title: f.description }, h('span', {}, title), control, f.description ? h('small', {}, f.description) : null))
  }
  if (fields.length === 0) element.append(h('p', {}, 'This tool takes no arguments.'))
  return {
    element,
    read() {
      const values: Record<string, string | boolean> = {}
      for (const [name, c] of controls) values[name] = c instanceof HTMLInputElement && c.type === 'checkbox' ? c.checked : c.value
      return argumentsFromValues(fields, values)
    },
  }
}
