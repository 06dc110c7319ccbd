import { afterEach, describe, expect, it } from 'vitest'
import type { AppStore } from '../../src/apps/index.js'
import { caught } from '../apps/store.case.js'

/** A backend under test: `open()` gives two stores on the same data, as two server processes or replicas would. */
export interface AppsScopeBackend {
  name: string
  open(): Promise<{ stores: [AppStore, AppStore]; done: () => Promise<void> }>
}

/** A minted-looking channel id both subjects use. */
export const CHANNEL = 'ch_AAAAAAAAAAAAAAAAAAAAAAAA'

export function describeAppsScope(backend: AppsScopeBackend): void {
  describe(`saved apps, app data, renders and the log apart per subject: ${backend.name}`, () => {
    let done: (() => Promise<void>) | undefined
    afterEach(async () => {
      await done?.()
      done = undefined
    })
    const setup = async () => {
      const opened = await backend.open()
      done = opened.done
      const [one, two] = opened.stores
      return { alice: one.forSubject('alice'), bob: two.forSubject('bob'), aliceElsewhere: two.forSubject('alice'), shared: one.forSubject(undefined) }
    }

    it("another subject cannot read, load, list, overwrite or delete a subject's app, even knowing its name and channel", async () => {
      const { alice, bob, aliceElsewhere } = await setup()
      await alice.recordRender(CHANNEL, { kind: 'html', html: '<p>alice</p>', title: 'Mine' })
      await alice.saveApp('notes', CHANNEL, { description: 'private' })
      expect(await bob.getRender(CHANNEL)).toBeUndefined()
      expect((await caught(bob.loadApp('notes'))).code).toBe('NOT_FOUND')
      // The NOT_FOUND names the apps the caller has, never another subject's.
      expect((await caught(bob.loadApp('nope'))).message).not.toContain('notes')
      expect(await bob.listApps()).toEqual([])
      expect(await bob.deleteApp('notes')).toBe(false)
      // Bob saving from alice's channel: no render there in his space.
      expect((await caught(bob.saveApp('notes', CHANNEL, { replace: true }))).code).toBe('NOT_FOUND')
      // Bob's own app of the same name is his, and leaves alice's alone.
      await bob.recordRender(CHANNEL, { kind: 'html', html: '<p>bob</p>' })
      await bob.saveApp('notes', CHANNEL, { replace: true })
      expect((await aliceElsewhere.loadApp('notes')).html).toBe('<p>alice</p>')
      expect((await bob.loadApp('notes')).html).toBe('<p>bob</p>')
      expect((await aliceElsewhere.getRender(CHANNEL))?.html).toBe('<p>alice</p>')
      expect((await aliceElsewhere.listApps()).map((a) => a.name)).toEqual(['notes'])
      expect(await bob.deleteApp('notes')).toBe(true)
      expect((await aliceElsewhere.loadApp('notes')).description).toBe('private')
    })

    it("another subject cannot read or overwrite a subject's app data", async () => {
      const { alice, bob, aliceElsewhere } = await setup()
      await alice.putData('reader', 'pages', ['one', 'two'])
      expect((await caught(bob.getData('reader', 'pages'))).code).toBe('NOT_FOUND')
      expect((await caught(bob.getData('reader', 'other'))).message).not.toContain('pages')
      expect(await bob.dataKeys('reader')).toEqual([])
      await bob.putData('reader', 'pages', ['forged'])
      await bob.putData('reader', 'pages', ['more'], { append: true })
      expect((await aliceElsewhere.getData('reader', 'pages')).value).toEqual(['one', 'two'])
      expect((await bob.getData('reader', 'pages')).value).toEqual(['forged', 'more'])
    })

    it('the server log: each subject tails only its own rows', async () => {
      const { alice, bob, aliceElsewhere, shared } = await setup()
      await alice.log('error', 'alice failed', { channel_id: CHANNEL })
      await bob.log('info', 'bob here')
      expect((await bob.tail(50)).map((e) => e.message)).toEqual(['bob here'])
      expect((await aliceElsewhere.tail(50, 'error')).map((e) => e.message)).toEqual(['alice failed'])
      expect((await shared.tail(50)).map((e) => e.message)).toEqual([])
    })

    it('a bad subject is refused naming it', async () => {
      const opened = await backend.open()
      done = opened.done
      for (const bad of ['', 7, null]) expect(() => opened.stores[0].forSubject(bad as never)).toThrow(/subject/)
    })
  })
}
