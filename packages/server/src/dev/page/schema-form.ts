/** One form control derived from a property of a tool's JSON Schema input. */
export interface Field {
  name: string
  kind: 'text' | 'number' | 'integer' | 'boolean' | 'enum' | 'json'
  required: boolean
  description?: string
  options?: string[]
  /** The schema's default, as the control's initial text (JSON for `json` fields). */
  initial?: string | boolean
}

type Schema = {
  type?: unknown
  properties?: Record<string, Schema>
  required?: unknown
  enum?: unknown
  description?: unknown
  default?: unknown
  anyOf?: Schema[]
}

/**
 * Turns a tool's `inputSchema` into form fields: strings, numbers, integers, booleans and string
 * enums get their own control; anything else (objects, arrays, unions) is edited as JSON.
 */
export function fieldsFromSchema(schema: unknown): Field[] {
  const s = (schema ?? {}) as Schema
  const required = new Set(Array.isArray(s.required) ? s.required.map(String) : [])
  return Object.entries(s.properties ?? {}).map(([name, prop]) => {
    const kind = kindOf(prop ?? {})
    const field: Field = { name, kind, required: required.has(name) }
    if (typeof prop?.description === 'string') field.description = prop.description
    if (kind === 'enum') field.options = (prop.enum as unknown[]).map(String)
    if (prop?.default !== undefined)
      field.initial = kind === 'boolean' ? Boolean(prop.default) : kind === 'json' ? JSON.stringify(prop.default) : String(prop.default)
    return field
  })
}

function kindOf(prop: Schema): Field['kind'] {
  if (Array.isArray(prop.enum) && prop.enum.length > 0 && prop.enum.every((v) => typeof v === 'string')) return 'enum'
  const type = Array.isArray(prop.type) ? prop.type.filter((t) => t !== 'null') : [prop.type]
  if (type.length !== 1) return 'json'
  switch (type[0]) {
    case 'string':
      return 'text'
    case 'number':
      return 'number'
    case 'integer':
      return 'integer'
    case 'boolean':
      return 'boolean'
    default:
      return 'json'
  }
}

/** The result of reading a form: the tool arguments, or one message per field that is wrong. */
export type ReadResult = { ok: true; args: Record<string, unknown> } | { ok: false; errors: string[] }

/**
 * Converts the raw control values (strings, or booleans for checkboxes) into tool arguments.
 * Empty optional fields are left out; a required field left empty, a number that does not parse
 * or JSON that does not parse is reported by name instead of being sent.
 */
export function argumentsFromValues(fields: Field[], values: Record<string, string | boolean | undefined>): ReadResult {
  const args: Record<string, unknown> = {}
  const errors: string[] = []
  for (const f of fields) {
    const raw = values[f.name]
    if (f.kind === 'boolean') {
      // Required booleans are checkboxes (true/false); optional ones are a select whose '' means "leave out".
      if (raw === true || raw === false) args[f.name] = raw
      else if (raw === 'true' || raw === 'false') args[f.name] = raw === 'true'
      else if (f.required) args[f.name] = false
      continue
    }
    const text = typeof raw === 'string' ? raw.trim() : ''
    if (text === '') {
      if (f.required) errors.push(`${f.name} is required`)
      continue
    }
    if (f.kind === 'number' || f.kind === 'integer') {
      const n = Number(text)
      if (!Number.isFinite(n)) errors.push(`${f.name} must be a number, got "${text}"`)
      else if (f.kind === 'integer' && !Number.isInteger(n)) errors.push(`${f.name} must be a whole number, got ${text}`)
      else args[f.name] = n
    } else if (f.kind === 'json') {
      try {
        args[f.name] = JSON.parse(text)
      } catch {
        errors.push(`${f.name} is not valid JSON`)
      }
    } else if (f.kind === 'enum' && f.options && !f.options.includes(text)) {
      errors.push(`${f.name} must be one of ${f.options.join(', ')}`)
    } else {
      args[f.name] = typeof raw === 'string' ? raw : text
    }
  }
  return errors.length ? { ok: false, errors } : { ok: true, args }
}
