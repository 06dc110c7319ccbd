// The display tools name the channel in their text too: a host that drops both structuredContent and
// _meta still passes the text on, so the shell reads the channel from there last.

import { isChannelId } from 'duetkit/protocol'

/** The words before the channel id in the display tools' text ("Its channel is ch_…"). */
export const CHANNEL_SENTENCE = 'Its channel is'

// The whole run of id characters after the sentence, then the one check of what an id is. A `\b`
// after a bounded run instead cut an id ending in '-' (one minted id in 64) before its last character,
// and the shell listened on no channel.
const CHANNEL_IN_TEXT = new RegExp(`\\b${CHANNEL_SENTENCE} ([A-Za-z0-9_-]+)`)

/** The channel id a display tool's text names, if it names one. */
export function channelInText(text: string): string | undefined {
  const id = CHANNEL_IN_TEXT.exec(text)?.[1]
  return isChannelId(id) ? id : undefined
}
