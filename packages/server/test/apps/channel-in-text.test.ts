// The display shell reads the channel from the tool's text when a host dropped structuredContent and
// _meta (unit level; in a real browser with such a host: e2e-hosts.test.ts).
import { describe, expect, it } from 'vitest'
import { CHANNEL_SENTENCE, channelInText } from '../../src/apps/shell/channel-in-text.js'
import { mintChannelId } from '../../src/channel/store.js'

const text = (id: string) => `Showing the fragment to the user. ${CHANNEL_SENTENCE} ${id} (fresh for this render; an older copy of the app keeps its own).`

describe('the display shell reads the channel from the text', () => {
  it('reads an id whole whatever its last character, "-" included', () => {
    for (const id of ['ch_abc-', 'ch_abc_', 'ch_a-b-c', '-ch', 'x', 'A'.repeat(64)]) expect(channelInText(text(id))).toBe(id)
    // Also at the very end of the text and before a full stop.
    expect(channelInText(`${CHANNEL_SENTENCE} ch_end-`)).toBe('ch_end-')
    expect(channelInText(`${CHANNEL_SENTENCE} ch_end-.`)).toBe('ch_end-')
  })

  it('reads back every id the server mints, in the sentence the display tools write', () => {
    const ids = Array.from({ length: 2000 }, () => mintChannelId())
    // 2,000 ids: about 31 end in '-', the case a word boundary cut short.
    expect(ids.some((id) => id.endsWith('-'))).toBe(true)
    for (const id of ids) expect(channelInText(text(id))).toBe(id)
  })

  it('names no channel where the text names none, or names one longer than an id may be', () => {
    expect(channelInText('Showing the fragment to the user.')).toBeUndefined()
    expect(channelInText(`${CHANNEL_SENTENCE} ${'a'.repeat(65)}`)).toBeUndefined()
    expect(channelInText(`Nits channel is ch_x`)).toBeUndefined()
  })
})
