import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import Database from 'better-sqlite3'
import { DuetError } from 'duetkit/protocol'
import { openAppStore, type AppStore } from '../../src/apps/index.js'
import { tempDataDir } from './harness.js'

let tmp: ReturnType<typeof tempDataDir>
let store: AppStore
beforeEach(() => {
  tmp = tempDataDir()
  store = openAppStore({
    dataDir: tmp.dir,
    limits: { maxValueBytes: 4096, maxKeysPerApp: 3, maxRenders: 3, maxSavedApps: 2, maxLogRows: 5, maxPageBytes: 200 },
  })
})
afterEach(() => {
  store.close()
  tmp.remove()
})

function caught(fn: () => unknown): DuetError {
  try {
    fn()
  } catch (err) {
    if (err instanceof DuetError) return err
    throw err
  }
  throw new Error('expected a DuetError')
}

describe('openAppStore options', () => {
  it('rejects a missing data dir and unknown or non-positive limits, naming the factory and option', () => {
    expect(() => openAppStore(undefined as never)).toThrow(/openAppStore: option 'options'/)
    expect(() => openAppStore({ dataDir: '' })).toThrow(/openAppStore: option 'dataDir'/)
    expect(() => openAppStore({ dataDir: tmp.dir, limits: { maxRenders: 0 } })).toThrow(/option 'limits.maxRenders' must be a positive integer/)
    expect(() => openAppStore({ dataDir: tmp.dir, limits: { nope: 1 } as never })).toThrow(/option 'limits.nope' is not a known limit/)
  })

  it('fails with DISPOSED after close, and close twice is harmless', () => {
    store.close()
    store.close()
    expect(caught(() => store.listApps())).toMatchObject({ code: 'DISPOSED', message: expect.stringMatching(/is closed; open it again with openAppStore/) })
  })

  it('refuses a file written by a newer schema instead of corrupting it', () => {
    store.close()
    const raw = new Database(store.file)
    raw.pragma('user_version = 99')
    raw.close()
    expect(caught(() => openAppStore({ dataDir: tmp.dir }))).toMatchObject({ code: 'STORE_UNAVAILABLE', message: expect.stringMatching(/newer Duet/) })
  })
})

describe('bad input is refused and nothing is written', () => {
  it('render records: bad channel ids, kinds, bodies and sizes', () => {
    expect(() => store.recordRender('../etc/passwd', { kind: 'html', html: '<p>' })).toThrow(/Invalid channel id/)
    expect(caught(() => store.recordRender('ch-1', { kind: 'svg' as never, html: '<p>' })).code).toBe('INVALID_ARGUMENT')
    expect(caught(() => store.recordRender('ch-1', { kind: 'html' })).message).toMatch(/needs a non-empty html string/)
    expect(caught(() => store.recordRender('ch-1', { kind: 'component', html: '<p>' })).message).toMatch(/non-empty source/)
    expect(caught(() => store.recordRender('ch-1', { kind: 'component', source: 'x', props: [] as never })).message).toMatch(/props must be a JSON object/)
    const big = openAppStore({ dataDir: tmp.dir, limits: { maxRenderChars: 10 } })
    try {
      expect(caught(() => big.recordRender('ch-1', { kind: 'html', html: 'x'.repeat(11) }))).toMatchObject({ code: 'TOO_LARGE', data: { size: 11, limit: 10 } })
    } finally {
      big.close()
    }
    expect(store.getRender('ch-1')).toBeUndefined()
  })

  it('app names and data keys that look like paths or are malformed', () => {
    for (const name of ['../x', 'a/b', 'A', '', '-x', 'a'.repeat(65), 'a b', 'a.b']) {
      expect(caught(() => store.putData(name, 'k', 1))).toMatchObject({ code: 'INVALID_NAME', data: { field: 'app' } })
    }
    for (const key of ['../k', 'a/b', 'a\\b', '..', 'a..b', '', '.hidden', 'k'.repeat(129)]) {
      expect(caught(() => store.putData('app', key, 1))).toMatchObject({ code: 'INVALID_NAME', data: { field: 'key' } })
    }
    expect(store.dataKeys('app')).toEqual([])
  })

  it('oversized values and too many keys keep what was stored', () => {
    store.putData('app', 'a', 'first')
    const err = caught(() => store.putData('app', 'a', 'x'.repeat(5000)))
    expect(err).toMatchObject({ code: 'TOO_LARGE', data: { limit: 4096 } })
    expect(err.message).toMatch(/split the content over several keys/)
    expect(store.getData('app', 'a').value).toBe('first')
    store.putData('app', 'b', 1)
    store.putData('app', 'c', 2)
    expect(caught(() => store.putData('app', 'd', 3)).code).toBe('LIMIT_REACHED')
    store.putData('app', 'c', 22) // replacing an existing key is not a new key
    expect(store.dataKeys('app')).toEqual(['a', 'b', 'c'])
  })

  it('a missing value, and appending the wrong kind', () => {
    expect(caught(() => store.putData('app', 'k', undefined)).code).toBe('INVALID_ARGUMENT')
    store.putData('app', 'list', [1, 2])
    expect(caught(() => store.putData('app', 'list', 'text', { append: true })).message).toMatch(/Append arrays to arrays/)
    expect(store.getData('app', 'list').value).toEqual([1, 2])
  })

  it("logs: bad level (also 'warn', which MCP spells 'warning'), empty or long message, big data", () => {
    expect(caught(() => store.log('fatal' as never, 'x')).code).toBe('INVALID_ARGUMENT')
    expect(caught(() => store.log('warn' as never, 'x'))).toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: 'level must be one of debug, info, notice, warning, error, critical, alert, emergency, got "warn"',
      data: { field: 'level' },
    })
    expect(caught(() => store.tail(5, 'warn' as never)).code).toBe('INVALID_ARGUMENT')
    expect(caught(() => store.log('info', '')).code).toBe('TOO_LARGE')
    expect(caught(() => store.log('info', 'x'.repeat(4001))).code).toBe('TOO_LARGE')
    expect(caught(() => store.log('info', 'x', { blob: 'y'.repeat(20_000) })).message).toMatch(/log a summary/)
    expect(caught(() => store.tail(0)).code).toBe('INVALID_ARGUMENT')
    expect(caught(() => store.tail(501)).code).toBe('INVALID_ARGUMENT')
    expect(store.tail(10)).toEqual([])
  })
})

