import { afterEach, describe, expect, it } from 'vitest'
import { scopeChannelStore, type ChannelStore } from '../../src/channel/index.js'
import { caught } from '../apps/store.case.js'

/** A backend under test: `open()` gives two stores on the same data, as two server processes or replicas would. */
export interface ScopeBackend {
  name: string
  open(): Promise<{ stores: [ChannelStore, ChannelStore]; done: () => Promise<void> }>
}

export function describeChannelScope(backend: ScopeBackend): void {
  describe(`channels apart per subject: ${backend.name}`, () => {
    let stores: [ChannelStore, ChannelStore]
    let done: () => Promise<void>
    afterEach(async () => {
      await done?.()
    })
    const setup = async () => {
      ;({ stores, done } = await backend.open())
      return {
        alice: scopeChannelStore(stores[0], 'alice'),
        // Bob is served by the other process: isolation may not depend on which replica answers.
        bob: scopeChannelStore(stores[1], 'bob'),
        aliceElsewhere: scopeChannelStore(stores[1], 'alice'),
        shared: stores[0],
      }
    }

    it('another subject using a minted id (even leaked) gets UNKNOWN_CHANNEL for every operation and reads nothing', async () => {
      const { alice, bob } = await setup()
      const id = await alice.open()
      expect(id).toMatch(/^ch_[A-Za-z0-9_-]{24}$/)
      await alice.send(id, 'app-to-agent', { event: 'secret', data: 'for alice' })
      await alice.send(id, 'agent-to-app', { event: 'secret', data: 'for alice' })
      for (const attempt of [
        bob.read(id, 'app-to-agent'),
        bob.read(id, 'app-to-agent', { after: '0' }),
        bob.read(id, 'agent-to-app', { since: '0' }),
        bob.drain(id, 'app-to-agent'),
        bob.send(id, 'agent-to-app', { event: 'forged' }),
        bob.ack(id, 'app-to-agent', '1'),
      ]) {
        const err = await caught(attempt)
        expect(err.code).toBe('UNKNOWN_CHANNEL')
        // The message names the id the caller used, never the owner's internal key.
        expect(err.message).toContain(`'${id}'`)
        expect(err.message).not.toMatch(/s[A-Za-z0-9_-]{22}\./)
      }
      // Peek/wait/close of an unknown minted id fail too, or at least reveal and change nothing.
      expect(await bob.peek(id, 'app-to-agent').catch(() => 0)).toBe(0)
      expect(await bob.waitForMail(id, 'app-to-agent', 0).catch(() => 0)).toBe(0)
      await bob.close(id).catch(() => {})
      // Alice still has both messages, untouched by bob's attempts.
      expect((await alice.read(id, 'app-to-agent')).map((m) => m.data)).toEqual(['for alice'])
      expect((await alice.read(id, 'agent-to-app')).map((m) => m.event)).toEqual(['secret'])
    })

    it('an agent-picked id is a separate channel per subject', async () => {
      const { alice, bob } = await setup()
      await alice.send('ch-shared-name', 'app-to-agent', { event: 'a', data: 1 })
      await bob.send('ch-shared-name', 'app-to-agent', { event: 'b', data: 2 })
      expect((await alice.drain('ch-shared-name', 'app-to-agent')).map((m) => m.event)).toEqual(['a'])
      expect((await bob.drain('ch-shared-name', 'app-to-agent')).map((m) => m.event)).toEqual(['b'])
      await bob.close('ch-shared-name')
      expect(await alice.send('ch-shared-name', 'app-to-agent', { event: 'still open' })).toMatch(/^\d+$/)
    })

    it('the same subject on another process sees its own channel and messages', async () => {
      const { alice, aliceElsewhere } = await setup()
      const id = await alice.open()
      await alice.send(id, 'app-to-agent', { event: 'hello', data: { n: 1 } })
      expect(await aliceElsewhere.peek(id, 'app-to-agent')).toBe(1)
      const [message] = await aliceElsewhere.read(id, 'app-to-agent', { after: '0' })
      expect(message).toMatchObject({ event: 'hello', data: { n: 1 } })
      await aliceElsewhere.ack(id, 'app-to-agent', message!.id)
      expect(await alice.peek(id, 'app-to-agent')).toBe(0)
    })

    it("the shared space (no subject) can reach neither a subject's channel nor its internal key", async () => {
      const { alice, shared } = await setup()
      const id = await alice.open()
      await alice.send(id, 'app-to-agent', { event: 'secret' })
      expect((await caught(shared.read(id, 'app-to-agent'))).code).toBe('UNKNOWN_CHANNEL')
      // Even a caller who learnt the internal form cannot pass it through a scoped (tool-facing) store.
      const unscoped = scopeChannelStore(shared, undefined)
      const bob = scopeChannelStore(shared, 'bob')
      for (const forged of [`s${'A'.repeat(22)}.${id}`, `${id}.x`, `alice.${id}`]) {
        expect((await caught(unscoped.read(forged, 'app-to-agent'))).code).toBe('BAD_CHANNEL_ID')
        expect((await caught(bob.read(forged, 'app-to-agent'))).code).toBe('BAD_CHANNEL_ID')
      }
      expect(await alice.peek(id, 'app-to-agent')).toBe(1)
    })

    it('without a subject the store behaves as before: ids minted there stay readable there', async () => {
      const { shared } = await setup()
      const unscoped = scopeChannelStore(shared, undefined)
      const id = await shared.open()
      await shared.send(id, 'app-to-agent', { event: 'old' })
      expect((await unscoped.drain(id, 'app-to-agent')).map((m) => m.event)).toEqual(['old'])
      const own = await unscoped.open()
      expect(own).toMatch(/^ch_/)
      await unscoped.send(own, 'agent-to-app', { event: 'x' })
      expect(await shared.peek(own, 'agent-to-app')).toBe(1)
    })

    it('a bad subject is refused naming it', async () => {
      const { shared } = await setup()
      for (const bad of ['', 42, null]) {
        expect(() => scopeChannelStore(shared, bad as never)).toThrow(/subject/)
      }
    })
  })
}
