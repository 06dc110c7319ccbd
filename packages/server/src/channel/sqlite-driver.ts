import { createRequire } from 'node:module'
import { DuetError } from 'duetkit/protocol'

/**
 * The one door to SQLite for the channel store and the agent-apps store. Both are written against the
 * small part of better-sqlite3's API below; two drivers provide it:
 *
 * - `node`: Node's built-in `node:sqlite` (22.13 and later), no native addon to install or build: the
 *   default wherever this Node has it.
 * - `better-sqlite3`: the native package, an optional peer of @duetkit/server: used on a Node without
 *   `node:sqlite`, or when asked for (`DUET_SQLITE_DRIVER=better-sqlite3`).
 *
 * docs/dependencies.md ("SQLite driver") gives the measurements behind the default.
 */

/** A value SQLite can bind: numbers, strings, bigints, bytes, null; an object binds `@name` parameters. */
export type SqlParam = number | string | bigint | Uint8Array | null | Readonly<Record<string, number | string | bigint | Uint8Array | null>>

export interface SqliteStatement {
  run(...params: SqlParam[]): { changes: number; lastInsertRowid: number | bigint }
  get(...params: SqlParam[]): unknown
  all(...params: SqlParam[]): unknown[]
}

/** A function that runs in a transaction; `.immediate` takes the write lock at the start (what writers use). */
export interface SqliteTransaction<A extends unknown[], R> {
  (...args: A): R
  immediate(...args: A): R
}

export interface SqliteDatabase {
  readonly open: boolean
  readonly inTransaction: boolean
  prepare(sql: string): SqliteStatement
  exec(sql: string): unknown
  /** `PRAGMA <source>`: its rows, or with `simple` the first column of the first row. */
  pragma(source: string, options?: { simple?: boolean }): unknown
  transaction<A extends unknown[], R>(fn: (...args: A) => R): SqliteTransaction<A, R>
  close(): unknown
}

export type SqliteDriverName = 'node' | 'better-sqlite3'

/** Environment variable that picks the driver (`node` or `better-sqlite3`), for comparing them. */
export const SQLITE_DRIVER_ENV = 'DUET_SQLITE_DRIVER'

const require = createRequire(import.meta.url)
const DEFAULT_BUSY_MS = 5000

/** The driver `openSqlite` uses: the environment's choice, else `node` where this Node has `node:sqlite`, else better-sqlite3. */
export function sqliteDriverName(env: NodeJS.ProcessEnv = process.env): SqliteDriverName {
  const asked = env[SQLITE_DRIVER_ENV]
  if (asked === undefined || asked === '') return nodeSqlite() ? 'node' : 'better-sqlite3'
  if (asked !== 'node' && asked !== 'better-sqlite3')
    throw new DuetError('INVALID_OPTION', `${SQLITE_DRIVER_ENV} must be 'node' or 'better-sqlite3', got '${asked}'.`, { option: SQLITE_DRIVER_ENV })
  return asked
}

/** Opens (creating when missing, unless `readonly`) the SQLite file with the chosen driver. */
export function openSqlite(file: string, options: { readonly?: boolean; driver?: SqliteDriverName } = {}): SqliteDatabase {
  const driver = options.driver ?? sqliteDriverName()
  if (driver === 'node') {
    const sqlite = nodeSqlite()
    if (!sqlite) {
      throw new DuetError(
        'STORE_UNAVAILABLE',
        `This Node (${process.version}) has no node:sqlite (it came in 22.13); run Duet on Node 22 or 24, or install better-sqlite3.`,
        {
          package: 'better-sqlite3',
        },
      )
    }
    const db = new NodeSqliteDatabase(new sqlite.DatabaseSync(file, { readOnly: options.readonly === true }))
    // better-sqlite3 waits up to 5 s for another process's write lock by default, node:sqlite not at all:
    // the same default here, so a first statement racing another process waits instead of failing.
    db.pragma(`busy_timeout = ${DEFAULT_BUSY_MS}`)
    return db
  }
  const Database = loadBetterSqlite3()
  return new Database(file, { readonly: options.readonly === true }) as unknown as SqliteDatabase
}

// The part of node:sqlite used here, declared locally: @types/node 20 has no node:sqlite.
interface StatementSync {
  run(...params: SqlParam[]): { changes: number | bigint; lastInsertRowid: number | bigint }
  get(...params: SqlParam[]): unknown
  all(...params: SqlParam[]): unknown[]
  /** Since Node 22.16: rows as arrays, and the result columns' names. */
  setReturnArrays?(enabled: boolean): void
  columns?(): Array<{ name: string }>
}
interface DatabaseSync {
  readonly isOpen: boolean
  /** Since Node 22.16; undefined before. */
  readonly isTransaction?: boolean
  prepare(sql: string): StatementSync
  exec(sql: string): void
  close(): void
}
interface NodeSqliteModule {
  DatabaseSync: new (file: string, options?: { readOnly?: boolean }) => DatabaseSync
}