describe('renders and saved apps', () => {
  it('keeps the latest render per channel and forgets the oldest beyond the cap', () => {
    store.recordRender('ch-1', { kind: 'html', html: '<p>one</p>', title: 'One' })
    store.recordRender('ch-1', { kind: 'html', html: '<p>one again</p>' })
    expect(store.getRender('ch-1')).toMatchObject({ kind: 'html', html: '<p>one again</p>', channelId: 'ch-1' })
    expect(store.getRender('ch-1')?.title).toBeUndefined()
    for (const id of ['ch-2', 'ch-3', 'ch-4']) store.recordRender(id, { kind: 'component', source: 'export default () => null', props: { id } })
    expect(store.getRender('ch-1')).toBeUndefined()
    expect(store.getRender('ch-4')).toMatchObject({ kind: 'component', props: { id: 'ch-4' } })
  })

  it('saves a render under a name, refuses to overwrite unless asked, lists newest first, loads and deletes', () => {
    store.recordRender('ch-a', { kind: 'html', html: '<h1>A</h1>', title: 'Alpha' })
    store.recordRender('ch-b', { kind: 'component', source: 'src', props: { n: 1 } })
    store.saveApp('alpha', 'ch-a', { description: 'first' })
    expect(caught(() => store.saveApp('alpha', 'ch-b'))).toMatchObject({ code: 'ALREADY_EXISTS' })
    expect(store.loadApp('alpha')).toMatchObject({ kind: 'html', html: '<h1>A</h1>', title: 'Alpha', description: 'first' })
    store.saveApp('alpha', 'ch-b', { replace: true })
    expect(store.loadApp('alpha')).toMatchObject({ kind: 'component', source: 'src', props: { n: 1 } })
    store.saveApp('beta', 'ch-a')
    expect(caught(() => store.saveApp('gamma', 'ch-a')).code).toBe('LIMIT_REACHED')
    expect(
      store
        .listApps()
        .map((a) => a.name)
        .sort(),
    ).toEqual(['alpha', 'beta'])
    expect(store.deleteApp('beta')).toBe(true)
    expect(store.deleteApp('beta')).toBe(false)
    const missing = caught(() => store.loadApp('beta'))
    expect(missing.code).toBe('NOT_FOUND')
    expect(missing.message).toMatch(/Saved apps: alpha/)
  })

  it('saving a channel with no render says how to get one', () => {
    expect(caught(() => store.saveApp('x', 'ch-none')).message).toMatch(/Render the app with a display tool/)
    expect(store.listApps()).toEqual([])
  })

  it('a saved app outlives its render record and a reopened store', () => {
    store.recordRender('ch-1', { kind: 'html', html: '<p>kept</p>' })
    store.saveApp('kept', 'ch-1')
    for (const id of ['ch-2', 'ch-3', 'ch-4']) store.recordRender(id, { kind: 'html', html: '<p>' })
    store.close()
    store = openAppStore({ dataDir: tmp.dir })
    expect(store.loadApp('kept').html).toBe('<p>kept</p>')
  })
})

