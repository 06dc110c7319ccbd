// What the view and the server agree on about channels. Both sides check ids against the same
// pattern, so a bad id is one clear error wherever it is caught first.

/** The `_meta` key a server may use instead of `structuredContent.channel_id` to name the render's channel. */
export const CHANNEL_META_KEY = 'duet/channel_id'

/**
 * Every channel id: 1–64 letters, digits, `-` or `_`. Ids become Redis keys and SQLite values, never
 * paths, but keeping them to this alphabet means any future use as a file name stays safe and logs
 * stay readable.
 */
export const CHANNEL_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/

/** The prefix of ids the server mints; it keeps an id from starting with '-', which a command line reads as an option. */
export const MINTED_CHANNEL_PREFIX = 'ch_'

/** True for an id the channel tools accept. */
export const isChannelId = (id: unknown): id is string => typeof id === 'string' && CHANNEL_ID_PATTERN.test(id)
