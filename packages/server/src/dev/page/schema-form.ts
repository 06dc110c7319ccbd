/** One form control derived from a property of a tool's JSON Schema input. */
export interface Field {
  name: string
  kind: 'text' | 'number' | 'integer' | 'boolean' | 'enum' | 'json'
  required: boolean
  description?: string
  options?: string[]
  /** The schema's default, as the control's initial text (JSON for `json` fields). */
  initial?: string | boolean
  /** A string that holds code or markup (by its name or a schema hint): shown in a monospace text area. */
  monospace?: boolean
}

type Schema = {
  type?: unknown
  properties?: Record<string, Schema>
  required?: unknown
  enum?: unknown
  description?: unknown
  default?: unknown
  anyOf?: Schema[]
  format?: unknown
  contentMediaType?: unknown
}

// Names and hints of strings that carry code or markup, where a proportional font and lost newlines hurt.
const CODE_WORDS = new Set(['html', 'source', 'src', 'code', 'css', 'js', 'jsx', 'tsx', 'script', 'markup', 'template', 'svg', 'fragment', 'snippet', 'sql'])
const CODE_HINT = /html|javascript|typescript|css|code|source|xml|svg|sql|markdown/i

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
    if (kind === 'text' && isCode(name, prop ?? {})) field.monospace = true
    if (prop?.default !== undefined)
      field.initial = kind === 'boolean' ? Boolean(prop.default) : kind === 'json' ? JSON.stringify(prop.default) : String(prop.default)
    return field
  })
}

function isCode(name: string, prop: Schema): boolean {
  const hints = [prop.format, prop.contentMediaType].filter((v): v is string => typeof v === 'string')
  // Words of snake_case, kebab-case and camelCase names: `html`, `page_html`, `componentSource`.
  const words = name.split(/[_\-\s]+|(?<=[a-z0-9])(?=[A-Z])/).map((w) => w.toLowerCase())
  return words.some((w) => CODE_WORDS.has(w)) || hints.some((h) => CODE_HINT.test(h))
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

/**
 * The form's values as arguments, keeping what does not parse yet (as its text) instead of reporting it:
 * what the raw-JSON editor starts from, so switching from the form loses nothing typed so far.
 */
export function draftArguments(fields: Field[], values: Record<string, string | boolean | undefined>): Record<string, unknown> {
  const args: Record<string, unknown> = {}
  for (const f of fields) {
    const one = argumentsFromValues([{ ...f, required: false }], { [f.name]: values[f.name] })
    if (one.ok) Object.assign(args, one.args)
    else if (typeof values[f.name] === 'string') args[f.name] = values[f.name]
  }
  return args
}

/** The control values that show `args` in the form, or why they cannot be shown there without loss. */
export function valuesFromArguments(fields: Field[], args: unknown): { ok: true; values: Record<string, string | boolean> } | { ok: false; error: string } {
  if (args === null || typeof args !== 'object' || Array.isArray(args))
    return { ok: false, error: 'the arguments must be a JSON object, e.g. {"city": "Lisbon"}' }
  const known = new Set(fields.map((f) => f.name))
  const extra = Object.keys(args).filter((k) => !known.has(k))
  if (extra.length) return { ok: false, error: `${extra.join(', ')} ${extra.length > 1 ? 'are' : 'is'} not in the tool's schema; edit it here or remove it` }
  const values: Record<string, string | boolean> = {}
  const given = args as Record<string, unknown>
  for (const f of fields) {
    const v = given[f.name]
    if (v === undefined) values[f.name] = f.kind === 'boolean' && f.required ? false : ''
    else if (f.kind === 'json') values[f.name] = JSON.stringify(v, null, 2)
    else if (f.kind === 'boolean' && typeof v === 'boolean') values[f.name] = f.required ? v : String(v)
    else if (typeof v === 'string' || typeof v === 'number') values[f.name] = String(v)
    else
      return {
        ok: false,
        error: `${f.name} must be ${f.kind === 'boolean' ? 'true or false' : `a ${f.kind === 'text' ? 'string' : f.kind}`}, got ${JSON.stringify(v)}`,
      }
  }
  return { ok: true, values }
}

/** Parses the raw-JSON editor's text into arguments, or says in one line what is wrong with it. */
export function argumentsFromJson(text: string): ReadResult {
  let parsed: unknown
  try {
    parsed = JSON.parse(text.trim() === '' ? '{}' : text)
  } catch (err) {
    return { ok: false, errors: [`arguments are not valid JSON: ${(err as Error).message}`] }
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    return { ok: false, errors: ['arguments must be a JSON object, e.g. {"city": "Lisbon"}'] }
  return { ok: true, args: parsed as Record<string, unknown> }
}
