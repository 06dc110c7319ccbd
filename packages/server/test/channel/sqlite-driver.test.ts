// The SQLite driver module: node:sqlite (from Node 22.13, the default there) and better-sqlite3 (before, or when asked) give
// the stores the same statements, rows, pragmas and transaction rules. Each driver this Node can load is
// tested; node:sqlite must be loadable on 22.13 and later, and at least one driver always is.
import { mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { openSqlite, SQLITE_DRIVER_ENV, sqliteDriverName, type SqliteDriverName } from '../../src/channel/sqlite-driver.js'

const require = createRequire(import.meta.url)
const [major, minor] = process.versions.node.split('.').map(Number)
const hasNodeSqlite = major > 22 || (major === 22 && minor >= 13)

function loads(driver: SqliteDriverName): boolean {
  try {
    if (driver === 'node') require('node:sqlite')
    else new (require('better-sqlite3'))(':memory:').close()
    return true
  } catch {
    return false
  }
}
const drivers = (['node', 'better-sqlite3'] as const).filter(loads)

const dir = mkdtempSync(join(tmpdir(), 'duet-sqlite-driver-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('the driver in use', () => {
  it(`is node:sqlite where this Node has it (from 22.13; this is ${process.versions.node}), else better-sqlite3, unless ${SQLITE_DRIVER_ENV} says otherwise`, () => {
    expect(drivers.includes('node')).toBe(hasNodeSqlite)
    expect(drivers.length).toBeGreaterThan(0)
    expect(sqliteDriverName({})).toBe(hasNodeSqlite ? 'node' : 'better-sqlite3')
    expect(sqliteDriverName({ [SQLITE_DRIVER_ENV]: 'node' })).toBe('node')
    expect(sqliteDriverName({ [SQLITE_DRIVER_ENV]: 'better-sqlite3' })).toBe('better-sqlite3')
  })

  it(`refuses an unknown ${SQLITE_DRIVER_ENV} with INVALID_OPTION naming it`, () => {
    expect(() => sqliteDriverName({ [SQLITE_DRIVER_ENV]: 'sqlite3' })).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTION', data: { option: SQLITE_DRIVER_ENV } }),
    )
  })
})

describe.each(drivers)('the %s driver', (driver) => {
  const open = (name: string) => openSqlite(join(dir, `${driver}-${name}.db`), { driver })

  it('runs, gets and lists rows as plain objects, and reads pragmas', () => {
    const db = open('rows')
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, n INTEGER)')
    const insert = db.prepare('INSERT INTO t (name, n) VALUES (@name, @n)')
    expect(insert.run({ name: 'a', n: 1 })).toEqual({ changes: 1, lastInsertRowid: 1 })
    db.prepare('INSERT INTO t (name, n) VALUES (?, ?)').run('b', null)
    expect(db.prepare('SELECT name, n FROM t WHERE id = ?').get(1)).toEqual({ name: 'a', n: 1 })
    expect(db.prepare('SELECT name FROM t WHERE id = ?').get(99)).toBeUndefined()
    expect(db.prepare('SELECT id, name, n FROM t ORDER BY id').all()).toEqual([
      { id: 1, name: 'a', n: 1 },
      { id: 2, name: 'b', n: null },
    ])
    expect(db.prepare('SELECT count(*) AS c FROM t WHERE n IS NULL').all()).toEqual([{ c: 1 }])
    expect(db.pragma('journal_mode = WAL', { simple: true })).toBe('wal')
    expect(db.pragma('busy_timeout', { simple: true })).toBe(5000)
    expect((db.pragma('table_info(t)') as Array<{ name: string }>).map((c) => c.name)).toEqual(['id', 'name', 'n'])
    db.close()
    expect(db.open).toBe(false)
  })

  it('commits a transaction, rolls back a failed one, and undoes only a failed nested one', () => {
    const db = open('tx')
    db.exec('CREATE TABLE t (v TEXT)')
    const add = db.prepare('INSERT INTO t (v) VALUES (?)')
    const rows = () => (db.prepare('SELECT v FROM t ORDER BY rowid').all() as Array<{ v: string }>).map((r) => r.v)
    const seen: boolean[] = []
    const ok = db.transaction((v: string) => {
      seen.push(db.inTransaction)
      add.run(v)
      return v.length
    })
    expect(ok.immediate('one')).toBe(3)
    expect(ok('two')).toBe(3)
    expect(seen).toEqual([true, true])
    expect(db.inTransaction).toBe(false)
    const failing = db.transaction(() => {
      add.run('lost')
      throw new Error('no')
    })
    expect(() => failing.immediate()).toThrow('no')
    expect(db.inTransaction).toBe(false)
    const outer = db.transaction(() => {
      add.run('outer')
      expect(() => failing()).toThrow('no')
      add.run('after')
    })
    outer.immediate()
    expect(rows()).toEqual(['one', 'two', 'outer', 'after'])
    db.close()
  })

  it('opens a file read-only when asked, refusing writes', () => {
    const writer = open('ro')
    writer.exec('CREATE TABLE t (v TEXT)')
    writer.close()
    const reader = openSqlite(join(dir, `${driver}-ro.db`), { driver, readonly: true })
    expect(reader.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 0 })
    expect(() => reader.exec("INSERT INTO t VALUES ('x')")).toThrow(/readonly|read-only/i)
    reader.close()
  })
})