describe('app data pages', () => {
  it('pages an array by items, stopping early at the byte cap, with next until the end', () => {
    store.putData('book', 'pages', ['a', 'b', 'c', 'd', 'e'])
    expect(store.getData('book', 'pages', { limit: 2 })).toEqual({ value: ['a', 'b'], offset: 0, total: 5, next: 2 })
    expect(store.getData('book', 'pages', { offset: 4, limit: 2 })).toEqual({ value: ['e'], offset: 4, total: 5 })
    expect(store.getData('book', 'pages', { offset: 5 })).toEqual({ value: [], offset: 5, total: 5 })
    expect(caught(() => store.getData('book', 'pages', { offset: 6 })).message).toMatch(/offset must be an integer from 0 to 5/)
    expect(caught(() => store.getData('book', 'pages', { limit: 0 })).code).toBe('INVALID_ARGUMENT')
    store.putData('book', 'big', ['x'.repeat(150), 'y'.repeat(150), 'z'])
    expect(store.getData('book', 'big', { limit: 3 })).toMatchObject({ value: ['x'.repeat(150)], next: 1 })
  })

  it('pages a string by characters without splitting a surrogate pair', () => {
    store.putData('book', 'text', 'ab😀cd')
    expect(store.getData('book', 'text', { limit: 3 })).toEqual({ value: 'ab', offset: 0, total: 6, next: 2 })
    expect(store.getData('book', 'text', { offset: 2, limit: 3 })).toEqual({ value: '😀c', offset: 2, total: 6, next: 5 })
    expect(store.getData('book', 'text', { offset: 5 })).toEqual({ value: 'd', offset: 5, total: 6 })
  })

  it('returns other JSON whole, and appends arrays and strings', () => {
    store.putData('book', 'toc', { chapters: 3 })
    expect(store.getData('book', 'toc')).toEqual({ value: { chapters: 3 }, offset: 0, total: 1 })
    expect(store.putData('book', 'pages', ['p1'])).toMatchObject({ kind: 'array', total: 1 })
    expect(store.putData('book', 'pages', ['p2', 'p3'], { append: true })).toMatchObject({ kind: 'array', total: 3 })
    store.putData('book', 'log', 'one ')
    store.putData('book', 'log', 'two', { append: true })
    expect(store.getData('book', 'log').value).toBe('one two')
    expect(store.getData('book', 'pages').value).toEqual(['p1', 'p2', 'p3'])
  })

  it('a missing key lists the keys there are', () => {
    store.putData('book', 'pages', [])
    expect(caught(() => store.getData('book', 'chapters')).message).toMatch(/Its keys: pages/)
    expect(caught(() => store.getData('other', 'x')).message).toMatch(/no data yet/)
  })

  it('is shared by two stores on one file, as two server processes would be', () => {
    const other = openAppStore({ dataDir: tmp.dir })
    try {
      other.putData('shared', 'k', [1])
      store.putData('shared', 'k', [2], { append: true })
      expect(other.getData('shared', 'k').value).toEqual([1, 2])
    } finally {
      other.close()
    }
  })
})

describe('server log', () => {
  it('keeps the newest rows only, tails oldest first and filters by level', () => {
    for (let i = 1; i <= 7; i++) store.log(i % 2 ? 'info' : 'error', `line ${i}`, i === 7 ? { i } : undefined)
    expect(store.tail(10).map((e) => e.message)).toEqual(['line 3', 'line 4', 'line 5', 'line 6', 'line 7'])
    expect(store.tail(2).map((e) => e.message)).toEqual(['line 6', 'line 7'])
    expect(store.tail(10, 'error').map((e) => e.message)).toEqual(['line 4', 'line 6'])
    expect(store.tail(1)[0]).toMatchObject({ level: 'info', data: { i: 7 } })
  })

  it('orders the MCP levels by severity, so a filter keeps its level and every more severe one', () => {
    for (const level of ['emergency', 'debug', 'warning', 'notice', 'critical'] as const) store.log(level, level)
    expect(store.tail(10, 'warning').map((e) => e.level)).toEqual(['emergency', 'warning', 'critical'])
    expect(store.tail(10, 'notice').map((e) => e.level)).toEqual(['emergency', 'warning', 'notice', 'critical'])
  })

  it("reads a schema-1 file's 'warn' rows as 'warning'", () => {
    store.close()
    const raw = new Database(store.file)
    raw.pragma('user_version = 1')
    raw.prepare('INSERT INTO server_log (at, level, message) VALUES (?, ?, ?)').run(Date.now(), 'warn', 'old warning')
    raw.close()
    store = openAppStore({ dataDir: tmp.dir })
    expect(store.tail(5, 'warning')).toEqual([expect.objectContaining({ level: 'warning', message: 'old warning' })])
  })
})
