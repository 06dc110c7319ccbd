import { describe, expect, it } from 'vitest'
import { isDuetError } from '../../src/protocol/errors.js'
import { serverBackend } from '../../src/mcp/view-state.js'

describe("the server's view-state backend", () => {
  it('fails a refused save with a DuetError (TOOL_FAILED) carrying the text and the tool result', async () => {
    const result = { isError: true, content: [{ type: 'text', text: 'TOO_LARGE: the state is 20000 bytes' }] }
    const backend = serverBackend(async () => result)
    const err = await Promise.resolve()
      .then(() => backend.save('view-1', { day: 'Tue' }))
      .then(
        () => undefined,
        (e: unknown) => e,
      )
    expect(isDuetError(err)).toBe(true)
    expect(err).toMatchObject({ code: 'TOOL_FAILED', message: 'TOO_LARGE: the state is 20000 bytes', data: { result } })
  })

  it('names the tool when the refusal has no text', async () => {
    const err = await Promise.resolve()
      .then(() => serverBackend(async () => ({ isError: true, content: [] })).load('view-1'))
      .catch((e: unknown) => e)
    expect(err).toMatchObject({ code: 'TOOL_FAILED', message: 'duet_view_state failed' })
  })
})
