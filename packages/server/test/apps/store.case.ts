import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { DuetError } from 'duetkit/protocol'
import type { AppLimits, AppStore } from '../../src/apps/index.js'
import { addressScope } from '../../src/channel/subject-scope.js'

/**
 * The backend under test: `fresh()` empties the shared data before each case, `open()` opens a store
 * on it. Every store one case opens reaches the same data, as two server processes (or replicas) would.
 */
export interface AppStoreBackend {
  fresh(): Promise<void>
  open(limits?: Partial<AppLimits>): Promise<AppStore>
}

/** Awaits `promise` and returns the DuetError it rejects with (fails if it resolves). */
export async function caught(promise: Promise<unknown>): Promise<DuetError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(err, 'expected a DuetError').toBeInstanceOf(DuetError)
  return err as DuetError
}

const TEST_LIMITS: Partial<AppLimits> = { maxValueBytes: 4096, maxKeysPerApp: 3, maxRenders: 3, maxSavedApps: 2, maxLogRows: 5, maxPageBytes: 200 }

/** The behaviour every agent-apps store backend shares: the same limits, the same errors, the same answers. */
export function describeAppStore(name: string, backend: AppStoreBackend) {
  describe(`AppStore conformance: ${name}`, () => {
    let store: AppStore
    const others: AppStore[] = []
    /** Another store on the same data, closed after the case. */
    const another = async (limits?: Partial<AppLimits>) => {
      const other = await backend.open(limits)
      others.push(other)
      return other
    }
    beforeEach(async () => {
      await backend.fresh()
      store = await backend.open(TEST_LIMITS)
    })
    afterEach(async () => {
      await store.close()
      await Promise.all(others.splice(0).map((s) => s.close()))
    })

    describe('the handle', () => {
      it('fails with DISPOSED after close, and close twice is harmless', async () => {
        await store.close()
        await store.close()
        expect(await caught(store.listApps())).toMatchObject({ code: 'DISPOSED', message: expect.stringMatching(/is closed; open it again with openAppStore/) })
      })

      it('says which backend it is and keeps its limits', () => {
        expect(store.backend).toBe(name)
        expect(store.limits).toMatchObject(TEST_LIMITS)
        expect(store.location).not.toBe('')
      })
    })

    describe('bad input is refused and nothing is written', () => {
      it('render records: bad channel ids, kinds, bodies and sizes', async () => {
        expect((await caught(store.recordRender('../etc/passwd', { kind: 'html', html: '<p>' }))).message).toMatch(/Invalid channel id/)
        expect((await caught(store.recordRender('ch-1', { kind: 'svg' as never, html: '<p>' }))).code).toBe('INVALID_ARGUMENT')
        expect((await caught(store.recordRender('ch-1', { kind: 'html' }))).message).toMatch(/needs a non-empty html string/)
        expect((await caught(store.recordRender('ch-1', { kind: 'component', html: '<p>' }))).message).toMatch(/non-empty source/)
        expect((await caught(store.recordRender('ch-1', { kind: 'component', source: 'x', props: [] as never }))).message).toMatch(
          /props must be a JSON object/,
        )
        const big = await another({ maxRenderChars: 10 })
        expect(await caught(big.recordRender('ch-1', { kind: 'html', html: 'x'.repeat(11) }))).toMatchObject({
          code: 'TOO_LARGE',
          data: { size: 11, limit: 10 },
        })
        expect(await store.getRender('ch-1')).toBeUndefined()
      })

      it('app names and data keys that look like paths or are malformed', async () => {
        for (const bad of ['../x', 'a/b', 'A', '', '-x', 'a'.repeat(65), 'a b', 'a.b']) {
          expect(await caught(store.putData(bad, 'k', 1))).toMatchObject({ code: 'INVALID_NAME', data: { field: 'app' } })
        }
        for (const key of ['../k', 'a/b', 'a\\b', '..', 'a..b', '', '.hidden', 'k'.repeat(129)]) {
          expect(await caught(store.putData('app', key, 1))).toMatchObject({ code: 'INVALID_NAME', data: { field: 'key' } })
        }
        expect(await store.dataKeys('app')).toEqual([])
      })

      it('oversized values and too many keys keep what was stored', async () => {
        await store.putData('app', 'a', 'first')
        const err = await caught(store.putData('app', 'a', 'x'.repeat(5000)))
        expect(err).toMatchObject({ code: 'TOO_LARGE', data: { limit: 4096 } })
        expect(err.message).toMatch(/split the content over several keys/)
        expect((await store.getData('app', 'a')).value).toBe('first')
        await store.putData('app', 'b', 1)
        await store.putData('app', 'c', 2)
        expect((await caught(store.putData('app', 'd', 3))).code).toBe('LIMIT_REACHED')
        await store.putData('app', 'c', 22) // replacing an existing key is not a new key
        expect(await store.dataKeys('app')).toEqual(['a', 'b', 'c'])
        expect((await store.getData('app', 'c')).value).toBe(22)
      })

      it('an append that would go over the size limit keeps the stored value', async () => {
        await store.putData('app', 'list', ['x'.repeat(2000)])
        expect(await caught(store.putData('app', 'list', ['y'.repeat(2500)], { append: true }))).toMatchObject({ code: 'TOO_LARGE' })
        expect((await store.getData('app', 'list')).value).toEqual(['x'.repeat(2000)])
      })

      it('a missing value, and appending the wrong kind', async () => {
        expect((await caught(store.putData('app', 'k', undefined))).code).toBe('INVALID_ARGUMENT')
        await store.putData('app', 'list', [1, 2])
        expect((await caught(store.putData('app', 'list', 'text', { append: true }))).message).toMatch(/Append arrays to arrays/)
        expect((await store.getData('app', 'list')).value).toEqual([1, 2])
      })

      it("logs: bad level (also 'warn', which MCP spells 'warning'), empty or long message, big data", async () => {
        expect((await caught(store.log('fatal' as never, 'x'))).code).toBe('INVALID_ARGUMENT')
        expect(await caught(store.log('warn' as never, 'x'))).toMatchObject({
          code: 'INVALID_ARGUMENT',
          message: 'level must be one of debug, info, notice, warning, error, critical, alert, emergency, got "warn"',
          data: { field: 'level' },
        })
        expect((await caught(store.tail(5, 'warn' as never))).code).toBe('INVALID_ARGUMENT')
        expect((await caught(store.log('info', ''))).code).toBe('TOO_LARGE')
        expect((await caught(store.log('info', 'x'.repeat(4001)))).code).toBe('TOO_LARGE')
        expect((await caught(store.log('info', 'x', { blob: 'y'.repeat(20_000) }))).message).toMatch(/log a summary/)
        expect((await caught(store.tail(0))).code).toBe('INVALID_ARGUMENT')
        expect((await caught(store.tail(501))).code).toBe('INVALID_ARGUMENT')
        expect(await store.tail(10)).toEqual([])
      })

      it('a description that is too long, saving nothing', async () => {
        await store.recordRender('ch-d', { kind: 'html', html: '<p>' })
        expect(await caught(store.saveApp('d', 'ch-d', { description: 'x'.repeat(2001) }))).toMatchObject({
          code: 'INVALID_ARGUMENT',
          data: { field: 'description' },
        })
        expect(await store.listApps()).toEqual([])
      })
    })

    describe('renders and saved apps', () => {
      it('keeps the latest render per channel and forgets the oldest beyond the cap', async () => {
        await store.recordRender('ch-1', { kind: 'html', html: '<p>one</p>', title: 'One' })
        await store.recordRender('ch-1', { kind: 'html', html: '<p>one again</p>' })
        expect(await store.getRender('ch-1')).toMatchObject({ kind: 'html', html: '<p>one again</p>', channelId: 'ch-1' })
        expect((await store.getRender('ch-1'))?.title).toBeUndefined()
        for (const id of ['ch-2', 'ch-3', 'ch-4']) await store.recordRender(id, { kind: 'component', source: 'export default () => null', props: { id } })
        expect(await store.getRender('ch-1')).toBeUndefined()
        expect(await store.getRender('ch-4')).toMatchObject({ kind: 'component', props: { id: 'ch-4' } })
        expect(await store.getRender('ch-2')).toEqual({
          kind: 'component',
          source: 'export default () => null',
          props: { id: 'ch-2' },
          channelId: 'ch-2',
          renderedAt: expect.any(Number),
        })
      })

      it('saves a render under a name, refuses to overwrite unless asked, lists newest first, loads and deletes', async () => {
        await store.recordRender('ch-a', { kind: 'html', html: '<h1>A</h1>', title: 'Alpha' })
        await store.recordRender('ch-b', { kind: 'component', source: 'src', props: { n: 1 } })
        expect(await store.saveApp('alpha', 'ch-a', { description: 'first' })).toEqual({
          name: 'alpha',
          kind: 'html',
          html: '<h1>A</h1>',
          title: 'Alpha',
          description: 'first',
          savedAt: expect.any(Number),
        })
        expect(await caught(store.saveApp('alpha', 'ch-b'))).toMatchObject({ code: 'ALREADY_EXISTS' })
        expect(await store.loadApp('alpha')).toMatchObject({ kind: 'html', html: '<h1>A</h1>', title: 'Alpha', description: 'first' })
        await store.saveApp('alpha', 'ch-b', { replace: true })
        const replaced = await store.loadApp('alpha')
        expect(replaced).toMatchObject({ kind: 'component', source: 'src', props: { n: 1 } })
        expect(replaced.description).toBeUndefined()
        await new Promise((resolve) => setTimeout(resolve, 5))
        await store.saveApp('beta', 'ch-a')
        expect((await caught(store.saveApp('gamma', 'ch-a'))).code).toBe('LIMIT_REACHED')
        expect(await store.listApps()).toEqual([
          { name: 'beta', kind: 'html', title: 'Alpha', savedAt: expect.any(Number) },
          { name: 'alpha', kind: 'component', savedAt: expect.any(Number) },
        ])
        expect(await store.deleteApp('beta')).toBe(true)
        expect(await store.deleteApp('beta')).toBe(false)
        const missing = await caught(store.loadApp('beta'))
        expect(missing.code).toBe('NOT_FOUND')
        expect(missing.message).toMatch(/Saved apps: alpha\./)
        await store.saveApp('gamma', 'ch-a') // the delete made room
      })

      it('saving a channel with no render says how to get one', async () => {
        expect((await caught(store.saveApp('x', 'ch-none'))).message).toMatch(/Render the app with a display tool/)
        expect(await store.listApps()).toEqual([])
        expect((await caught(store.loadApp('x'))).message).toMatch(/Nothing is saved yet/)
      })

      it('a saved app outlives its render record and a reopened store', async () => {
        await store.recordRender('ch-1', { kind: 'html', html: '<p>kept</p>' })
        await store.saveApp('kept', 'ch-1')
        for (const id of ['ch-2', 'ch-3', 'ch-4']) await store.recordRender(id, { kind: 'html', html: '<p>' })
        await store.close()
        store = await backend.open()
        expect((await store.loadApp('kept')).html).toBe('<p>kept</p>')
      })
    })

    describe('app data pages', () => {
      it('pages an array by items, stopping early at the byte cap, with next until the end', async () => {
        await store.putData('book', 'pages', ['a', 'b', 'c', 'd', 'e'])
        expect(await store.getData('book', 'pages', { limit: 2 })).toEqual({ value: ['a', 'b'], offset: 0, total: 5, next: 2 })
        expect(await store.getData('book', 'pages', { offset: 4, limit: 2 })).toEqual({ value: ['e'], offset: 4, total: 5 })
        expect(await store.getData('book', 'pages', { offset: 5 })).toEqual({ value: [], offset: 5, total: 5 })
        expect((await caught(store.getData('book', 'pages', { offset: 6 }))).message).toMatch(/offset must be an integer from 0 to 5/)
        expect((await caught(store.getData('book', 'pages', { limit: 0 }))).code).toBe('INVALID_ARGUMENT')
        await store.putData('book', 'big', ['x'.repeat(150), 'y'.repeat(150), 'z'])
        expect(await store.getData('book', 'big', { limit: 3 })).toMatchObject({ value: ['x'.repeat(150)], next: 1 })
      })

      it('pages a string by characters without splitting a surrogate pair', async () => {
        await store.putData('book', 'text', 'ab😀cd')
        expect(await store.getData('book', 'text', { limit: 3 })).toEqual({ value: 'ab', offset: 0, total: 6, next: 2 })
        expect(await store.getData('book', 'text', { offset: 2, limit: 3 })).toEqual({ value: '😀c', offset: 2, total: 6, next: 5 })
        expect(await store.getData('book', 'text', { offset: 5 })).toEqual({ value: 'd', offset: 5, total: 6 })
      })

      it('returns other JSON whole, and appends arrays and strings', async () => {
        await store.putData('book', 'toc', { chapters: 3 })
        expect(await store.getData('book', 'toc')).toEqual({ value: { chapters: 3 }, offset: 0, total: 1 })
        expect(await store.putData('book', 'pages', ['p1'])).toEqual({ app: 'book', key: 'pages', kind: 'array', total: 1, bytes: 6 })
        expect(await store.putData('book', 'pages', ['p2', 'p3'], { append: true })).toMatchObject({ kind: 'array', total: 3, bytes: 16 })
        await store.putData('book', 'log', 'one ')
        expect(await store.putData('book', 'log', 'two', { append: true })).toMatchObject({ kind: 'string', total: 7 })
        expect((await store.getData('book', 'log')).value).toBe('one two')
        expect((await store.getData('book', 'pages')).value).toEqual(['p1', 'p2', 'p3'])
      })

      it('a missing key names no other key, and reads the same whether the app has keys or none', async () => {
        await store.putData('book', 'pages', [])
        await store.putData('book', 'secret-plan', 'x')
        const some = await caught(store.getData('book', 'chapters'))
        expect(some).toMatchObject({ code: 'NOT_FOUND', data: { kind: 'data', name: 'book/chapters' } })
        expect(some.message).not.toMatch(/pages|secret-plan/)
        const none = await caught(store.getData('other', 'chapters'))
        expect(none.message.replace('other/', 'book/')).toBe(some.message)
      })

      it('is shared by two stores, as two server processes would share it', async () => {
        const other = await another()
        await other.putData('shared', 'k', [1])
        await store.putData('shared', 'k', [2], { append: true })
        expect((await other.getData('shared', 'k')).value).toEqual([1, 2])
      })

      it('concurrent appends from two stores lose nothing', async () => {
        const other = await another()
        await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? store : other).putData('shared', 'race', [i], { append: true })))
        const value = (await store.getData('shared', 'race', { limit: 100 })).value as number[]
        expect([...value].sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i))
      })
    })

    describe('per-subject quotas and evictions', () => {
      const html = (text: string) => ({ kind: 'html' as const, html: `<p>${text}</p>` })

      it("one subject's renders past maxRendersPerSubject evict only its own oldest: another's get_render and save_app keep working", async () => {
        const limited = await another({ maxRenders: 50, maxRendersPerSubject: 3 })
        const alice = limited.forSubject('alice@example.com')
        const bob = limited.forSubject('bob@example.com')
        await bob.recordRender('ch-bob', html('bob'))
        for (let i = 0; i < 20; i++) await alice.recordRender(`ch-${i}`, html(`alice ${i}`))
        expect(await bob.getRender('ch-bob')).toMatchObject({ html: '<p>bob</p>', channelId: 'ch-bob' })
        expect(await bob.saveApp('mine', 'ch-bob')).toMatchObject({ name: 'mine', html: '<p>bob</p>' })
        expect(await alice.getRender('ch-16')).toBeUndefined()
        for (const i of [17, 18, 19]) expect(await alice.getRender(`ch-${i}`)).toMatchObject({ html: `<p>alice ${i}</p>` })
      })

      it('past the store-wide maxRenders, the subject holding the most renders loses its oldest, never a lighter one', async () => {
        const limited = await another({ maxRenders: 6, maxRendersPerSubject: 5 })
        const [alice, bob, carol] = ['alice', 'bob', 'carol'].map((s) => limited.forSubject(s))
        await bob.recordRender('ch-b', html('bob'))
        await carol.recordRender('ch-c', html('carol'))
        for (let i = 0; i < 5; i++) await alice.recordRender(`ch-a${i}`, html(`alice ${i}`))
        expect(await bob.getRender('ch-b')).toBeDefined()
        expect(await carol.getRender('ch-c')).toBeDefined()
        expect(await alice.getRender('ch-a0')).toBeUndefined()
        expect(await alice.getRender('ch-a4')).toBeDefined()
      })

      // Every render of these cases falls in one millisecond (the clock stands still), so only the recording
      // order can tell the oldest.
      it('evicts in recording order within one millisecond: a render made again counts as new', async () => {
        vi.useFakeTimers({ toFake: ['Date'], now: 1_700_000_000_000 })
        try {
          const limited = await another({ maxRenders: 3, maxRendersPerSubject: 3 })
          for (const id of ['ch-1', 'ch-2', 'ch-3', 'ch-4']) await limited.recordRender(id, html(id))
          expect(await limited.getRender('ch-1')).toBeUndefined()
          // Rendered again, ch-2 is the newest: ch-3 is now the oldest and goes first.
          await limited.recordRender('ch-2', html('again'))
          await limited.recordRender('ch-5', html('ch-5'))
          expect(await limited.getRender('ch-3')).toBeUndefined()
          for (const id of ['ch-2', 'ch-4', 'ch-5']) expect(await limited.getRender(id), id).toBeDefined()
        } finally {
          vi.useRealTimers()
        }
      })

      for (const [first, second] of [
        ['alice', 'bob'],
        ['bob', 'alice'],
      ]) {
        it(`of two owners holding the most renders, the one that rendered first loses its oldest (${first} before ${second}), within one millisecond`, async () => {
          vi.useFakeTimers({ toFake: ['Date'], now: 1_700_000_000_000 })
          try {
            const tied = await another({ maxRenders: 4, maxRendersPerSubject: 3 })
            const [a, b] = [tied.forSubject(first!), tied.forSubject(second!)]
            await a.recordRender(`ch-${first}-0`, html('a0'))
            await b.recordRender(`ch-${second}-0`, html('b0'))
            await a.recordRender(`ch-${first}-1`, html('a1'))
            await b.recordRender(`ch-${second}-1`, html('b1'))
            await tied.forSubject('carol').recordRender('ch-carol', html('carol'))
            expect(await a.getRender(`ch-${first}-0`), `${first} rendered first`).toBeUndefined()
            expect(await b.getRender(`ch-${second}-0`), `${second} rendered second`).toBeDefined()
          } finally {
            vi.useRealTimers()
          }
        })
      }

      it('without a subject, renders are charged to the owner the caller passes (a client address), so one address evicts only its own', async () => {
        const limited = await another({ maxRenders: 50, maxRendersPerSubject: 2 })
        const first = limited.forSubject(undefined, addressScope('10.0.0.1'))
        const second = limited.forSubject(undefined, addressScope('10.0.0.2'))
        await second.recordRender('ch-second', html('second'))
        for (let i = 0; i < 10; i++) await first.recordRender(`ch-first-${i}`, html(`first ${i}`))
        expect(await second.getRender('ch-second')).toMatchObject({ html: '<p>second</p>' })
        // The data is the shared space's: the first address reads it too.
        expect(await first.getRender('ch-second')).toBeDefined()
        expect(await first.getRender('ch-first-7')).toBeUndefined()
      })

      it('saved apps: past maxSavedAppsPerSubject LIMIT_REACHED names the quota with limit and use, another subject still saves; the store-wide cap too', async () => {
        const limited = await another({ maxSavedApps: 3, maxSavedAppsPerSubject: 2 })
        const alice = limited.forSubject('alice')
        const bob = limited.forSubject('bob')
        await alice.recordRender('ch-a', html('a'))
        await bob.recordRender('ch-b', html('b'))
        await alice.saveApp('one', 'ch-a')
        await alice.saveApp('two', 'ch-a')
        const mine = await caught(alice.saveApp('three', 'ch-a'))
        expect(mine).toMatchObject({ code: 'LIMIT_REACHED', data: { quota: 'maxSavedAppsPerSubject', limit: 2, used: 2 } })
        expect(mine.message).toMatch(/maxSavedAppsPerSubject/)
        // Replacing one of hers is not a new app; nothing of hers was lost.
        expect(await alice.saveApp('two', 'ch-a', { replace: true })).toMatchObject({ name: 'two' })
        expect((await alice.listApps()).map((a) => a.name).sort()).toEqual(['one', 'two'])
        await bob.saveApp('bobs', 'ch-b')
        expect((await caught(bob.saveApp('more', 'ch-b'))).data).toMatchObject({ quota: 'maxSavedApps', limit: 3, used: 3 })
        expect(await alice.deleteApp('one')).toBe(true)
        expect(await bob.saveApp('more', 'ch-b')).toMatchObject({ name: 'more' })
      })

      it('app data: namespaces and keys per subject, LIMIT_REACHED naming the quota; another subject is unaffected and nothing stored is lost', async () => {
        const limited = await another({ maxDataAppsPerSubject: 2, maxDataKeysPerSubject: 3, maxKeysPerApp: 10 })
        const alice = limited.forSubject('alice')
        const bob = limited.forSubject('bob')
        await alice.putData('one', 'k', 1)
        await alice.putData('two', 'k', 2)
        const apps = await caught(alice.putData('three', 'k', 3))
        expect(apps).toMatchObject({ code: 'LIMIT_REACHED', data: { quota: 'maxDataAppsPerSubject', limit: 2, used: 2 } })
        await alice.putData('two', 'k2', 22)
        expect((await caught(alice.putData('one', 'k3', 3))).data).toMatchObject({ quota: 'maxDataKeysPerSubject', limit: 3, used: 3 })
        // Writing a key she has is not a new key.
        await alice.putData('one', 'k', 11)
        expect((await alice.getData('one', 'k')).value).toBe(11)
        expect((await alice.getData('two', 'k2')).value).toBe(22)
        expect((await caught(alice.getData('three', 'k'))).code).toBe('NOT_FOUND')
        for (const app of ['x', 'y']) await bob.putData(app, 'k', app)
        expect((await bob.getData('y', 'k')).value).toBe('y')
      })

      it('store-wide app-data caps hold for every subject together', async () => {
        const limited = await another({ maxDataApps: 2, maxDataKeys: 3 })
        await limited.forSubject('alice').putData('a', 'k', 1)
        await limited.forSubject('bob').putData('b', 'k', 1)
        expect((await caught(limited.forSubject('carol').putData('c', 'k', 1))).data).toMatchObject({ quota: 'maxDataApps', limit: 2, used: 2 })
        await limited.forSubject('bob').putData('b', 'k2', 1)
        expect((await caught(limited.forSubject('alice').putData('a', 'k2', 1))).data).toMatchObject({ quota: 'maxDataKeys', limit: 3, used: 3 })
      })

      it('checks the per-subject limits, naming them', async () => {
        await expect(backend.open({ maxRendersPerSubject: 0 })).rejects.toMatchObject({
          code: 'INVALID_OPTION',
          message: expect.stringMatching(/limits\.maxRendersPerSubject/),
        })
        await expect(backend.open({ maxDataKeysPerSubject: 1.5 })).rejects.toMatchObject({
          code: 'INVALID_OPTION',
          message: expect.stringMatching(/limits\.maxDataKeysPerSubject/),
        })
      })
    })

    describe('server log', () => {
      it('keeps the newest rows only, tails oldest first and filters by level', async () => {
        for (let i = 1; i <= 7; i++) await store.log(i % 2 ? 'info' : 'error', `line ${i}`, i === 7 ? { i } : undefined)
        expect((await store.tail(10)).map((e) => e.message)).toEqual(['line 3', 'line 4', 'line 5', 'line 6', 'line 7'])
        expect((await store.tail(2)).map((e) => e.message)).toEqual(['line 6', 'line 7'])
        expect((await store.tail(10, 'error')).map((e) => e.message)).toEqual(['line 4', 'line 6'])
        expect((await store.tail(1))[0]).toMatchObject({ level: 'info', data: { i: 7 } })
        const ids = (await store.tail(10)).map((e) => e.id)
        expect(ids).toEqual([...ids].sort((a, b) => a - b))
      })

      it('orders the MCP levels by severity, so a filter keeps its level and every more severe one', async () => {
        for (const level of ['emergency', 'debug', 'warning', 'notice', 'critical'] as const) await store.log(level, level)
        expect((await store.tail(10, 'warning')).map((e) => e.level)).toEqual(['emergency', 'warning', 'critical'])
        expect((await store.tail(10, 'notice')).map((e) => e.level)).toEqual(['emergency', 'warning', 'notice', 'critical'])
      })

      it("counts each subject's log ids on their own: another's logging does not move them, and the cap's trim never makes one repeat", async () => {
        const alice = store.forSubject('alice')
        const bob = store.forSubject('bob')
        expect((await alice.log('info', 'a1')).id).toBe(1)
        for (let i = 0; i < 12; i++) await bob.log('info', `b${i}`)
        expect((await alice.log('info', 'a2')).id).toBe(2)
        // Bob's 12 rows were trimmed to the newest 5 (maxLogRows); his numbers go on from 12, not from what is left.
        expect((await bob.tail(10)).map((e) => e.id)).toEqual([8, 9, 10, 11, 12])
        expect((await bob.log('info', 'b12')).id).toBe(13)
        expect((await alice.tail(10)).map((e) => [e.id, e.message])).toEqual([
          [1, 'a1'],
          [2, 'a2'],
        ])
        expect((await store.log('info', 'shared')).id).toBe(1)
      })

      it('returns what it wrote, with text that needs escaping intact', async () => {
        const message = 'quote " backslash \\ newline \n emoji 😀'
        const written = await store.log('notice', message, { nested: [1, 'two', null] })
        expect(written).toEqual({ id: expect.any(Number), at: expect.any(Number), level: 'notice', message, data: { nested: [1, 'two', null] } })
        expect(await store.tail(1)).toEqual([written])
      })
    })
  })
}
