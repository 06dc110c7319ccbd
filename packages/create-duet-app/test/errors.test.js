import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { isDuetError } from 'duetkit/protocol'
import { describe, expect, it } from 'vitest'
import { parseArgs } from '../src/cli.js'
import { checkTarget } from '../src/create.js'

/** What a call threw, or a failure when it threw nothing. */
function thrown(fn) {
  try {
    fn()
  } catch (err) {
    return err
  }
  throw new Error('expected a throw')
}

describe("create-duet-app's errors", () => {
  it('are DuetErrors to isDuetError, with a code, a message and data', () => {
    const usage = thrown(() => parseArgs(['--nope']))
    expect(isDuetError(usage)).toBe(true)
    expect(usage).toMatchObject({ name: 'DuetError', code: 'USAGE', message: expect.stringContaining('--nope'), data: { usage: expect.any(String) } })
    const dir = mkdtempSync(join(tmpdir(), 'create-errors-'))
    try {
      writeFileSync(join(dir, 'x'), '')
      const taken = thrown(() => checkTarget(dir))
      expect(isDuetError(taken)).toBe(true)
      expect(taken).toMatchObject({ code: 'ALREADY_EXISTS', data: { dir } })
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
