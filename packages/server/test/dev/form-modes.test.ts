import { describe, expect, it } from 'vitest'
import { argumentsFromJson, argumentsFromValues, draftArguments, fieldsFromSchema, valuesFromArguments } from '../../src/dev/page/schema-form.js'

const fields = fieldsFromSchema({
  type: 'object',
  properties: {
    title: { type: 'string' },
    page_html: { type: 'string' },
    componentSource: { type: 'string' },
    body: { type: 'string', contentMediaType: 'text/html' },
    description: { type: 'string' },
    days: { type: 'integer' },
    loud: { type: 'boolean' },
    confirm: { type: 'boolean' },
    filters: { type: 'object' },
  },
  required: ['title', 'confirm'],
})

describe('string fields', () => {
  it('marks code and markup as monospace by name words or schema hint, and nothing else', () => {
    const mono = fields.filter((f) => f.monospace).map((f) => f.name)
    expect(mono).toEqual(['page_html', 'componentSource', 'body'])
  })

  it('keeps newlines and leading spaces of a string as typed', () => {
    const read = argumentsFromValues(fields, { title: 'a\n  // b\n', confirm: true })
    expect(read).toEqual({ ok: true, args: { title: 'a\n  // b\n', confirm: true } })
  })
})

describe('raw JSON mode', () => {
  it('starts from what the form holds, keeping a value that does not parse yet as its text', () => {
    expect(draftArguments(fields, { title: '', days: 'three', loud: 'true', confirm: false, filters: '{"a":1}' })).toEqual({
      days: 'three',
      loud: true,
      confirm: false,
      filters: { a: 1 },
    })
  })

  it('reads JSON text into arguments, saying in one line what is wrong', () => {
    expect(argumentsFromJson('{"title": "x"}')).toEqual({ ok: true, args: { title: 'x' } })
    expect(argumentsFromJson('')).toEqual({ ok: true, args: {} })
    const broken = argumentsFromJson('{"title": ')
    expect(broken.ok).toBe(false)
    expect(!broken.ok && broken.errors[0]).toMatch(/^arguments are not valid JSON: /)
    expect(argumentsFromJson('[1]')).toEqual({ ok: false, errors: ['arguments must be a JSON object, e.g. {"city": "Lisbon"}'] })
  })

  it('fills the form back from arguments, and refuses what the form could not show', () => {
    const shown = valuesFromArguments(fields, { title: 'a\nb', days: 3, loud: false, confirm: true, filters: { a: 1 } })
    expect(shown).toEqual({
      ok: true,
      values: {
        title: 'a\nb',
        page_html: '',
        componentSource: '',
        body: '',
        description: '',
        days: '3',
        loud: 'false',
        confirm: true,
        filters: '{\n  "a": 1\n}',
      },
    })
    // The round trip gives the same arguments.
    if (shown.ok)
      expect(argumentsFromValues(fields, shown.values)).toEqual({ ok: true, args: { title: 'a\nb', days: 3, loud: false, confirm: true, filters: { a: 1 } } })
    expect(valuesFromArguments(fields, { title: 'x', extra: 1 })).toEqual({ ok: false, error: "extra is not in the tool's schema; edit it here or remove it" })
    expect(valuesFromArguments(fields, { title: { nested: true } })).toEqual({ ok: false, error: 'title must be a string, got {"nested":true}' })
    expect(valuesFromArguments(fields, 'text')).toMatchObject({ ok: false })
  })
})
