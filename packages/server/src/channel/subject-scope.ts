import { createHash } from 'node:crypto'
import { DuetError, isDuetError } from 'duetkit/protocol'
import { callerScope } from '../server/subject.js'
import {
  checkPublicChannelId,
  ownerOf,
  type ChannelStore,
  type Direction,
  type DrainOptions,
  type OutgoingMessage,
  type ReadOptions,
  type SetAsideEvent,
} from './store.js'

/**
 * The space of one authenticated subject (the `sub` of its access token): `s` and 22 URL-safe characters of a
 * SHA-256 of the subject. A hash, not the subject itself, so keys and rows carry no e-mail address or user
 * name and have one fixed shape; 132 bits, so two subjects never share a space.
 */
export function subjectScope(subject: string): string {
  return `s${createHash('sha256').update(`duet-subject\0${subject}`).digest('base64url').slice(0, 22)}`
}

/**
 * The quota space of one client address, for a server without auth: `a` and 22 URL-safe characters of a
 * SHA-256 of the address. Only quotas and evictions are kept per address; the data stays in the shared space
 * (an address is not an identity: several users can share one, one user can have several).
 */
export function addressScope(address: string): string {
  return `a${createHash('sha256').update(`duet-address\0${address}`).digest('base64url').slice(0, 22)}`
}

/**
 * The owner the request being served is charged to in the shared space: its client address's space over HTTP
 * without auth, else none (with a subject, the subject's scope is the owner; over stdio there is one user).
 */
export function addressOwner(): string | undefined {
  const caller = callerScope.getStore()
  return caller?.startsWith('address:') ? addressScope(caller.slice('address:'.length)) : undefined
}

/** Checks a subject as callers hand it over: a non-empty string, or undefined for the shared space. */
export function checkSubject(subject: unknown, where: string): string | undefined {
  if (subject === undefined) return undefined
  if (typeof subject !== 'string' || subject.length === 0) {
    throw new DuetError('INVALID_OPTION', `${where}: subject must be a non-empty string (the token's sub) or undefined, got ${JSON.stringify(subject)}.`, {
      option: 'subject',
    })
  }
  return subject
}

/**
 * The store key a subject's channel id is kept under: `<scope>.<id>`. Without a subject, the id itself (the
 * shared space every caller had before authorization, so existing channels stay readable).
 */
export function channelKey(subject: string | undefined, id: string): string {
  return subject === undefined ? id : `${subjectScope(subject)}.${id}`
}

/**
 * The channel store as one subject sees it: every id it passes is kept under its own scope, so another subject
 * using the same id — even a leaked minted `ch_…` id — reaches a different key: UNKNOWN_CHANNEL for a minted id
 * (no store minted it in that space), a separate channel for an agent-picked one. Ids are checked as public ids,
 * so no caller can name another space's key. Errors name the id the caller used. With `subject` undefined it is
 * the shared space: the same keys as the store itself.
 *
 * Quotas: a subject's channels count against the per-subject quotas as well as the store's. In the shared space,
 * `owner` (an `addressScope`, without auth) is charged for the channels this view creates; without it only the
 * store-wide quotas apply. `stats` reports the subject's (or the owner's) own use, never the store's totals.
 */
export function scopeChannelStore(store: ChannelStore, subject: string | undefined, owner?: string): ChannelStore {
  checkSubject(subject, 'scopeChannelStore')
  const scope = subject === undefined ? undefined : subjectScope(subject)
  const charged = scope ?? (owner === undefined ? undefined : ownerOf('', owner))
  const key = (id: string) => (scope === undefined ? checkPublicChannelId(id) : `${scope}.${checkPublicChannelId(id)}`)
  /** Runs a store call on a key, putting the caller's id back into any error message that names the key. */
  const on = async <T>(id: string, work: (k: string) => Promise<T>): Promise<T> => {
    const k = key(id)
    try {
      return await work(k)
    } catch (err) {
      if (scope === undefined) throw err
      // Most likely the id of another user's channel (or a typo), rarely another store: say so in the caller's terms.
      if (isDuetError(err) && err.code === 'UNKNOWN_CHANNEL') throw notYours(id, err)
      throw withPublicId(err, k, id)
    }
  }
  return {
    backend: store.backend,
    async open() {
      const k = await store.open(scope, charged)
      return scope === undefined ? k : k.slice(scope.length + 1)
    },
    send: (id: string, direction: Direction, message: OutgoingMessage) => on(id, (k) => store.send(k, direction, message, charged)),
    drain: (id: string, direction: Direction, options?: DrainOptions) => on(id, (k) => store.drain(k, direction, { ...options, owner: charged })),
    read: (id: string, direction: Direction, options?: ReadOptions) => on(id, (k) => store.read(k, direction, { ...options, owner: charged })),
    ack: (id: string, direction: Direction, upTo: string) => on(id, (k) => store.ack(k, direction, upTo, charged)),
    // One caller's own use: another tenant's (or the store's total) is none of its business.
    stats: () => (charged === undefined ? store.stats() : store.stats(charged)),
    appSeen: (id: string) => on(id, (k) => store.appSeen(k)),
    onSetAside(listener: (event: SetAsideEvent) => void) {
      if (scope === undefined) return store.onSetAside(listener)
      const prefix = `${scope}.`
      return store.onSetAside((event) => {
        if (event.channelId.startsWith(prefix)) listener({ ...event, channelId: event.channelId.slice(prefix.length) })
      })
    },
    peek: (id: string, direction: Direction) => on(id, (k) => store.peek(k, direction)),
    waitForMail: (id: string, direction: Direction, waitMs: number, signal?: AbortSignal) => on(id, (k) => store.waitForMail(k, direction, waitMs, signal)),
    close: (id: string) => on(id, (k) => store.close(k)),
    // Expiry and connections belong to the store, which the server disposes once, not to one caller's view.
    sweep: () => store.sweep(),
    async dispose() {},
  }
}

/** UNKNOWN_CHANNEL for a minted id that the caller's own space does not hold. */
function notYours(id: string, cause: unknown): DuetError {
  return new DuetError(
    'UNKNOWN_CHANNEL',
    `Channel '${id}' is not one of yours: this server keeps each signed-in user's channels apart, and none of yours has that id (an id from another user, a mistyped one, or one from another store). Use the channel_id your own open_channel or display call returned, or open a new channel.`,
    { field: 'channel_id' },
    { cause },
  )
}

/** The same error with the store key replaced by the id the caller knows, in its message and data (a key would reveal the scope). */
export function withPublicId(err: unknown, key: string, id: string): unknown {
  if (!isDuetError(err) || key === id) return err
  const data = err.data && Object.fromEntries(Object.entries(err.data).map(([name, value]) => [name, value === key ? id : value]))
  if (!err.message.includes(key) && JSON.stringify(data) === JSON.stringify(err.data)) return err
  return new DuetError(err.code, err.message.split(key).join(id), data, { cause: err.cause })
}
