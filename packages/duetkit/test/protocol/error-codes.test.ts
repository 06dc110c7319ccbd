import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { DuetError, ErrorCodes, isDuetError, type ErrorCode } from 'duetkit/protocol'
import { DuetError as FromRoot } from 'duetkit'
import { DuetError as FromMcp } from 'duetkit/mcp'

const repo = (path: string) => fileURLToPath(new URL(`../../../../${path}`, import.meta.url))
const codes = Object.keys(ErrorCodes) as ErrorCode[]

/** The codes in the first column of the error table (the docs' reference/errors.md), in order. */
function documentedCodes(): string[] {
  const page = readFileSync(repo('docs/reference/errors.md'), 'utf8')
  expect(page.startsWith('# Errors'), 'docs/reference/errors.md is the error page').toBe(true)
  return [...page.matchAll(/^\| `([A-Z_]+)` +\|/gm)].map((m) => m[1])
}

/** Every `.js`/`.ts` file under `dir`, recursively. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : /\.(ts|tsx|js)$/.test(e.name) ? [join(dir, e.name)] : [],
  )
}

describe('one vocabulary of error codes', () => {
  it('maps each code to itself and cannot be changed at run time', () => {
    for (const code of codes) expect(ErrorCodes[code]).toBe(code)
    expect(Object.isFrozen(ErrorCodes)).toBe(true)
  })

  it("documents every code exactly once in the docs' error table, and no code that does not exist", () => {
    const documented = documentedCodes()
    expect(
      documented.filter((c, i) => documented.indexOf(c) !== i),
      'documented twice',
    ).toEqual([])
    expect([...documented].sort()).toEqual([...codes].sort())
  })

  it("spells create-duet-app's codes, and the codes of plain JSON answers in the sources, from the same vocabulary", async () => {
    // Plain JS in another package: loaded by path, so the type check does not need declarations for it.
    const { CREATE_ERROR_CODES } = (await import(repo('packages/create-duet-app/src/errors.js'))) as { CREATE_ERROR_CODES: readonly string[] }
    expect(CREATE_ERROR_CODES.length).toBeGreaterThan(0)
    for (const code of CREATE_ERROR_CODES) expect(codes, `create-duet-app ${code}`).toContain(code)
    const used = new Set<string>()
    for (const file of [...sources(repo('packages/create-duet-app/src')), ...sources(repo('packages/server/src')), ...sources(repo('packages/duetkit/src'))]) {
      const text = readFileSync(file, 'utf8')
      for (const m of text.matchAll(/new CreateError\('([A-Z_]+)'|\bcode: '([A-Z_]+)'/g)) used.add(m[1] ?? m[2])
    }
    expect(used.size).toBeGreaterThan(5)
    for (const code of used) expect(codes, code).toContain(code)
  })
})

describe('DuetError', () => {
  it('carries name, code, message, data and cause, and is one class wherever it is imported from', () => {
    const cause = new Error('disk full')
    const err = new DuetError('STORE_UNAVAILABLE', 'The store cannot be used; check the folder.', { dir: '/tmp/x' }, { cause })
    expect(err).toBeInstanceOf(Error)
    expect(err).toMatchObject({ name: 'DuetError', code: 'STORE_UNAVAILABLE', message: 'The store cannot be used; check the folder.', data: { dir: '/tmp/x' } })
    expect(err.cause).toBe(cause)
    expect(String(err)).toBe('DuetError: The store cannot be used; check the folder.')
    expect(FromRoot).toBe(DuetError)
    expect(FromMcp).toBe(DuetError)
  })

  it('has no data key when it has no data', () => {
    expect(Object.keys(new DuetError('NO_HOST', 'No host.'))).not.toContain('data')
  })

  it('is recognised by isDuetError, also when it comes from another copy of Duet', () => {
    expect(isDuetError(new DuetError('NO_HOST', 'x'))).toBe(true)
    const foreign = Object.assign(new Error('x'), { name: 'DuetError', code: 'NO_HOST' })
    expect(isDuetError(foreign)).toBe(true)
    expect(isDuetError(Object.assign(new Error('x'), { code: 'ENOENT' }))).toBe(false)
    expect(isDuetError({ name: 'DuetError', code: 'NO_HOST' })).toBe(false)
  })
})
