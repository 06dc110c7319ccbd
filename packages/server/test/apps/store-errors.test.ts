import { chmodSync, copyFileSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { DuetError } from 'duetkit/protocol'
import { openAppStore } from '../../src/apps/index.js'
import { tempDataDir } from './harness.js'

let tmp: ReturnType<typeof tempDataDir>
beforeEach(() => {
  tmp = tempDataDir()
})
afterEach(() => {
  tmp.remove()
})

async function openError(dataDir: string): Promise<DuetError> {
  try {
    await (await openAppStore({ dataDir })).close()
  } catch (err) {
    if (err instanceof DuetError) return err
    throw err
  }
  throw new Error('expected openAppStore to fail')
}

// Root ignores file modes, so the read-only case drops the effective uid to nobody for the open
// (vitest runs each test file in its own process, and the real uid stays root to take it back).
const NOBODY = 65534
async function asNobody<T>(fn: () => Promise<T>): Promise<T> {
  if (typeof process.geteuid !== 'function' || process.geteuid() !== 0) return fn()
  process.setegid!(NOBODY)
  process.seteuid!(NOBODY)
  try {
    return await fn()
  } finally {
    process.seteuid!(0)
    process.setegid!(0)
  }
}

describe('apps.db errors', () => {
  it('names the file, says it is damaged and what to do when apps.db is corrupt', async () => {
    writeFileSync(join(tmp.dir, 'apps.db'), Buffer.alloc(8192, 0x5a))
    const err = await openError(tmp.dir)
    expect(err.code).toBe('STORE_UNAVAILABLE')
    expect(err.message).toContain(join(tmp.dir, 'apps.db'))
    expect(err.message).toMatch(/not a database/)
    expect(err.message).toMatch(/damaged or is not a Duet database: move it aside/)
    expect(err.message).toMatch(/--data-dir/)
    expect(err.data).toMatchObject({ file: join(tmp.dir, 'apps.db'), dir: tmp.dir })
  })

  it('names the file and says to make it writable when apps.db is read-only', async () => {
    // A real store file, then the folder and file made read-only for the user that opens it.
    const source = join(tmp.dir, 'first')
    await (await openAppStore({ dataDir: source })).close()
    const dir = join(tmp.dir, 'readonly')
    mkdirSync(dir)
    copyFileSync(join(source, 'apps.db'), join(dir, 'apps.db'))
    chmodSync(join(dir, 'apps.db'), 0o444)
    chmodSync(dir, 0o555)
    chmodSync(tmp.dir, 0o755)
    try {
      const err = await asNobody(() => openError(dir))
      expect(err.code).toBe('STORE_UNAVAILABLE')
      expect(err.message).toContain(join(dir, 'apps.db'))
      expect(err.message).toMatch(/readonly|unable to open/i)
      expect(err.message).toMatch(/writable by the user running Duet/)
    } finally {
      chmodSync(dir, 0o755)
    }
  })
})
