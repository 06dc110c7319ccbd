import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect } from 'vitest'
import { openChannelStore } from '../../src/channel/index.js'
import { SQLITE_FILE, SQLITE_SUBDIR } from '../../src/channel/sqlite-store.js'

/**
 * Sends `count` messages on a fresh channel of the SQLite store in `dir`, the one at index `bad` carrying a
 * marker, then flips one byte of that row in the real file: the opening quote before the marker, which
 * breaks that row's JSON and nothing else. Returns the channel id and the ids sent.
 */
export async function storeWithOneCorruptRow(dir: string, count: number, bad: number): Promise<{ id: string; ids: string[] }> {
  const store = await openChannelStore({ dataDir: dir })
  const id = await store.open()
  const ids: string[] = []
  for (let i = 0; i < count; i++) ids.push(await store.send(id, 'app-to-agent', { event: 'e', data: { i, mark: i === bad ? 'POISON-MARK' : 'fine' } }))
  // Closing checkpoints the WAL into the main file, where the byte is flipped.
  await store.dispose()
  const file = join(dir, SQLITE_SUBDIR, SQLITE_FILE)
  const bytes = readFileSync(file)
  const at = bytes.indexOf('POISON-MARK')
  expect(at).toBeGreaterThan(0)
  expect(bytes.indexOf('POISON-MARK', at + 1)).toBe(-1)
  bytes[at - 1] ^= 0x01
  writeFileSync(file, bytes)
  return { id, ids }
}
