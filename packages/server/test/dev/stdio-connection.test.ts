// duet dev's connection to a server it spawns over stdio, on a real child process (the hand-written
// server of duet check's hostile cases): a server that exits during a call fails the call at once and
// shows as down, its stderr reaching the log; a message past the cap is refused as it arrives, the
// server ended and the reason shown. Before, both calls waited out the SDK's 60 s request timeout:
// the first because the connection's close handler replaced the client's own, the second because the
// SDK's reader drops what it holds past its cap and reads on.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { type ConnectionEvent, MAX_MESSAGE_BYTES, ServerConnection } from '../../src/dev/connections.js'
import { HOSTILE } from '../check/fixtures/hostile-http.js'

let open: ServerConnection[] = []
afterEach(async () => {
  await Promise.all(open.map((c) => c.close()))
  open = []
})

async function connect(args: string[]) {
  const events: ConnectionEvent[] = []
  // A poll of a minute: no retry or ping of the loop's own runs during a test.
  const conn = new ServerConnection(
    's1',
    { kind: 'stdio', command: process.execPath, args: [HOSTILE, ...args], line: 'hostile' },
    { pollMs: 60_000, emit: (e) => events.push(e) },
  )
  open.push(conn)
  await conn.start()
  expect(conn.snapshot()).toMatchObject({ status: 'connected', error: undefined })
  return { conn, events }
}

describe('duet dev and a stdio server', { timeout: 30_000 }, () => {
  it('fails a call in flight when the server exits, shows the server as down, and logs what it wrote on stderr', async () => {
    const { conn, events } = await connect(['--mode', 'exits-on-call'])
    await expect(conn.request('tools/call', { name: 'show', arguments: {} })).rejects.toThrow(/closed/i)
    expect(conn.snapshot()).toMatchObject({ status: 'error', error: expect.stringMatching(/closed/) })
    await vi.waitFor(() =>
      expect(events).toContainEqual(expect.objectContaining({ type: 'log', source: 'stderr', data: expect.stringContaining('exiting at tools/call') })),
    )
  })

  it('refuses a message past its cap before the message ends, ends the server and says why', async () => {
    const { conn } = await connect(['--mode', 'huge', '--view-bytes', String(MAX_MESSAGE_BYTES * 4)])
    const refused = await conn.request('resources/read', { uri: 'ui://hostile/view.html' }).catch((err: unknown) => err)
    expect(refused).toMatchObject({ code: 'TOO_LARGE', data: { limit: MAX_MESSAGE_BYTES, size: expect.any(Number) } })
    // Refused as the bytes arrived: well before the 40 MiB message could have ended.
    expect((refused as { data: { size: number } }).data.size).toBeLessThan(MAX_MESSAGE_BYTES * 2)
    expect(conn.snapshot()).toMatchObject({ status: 'error', error: expect.stringContaining(`past ${MAX_MESSAGE_BYTES} bytes`) })
  })

  it('reads a view just under the cap whole', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'duet-stdio-'))
    try {
      const view = `<!doctype html><p>${'y'.repeat(MAX_MESSAGE_BYTES - 1000)}</p>`
      writeFileSync(join(dir, 'view.html'), view)
      const { conn } = await connect(['--mode', 'ok', '--view-file', join(dir, 'view.html')])
      const read = (await conn.request('resources/read', { uri: 'ui://hostile/view.html' })) as { contents: Array<{ text: string }> }
      expect(read.contents[0].text).toBe(view)
      expect(conn.snapshot().status).toBe('connected')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
