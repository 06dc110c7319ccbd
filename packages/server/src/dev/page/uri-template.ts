/**
 * RFC 6570 URI templates, as far as a resource template's form needs: the variables it names and
 * an expansion of the values a person typed. Levels 1–4 operators; a prefix (`{var:3}`) is applied,
 * an explode (`{var*}`) treats the value as one string, since a form field holds one string.
 */

interface Expression {
  op: string
  vars: { name: string; prefix?: number }[]
}

// What each operator puts first, between values, and whether it names the values (`;x=1`, `?x=1`).
const OPERATORS: Record<string, { first: string; sep: string; named: boolean; ifEmpty: string; reserved: boolean }> = {
  '': { first: '', sep: ',', named: false, ifEmpty: '', reserved: false },
  '+': { first: '', sep: ',', named: false, ifEmpty: '', reserved: true },
  '#': { first: '#', sep: ',', named: false, ifEmpty: '', reserved: true },
  '.': { first: '.', sep: '.', named: false, ifEmpty: '', reserved: false },
  '/': { first: '/', sep: '/', named: false, ifEmpty: '', reserved: false },
  ';': { first: ';', sep: ';', named: true, ifEmpty: '', reserved: false },
  '?': { first: '?', sep: '&', named: true, ifEmpty: '=', reserved: false },
  '&': { first: '&', sep: '&', named: true, ifEmpty: '=', reserved: false },
}

function parse(template: string): (string | Expression)[] {
  const parts: (string | Expression)[] = []
  let rest = template
  while (rest) {
    const open = rest.indexOf('{')
    if (open < 0) {
      parts.push(rest)
      break
    }
    const close = rest.indexOf('}', open)
    if (close < 0) throw new Error(`the template ${JSON.stringify(template)} has a '{' without its '}'`)
    if (open > 0) parts.push(rest.slice(0, open))
    const body = rest.slice(open + 1, close)
    const op = body.length > 1 && '+#./;?&'.includes(body[0]) ? body[0] : ''
    const vars = body
      .slice(op.length)
      .split(',')
      .map((spec) => {
        const [name, prefix] = spec.replace(/\*$/, '').split(':')
        if (!/^[A-Za-z0-9_.%]+$/.test(name)) throw new Error(`the template ${JSON.stringify(template)} has a bad variable ${JSON.stringify(spec)}`)
        return prefix === undefined ? { name } : { name, prefix: Number(prefix) }
      })
    parts.push({ op, vars })
    rest = rest.slice(close + 1)
  }
  return parts
}

/** The variable names of a template, in order of first use. */
export function templateVariables(template: string): string[] {
  const names: string[] = []
  for (const part of parse(template)) if (typeof part !== 'string') for (const v of part.vars) if (!names.includes(v.name)) names.push(v.name)
  return names
}

function encode(value: string, reserved: boolean): string {
  // Reserved expansion keeps `/`, `?`, `#`… as typed; the others percent-encode all but unreserved characters.
  return reserved
    ? encodeURI(value).replace(/%25([0-9A-Fa-f]{2})/g, '%$1')
    : encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
}

/** Expands a template; a variable left empty is left out, as RFC 6570 does with undefined values. */
export function expandTemplate(template: string, values: Record<string, string>): string {
  return parse(template)
    .map((part) => {
      if (typeof part === 'string') return part
      const o = OPERATORS[part.op]
      const items = part.vars
        .filter((v) => values[v.name] !== undefined && values[v.name] !== '')
        .map((v) => {
          const raw = v.prefix === undefined ? values[v.name] : Array.from(values[v.name]).slice(0, v.prefix).join('')
          const value = encode(raw, o.reserved)
          return o.named ? `${v.name}${value === '' ? o.ifEmpty : `=${value}`}` : value
        })
      return items.length ? o.first + items.join(o.sep) : ''
    })
    .join('')
}