let builtIn: NodeSqliteModule | null | undefined
function nodeSqlite(): NodeSqliteModule | null {
  if (builtIn === undefined) {
    // Node 22 emits "SQLite is an experimental feature" as it loads the module (Node 24 does not): a line on
    // every `duet serve`'s stderr about a choice made here on purpose, so that one warning is held back.
    const emitWarning = process.emitWarning
    process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
      if (!/SQLite is an experimental feature/.test(String(warning))) (emitWarning as (...a: unknown[]) => void).call(process, warning, ...rest)
    }) as typeof process.emitWarning
    try {
      builtIn = require('node:sqlite') as NodeSqliteModule
    } catch {
      builtIn = null
    } finally {
      process.emitWarning = emitWarning
    }
  }
  return builtIn
}

type BetterSqlite3 = new (file: string, options: { readonly: boolean }) => unknown

function loadBetterSqlite3(): BetterSqlite3 {
  try {
    return require('better-sqlite3') as BetterSqlite3
  } catch (err) {
    if ((err as { code?: unknown }).code !== 'MODULE_NOT_FOUND' || !/'better-sqlite3'/.test((err as Error).message)) throw err
    throw new DuetError(
      'STORE_UNAVAILABLE',
      `The SQLite store needs the package better-sqlite3, which is not installed: run \`npm install better-sqlite3\` in your project, or use node:sqlite, which needs nothing installed (Node 22.13 or later, ${SQLITE_DRIVER_ENV} unset).`,
      { package: 'better-sqlite3' },
      { cause: err },
    )
  }
}

/** node:sqlite behind the better-sqlite3-shaped interface: the same SQL, the same transaction rules. */
class NodeSqliteDatabase implements SqliteDatabase {
  private depth = 0
  // BEGIN/COMMIT prepared once: a write transaction is two statement runs, not two SQL compilations.
  private readonly control = new Map<string, StatementSync>()

  constructor(private readonly db: DatabaseSync) {}

  get open(): boolean {
    return this.db.isOpen
  }

  get inTransaction(): boolean {
    return this.depth > 0
  }

  prepare(sql: string): SqliteStatement {
    const statement = this.db.prepare(sql)
    if (!statement.setReturnArrays || !statement.columns) return statement as unknown as SqliteStatement
    // node:sqlite builds each row object in C++ at about twice better-sqlite3's cost (the channel drain
    // showed it: 1.5× the CPU a message); rows as arrays, made objects here, cost what better-sqlite3's do.
    statement.setReturnArrays(true)
    const names = statement.columns().map((c) => c.name)
    const toObject = (row: unknown): Record<string, unknown> => {
      const values = row as unknown[]
      const out: Record<string, unknown> = {}
      for (let i = 0; i < names.length; i++) out[names[i]] = values[i]
      return out
    }
    return {
      run: (...params) => statement.run(...params) as { changes: number; lastInsertRowid: number | bigint },
      get: (...params) => {
        const row = statement.get(...params)
        return row === undefined ? undefined : toObject(row)
      },
      all: (...params) => statement.all(...params).map(toObject),
    }
  }

  exec(sql: string): void {
    this.db.exec(sql)
  }

  pragma(source: string, options: { simple?: boolean } = {}): unknown {
    const rows = this.db.prepare(`PRAGMA ${source}`).all() as Record<string, unknown>[]
    if (!options.simple) return rows
    const first = rows[0]
    return first === undefined ? undefined : Object.values(first)[0]
  }

  transaction<A extends unknown[], R>(fn: (...args: A) => R): SqliteTransaction<A, R> {
    const run =
      (begin: string) =>
      (...args: A): R => {
        // Inside another transaction it is a savepoint, as in better-sqlite3: its failure undoes only its part.
        const nested = this.depth > 0
        this.step(nested ? 'SAVEPOINT duet_nested' : begin)
        this.depth++
        try {
          const result = fn(...args)
          this.step(nested ? 'RELEASE duet_nested' : 'COMMIT')
          return result
        } catch (err) {
          this.undo(nested)
          throw err
        } finally {
          this.depth--
        }
      }
    return Object.assign(run('BEGIN'), { immediate: run('BEGIN IMMEDIATE') })
  }

  close(): void {
    if (this.db.isOpen) this.db.close()
  }

  private step(sql: string): void {
    let statement = this.control.get(sql)
    if (!statement) {
      statement = this.db.prepare(sql)
      this.control.set(sql, statement)
    }
    statement.run()
  }

  private undo(nested: boolean): void {
    // A failed COMMIT (busy) may already have ended the transaction; a rollback of nothing is no news.
    try {
      if (nested) {
        this.step('ROLLBACK TO duet_nested')
        this.step('RELEASE duet_nested')
      } else if (this.db.isTransaction !== false) this.step('ROLLBACK')
    } catch {
      // The original error is the one worth reporting.
    }
  }
}
