import { describe, expect, it } from 'vitest'
import { argumentsFromValues, fieldsFromSchema } from '../../src/dev/page/schema-form.js'
import { partialSnapshots } from '../../src/dev/page/stream-input.js'

const schema = {
  type: 'object',
  properties: {
    city: { type: 'string', description: 'Where' },
    days: { type: 'integer', default: 3 },
    scale: { type: 'number' },
    units: { type: 'string', enum: ['metric', 'imperial'] },
    alerts: { type: 'boolean' },
    confirm: { type: 'boolean' },
    filters: { type: 'object', properties: { rain: { type: 'boolean' } } },
    nick: { type: ['string', 'null'] },
  },
  required: ['city', 'confirm'],
}

describe('fieldsFromSchema', () => {
  it('maps each property to a control kind, with required, description, options and defaults', () => {
    const fields = fieldsFromSchema(schema)
    expect(fields.map((f) => [f.name, f.kind, f.required])).toEqual([
      ['city', 'text', true],
      ['days', 'integer', false],
      ['scale', 'number', false],
      ['units', 'enum', false],
      ['alerts', 'boolean', false],
      ['confirm', 'boolean', true],
      ['filters', 'json', false],
      ['nick', 'text', false],
    ])
    expect(fields[0].description).toBe('Where')
    expect(fields[1].initial).toBe('3')
    expect(fields[3].options).toEqual(['metric', 'imperial'])
  })

  it('gives no fields for a schema without properties, and survives no schema at all', () => {
    expect(fieldsFromSchema({ type: 'object' })).toEqual([])
    expect(fieldsFromSchema(undefined)).toEqual([])
  })
})

describe('argumentsFromValues', () => {
  const fields = fieldsFromSchema(schema)

  it('converts values to typed arguments and leaves empty optional fields out', () => {
    const r = argumentsFromValues(fields, {
      city: 'Oslo',
      days: '5',
      scale: '1.5',
      units: 'metric',
      alerts: '',
      confirm: true,
      filters: '{"rain":true}',
      nick: '',
    })
    expect(r).toEqual({ ok: true, args: { city: 'Oslo', days: 5, scale: 1.5, units: 'metric', confirm: true, filters: { rain: true } } })
  })

  it('reads optional booleans as true, false or absent', () => {
    const r = argumentsFromValues(fields, { city: 'x', confirm: false, alerts: 'false' })
    expect(r).toEqual({ ok: true, args: { city: 'x', confirm: false, alerts: false } })
  })

  it('reports every wrong field by name instead of sending anything', () => {
    const r = argumentsFromValues(fields, { city: ' ', days: '2.5', scale: 'abc', units: 'kelvin', filters: '{bad', confirm: true })
    expect(r.ok).toBe(false)
    if (r.ok) return
    expect(r.errors).toEqual([
      'city is required',
      'days must be a whole number, got 2.5',
      'scale must be a number, got "abc"',
      'units must be one of metric, imperial',
      'filters is not valid JSON',
    ])
  })
})

describe('partialSnapshots', () => {
  it('grows toward the final arguments, each step valid, ending exactly at them', () => {
    const args = { city: 'San Francisco', days: 3 }
    const steps = partialSnapshots(args)
    expect(steps.at(-1)).toEqual(args)
    expect(steps.length).toBeGreaterThan(2)
    expect(steps[0]).toEqual({ city: 'San F' })
    for (const s of steps) expect(JSON.parse(JSON.stringify(s))).toEqual(s)
    expect(steps.filter((s) => 'days' in s)).toHaveLength(1)
  })

  it('gives one step for arguments without long strings', () => {
    expect(partialSnapshots({ n: 1 })).toEqual([{ n: 1 }])
    expect(partialSnapshots({})).toEqual([])
  })
})
