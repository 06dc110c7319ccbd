import { createHash, randomUUID } from 'node:crypto'
import { isInputRequiredResult, type CallToolResult, type InputRequiredResult } from '@modelcontextprotocol/server'
import { VIEW_STATE_TOOL, VIEW_UUID_META_KEY } from 'duetkit/protocol'
import * as z from 'zod'
import { DuetError, invalidOption } from './errors.js'
import { BoundedMap } from './bounded-map.js'
import { callerOf, type SubjectContext, subjectOf } from './subject.js'
import { guarded } from './tool-error.js'

// The wire names, one copy for both sides (duetkit/protocol).
export { VIEW_STATE_TOOL, VIEW_UUID_META_KEY }

/** Where kept view states live. Values are JSON texts already checked for size. */
export interface ViewStateStore {
  get(viewUUID: string): string | undefined | Promise<string | undefined>
  /**
   * `owner`: whose state it is (`sub:<subject>`, else `address:<client address>`, else `local`), for a
   * store that bounds each user's share; the key already carries the subject where there is one.
   */
  put(viewUUID: string, json: string, owner: string): void | Promise<void>
}

/** Options of the view-state fallback: `createAppServer({ viewState })`. */
export interface ViewStateOptions {
  /** Where states are kept. Default: in memory, the `maxEntries` most recently written. */
  store?: ViewStateStore
  /** The largest state accepted, in bytes of its JSON text. Default 16 384. */
  maxBytes?: number
  /** For the default in-memory store: how many states it keeps. Default 10 000. */
  maxEntries?: number
  /**
   * For the default in-memory store: how many states one user (token subject, else client address) keeps;
   * past it, that user's least recently written state goes, never another user's. Default 1000.
   */
  maxEntriesPerSubject?: number
}

// A UUID as randomUUID makes them, or any id a host-independent server might mint: no path or key tricks.
const VIEW_UUID = /^[A-Za-z0-9_-]{8,128}$/

/** A fresh view instance id for one app tool result. */
export const newViewUUID = (): string => randomUUID()

/** Adds a fresh `_meta.viewUUID` to an app tool's result, keeping any `_meta` the handler set. */
export function withViewUUID(result: CallToolResult | InputRequiredResult): CallToolResult | InputRequiredResult {
  // A request for input is not the result a view shows: the final answer gets the id.
  if (!result || typeof result !== 'object' || isInputRequiredResult(result) || result.isError === true) return result
  const meta = result._meta
  if (meta && typeof meta[VIEW_UUID_META_KEY] === 'string') return result
  return { ...result, _meta: { ...meta, [VIEW_UUID_META_KEY]: newViewUUID() } }
}

/**
 * The default store: bounded per user and in all. A user's write past their share forgets their own least
 * recently written state; past the total, the user holding the most loses one (see BoundedMap).
 */
export function memoryViewStateStore(maxEntries = 10_000, maxEntriesPerSubject = 1000): ViewStateStore {
  const states = new BoundedMap<string, string>({ maxEntries, maxPerGroup: maxEntriesPerSubject })
  return {
    get: (id) => states.peek(id),
    put(id, json, owner) {
      states.set(id, json, owner)
    },
  }
}

/** Checks the option once, at `createAppServer`, and returns the store and size limit to serve with. */
export function resolveViewState(option: ViewStateOptions | false | undefined): { store: ViewStateStore; maxBytes: number } | undefined {
  if (option === false) return undefined
  const where = 'createAppServer'
  const o = option ?? {}
  if (typeof o !== 'object' || o === null) invalidOption(where, 'viewState', 'must be false or { store?, maxBytes?, maxEntries?, maxEntriesPerSubject? }')
  const positive = (name: string, v: unknown) => {
    if (v !== undefined && !(Number.isInteger(v) && (v as number) > 0)) invalidOption(where, `viewState.${name}`, 'must be a positive integer')
  }
  positive('maxBytes', o.maxBytes)
  positive('maxEntries', o.maxEntries)
  positive('maxEntriesPerSubject', o.maxEntriesPerSubject)
  if (o.store !== undefined && (typeof o.store?.get !== 'function' || typeof o.store?.put !== 'function'))
    invalidOption(where, 'viewState.store', 'must have get(viewUUID) and put(viewUUID, json)')
  return { store: o.store ?? memoryViewStateStore(o.maxEntries, o.maxEntriesPerSubject), maxBytes: o.maxBytes ?? 16_384 }
}

export const viewStateInput = {
  op: z.enum(['get', 'put']).describe("'get' the kept state, or 'put' a new one"),
  viewUUID: z.string().regex(VIEW_UUID, 'must be 8-128 letters, digits, _ or -').describe('The _meta.viewUUID of the tool result the view shows'),
  state: z.unknown().optional().describe("With 'put': the state to keep (JSON)"),
}

/** The tool body: `get` answers `{ state }` (`null` when none is kept), `put` keeps a state. */
// With auth, a view's state belongs to its user: another subject who learns the viewUUID reads and
// overwrites its own slot, never this one. Without a subject the key is the viewUUID as before.
const stateKey = (viewUUID: string, ctx: SubjectContext | undefined): string => {
  const sub = subjectOf(ctx)
  return sub === undefined ? viewUUID : `${createHash('sha256').update(sub).digest('base64url').slice(0, 22)}.${viewUUID}`
}

export function viewStateHandler(resolved: { store: ViewStateStore; maxBytes: number }) {
  return (args: { op: 'get' | 'put'; viewUUID: string; state?: unknown }, ctx?: SubjectContext): Promise<CallToolResult> =>
    guarded(async () => {
      const key = stateKey(args.viewUUID, ctx)
      if (args.op === 'get') {
        const json = await resolved.store.get(key)
        const state = json === undefined ? null : (JSON.parse(json) as unknown)
        return { content: [{ type: 'text', text: state === null ? 'No state kept' : 'State found' }], structuredContent: { state } }
      }
      if (args.state === undefined) throw new DuetError('INVALID_ARGUMENT', "duet_view_state: 'put' needs a state. Send { op: 'put', viewUUID, state }.")
      const json = JSON.stringify(args.state)
      const size = Buffer.byteLength(json)
      if (size > resolved.maxBytes)
        throw new DuetError(
          'TOO_LARGE',
          `duet_view_state: the state is ${size} bytes, over the ${resolved.maxBytes}-byte limit. Keep fewer keys (App.persist).`,
          {
            field: 'state',
            size,
            limit: resolved.maxBytes,
          },
        )
      await resolved.store.put(key, json, callerOf(ctx))
      return { content: [{ type: 'text', text: 'State kept' }], structuredContent: { state: args.state } }
    })
}
