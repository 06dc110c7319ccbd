import { describe, expect, it } from 'vitest'
import { DuetError, guarded, toolError } from '../../src/server/index.js'

describe('toolError', () => {
  it("carries the error's data in structuredContent.error.data, as JSON", () => {
    const err = new DuetError('TOO_LARGE', 'The value is 3 bytes over.', { field: 'value', size: 10, limit: 7 })
    expect(toolError(err)).toEqual({
      isError: true,
      content: [{ type: 'text', text: 'TOO_LARGE: The value is 3 bytes over.' }],
      structuredContent: { error: { code: 'TOO_LARGE', message: 'The value is 3 bytes over.', data: { field: 'value', size: 10, limit: 7 } } },
    })
  })

  it('leaves data out when the error has none, or data that cannot be sent as JSON', () => {
    expect(toolError(new DuetError('DISPOSED', 'Closed.')).structuredContent).toEqual({ error: { code: 'DISPOSED', message: 'Closed.' } })
    const cyclic: Record<string, unknown> = {}
    cyclic.self = cyclic
    expect(toolError(new DuetError('INTERNAL', 'Odd.', cyclic)).structuredContent).toEqual({ error: { code: 'INTERNAL', message: 'Odd.' } })
    expect(toolError(new DuetError('INTERNAL', 'Big.', { n: 1n })).structuredContent).toEqual({ error: { code: 'INTERNAL', message: 'Big.' } })
  })

  it('guarded answers a thrown DuetError with its data too', async () => {
    const result = await guarded(() => {
      throw new DuetError('INVALID_NAME', 'Bad name.', { field: 'name', value: 'a b' })
    })
    expect(result.structuredContent).toEqual({ error: { code: 'INVALID_NAME', message: 'Bad name.', data: { field: 'name', value: 'a b' } } })
  })
})
