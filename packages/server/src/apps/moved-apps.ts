// Which channel a saved app moved to when load_app showed it again. An agent that answers on the channel it
// remembers (the one save_app was given) would write to the older copy while the user works in the new one,
// whose view then waits forever: notify_ui names the new channel instead (channel/tools.ts). Kept per
// subject, in memory, bounded in total and per subject, like every table the server keeps for its users.
import { createHash } from 'node:crypto'
import { BoundedMap } from '../server/bounded-map.js'
import type { RenderInput } from './render-store.js'

/** Where an app shown on a channel was shown again by load_app. */
export interface MovedApp {
  /** The newest channel the app is shown on. */
  channel_id: string
  /** The saved app's name. */
  name: string
}

const MAX_ENTRIES = 20_000
const MAX_PER_SUBJECT = 500
/** Loads of loads: far more than any conversation makes; it only stops a cycle from looping. */
const MAX_HOPS = 50

const keyOf = (subject: string | undefined, part: string) => `${subject ?? ''}\0${part}`

/** The same app, whatever its channel: its kind, body and props. */
function contentOf(input: RenderInput): string {
  const body = input.kind === 'html' ? input.html : input.source
  return createHash('sha256')
    .update(`${input.kind}\0${body ?? ''}\0${JSON.stringify(input.props ?? {})}`)
    .digest('base64url')
}

/** The renders of each subject by content, and the channels load_app moved an app away from. */
export class MovedApps {
  readonly #newest = new BoundedMap<string, string>({ maxEntries: MAX_ENTRIES, maxPerGroup: MAX_PER_SUBJECT })
  readonly #moved = new BoundedMap<string, MovedApp>({ maxEntries: MAX_ENTRIES, maxPerGroup: MAX_PER_SUBJECT })

  /** Every render: `channelId` is now the newest channel showing this content. */
  shown(subject: string | undefined, channelId: string, input: RenderInput): void {
    this.#newest.set(keyOf(subject, contentOf(input)), channelId, subject ?? '')
  }

  /** The newest channel showing this content, before load_app shows it again. */
  newestOf(subject: string | undefined, input: RenderInput): string | undefined {
    return this.#newest.peek(keyOf(subject, contentOf(input)))
  }

  /** load_app showed the saved app `name` on `channelId`; the copy on `previous` is the older one now. */
  loaded(subject: string | undefined, previous: string | undefined, channelId: string, name: string): void {
    if (previous === undefined || previous === channelId) return
    this.#moved.set(keyOf(subject, previous), { channel_id: channelId, name }, subject ?? '')
  }

  /** Where the app last shown on `channelId` went, following later loads; undefined if it never moved. */
  movedTo(subject: string | undefined, channelId: string): MovedApp | undefined {
    let found: MovedApp | undefined
    for (let hop = 0, at = channelId; hop < MAX_HOPS; hop++) {
      const next = this.#moved.peek(keyOf(subject, at))
      if (!next || next.channel_id === channelId) break
      found = next
      at = next.channel_id
    }
    return found
  }
}
