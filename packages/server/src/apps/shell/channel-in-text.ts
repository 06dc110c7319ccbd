// The display tools name the channel in their text too: a host that drops both structuredContent and
// _meta still passes the text on, so the shell reads the channel from there last.

/** The words before the channel id in the display tools' text ("Its channel is ch_…"). */
export const CHANNEL_SENTENCE = 'Its channel is'

// An id is 1–64 of [A-Za-z0-9_-] and ends where they end. A `\b` there instead would cut an id ending
// in '-' (one minted id in 64) before its last character, and the shell would listen on no channel.
const CHANNEL_IN_TEXT = new RegExp(`\\b${CHANNEL_SENTENCE} ([A-Za-z0-9_-]{1,64})(?![A-Za-z0-9_-])`)

/** The channel id a display tool's text names, if it names one. */
export function channelInText(text: string): string | undefined {
  return CHANNEL_IN_TEXT.exec(text)?.[1]
}
