// duet dev's connection to a server over Streamable HTTP, on a real child process (the hand-written
// server of duet check's hostile cases, with --http): an answer past the cap is refused while it
// arrives, the call fails with the reason and the connection comes back for the next call; an answer
// just under the cap is read whole. Before, duet dev read an answer of any size whole.
import type { ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { MAX_MESSAGE_BYTES, ServerConnection } from '../../src/dev/connections.js'
import { startHostileHttp } from '../check/fixtures/hostile-http.js'

let open: ServerConnection[] = []
let children: ChildProcess[] = []
afterEach(async () => {
  await Promise.all(open.map((c) => c.close()))
  for (const child of children) child.kill('SIGKILL')
  open = []
  children = []
})

/** Starts the hostile server over HTTP (stopped after the test) and resolves with its URL. */
async function startServer(args: string[]): Promise<string> {
  const { url, child } = await startHostileHttp(args)
  children.push(child)
  return url
}

async function connect(url: string, pollMs = 60_000) {
  const conn = new ServerConnection('s1', { kind: 'http', url }, { pollMs, emit: () => {} })
  open.push(conn)
  await conn.start()
  expect(conn.snapshot()).toMatchObject({ status: 'connected', error: undefined })
  return conn
}

describe('duet dev and an HTTP server', { timeout: 30_000 }, () => {
  it('refuses an answer past its cap before the answer ends, says why, and reconnects for the next call', async () => {
    // A poll of 200 ms: the watch loop's retry is what brings the connection back.
    const conn = await connect(await startServer(['--mode', 'huge', '--view-bytes', String(MAX_MESSAGE_BYTES * 4)]), 200)
    const refused = await conn.request('resources/read', { uri: 'ui://hostile/view.html' }).catch((err: unknown) => err)
    expect(refused).toMatchObject({ code: 'TOO_LARGE', data: { limit: MAX_MESSAGE_BYTES, size: expect.any(Number) } })
    // Refused as the bytes arrived: well before the 40 MiB answer could have ended.
    expect((refused as { data: { size: number } }).data.size).toBeLessThan(MAX_MESSAGE_BYTES * 2)
    expect((refused as Error).message).toContain(`past ${MAX_MESSAGE_BYTES} bytes`)

    await vi.waitFor(() => expect(conn.snapshot()).toMatchObject({ status: 'connected', error: undefined }), { timeout: 10_000, interval: 50 })
    expect(await conn.request('tools/call', { name: 'show', arguments: {} })).toMatchObject({ content: [{ type: 'text', text: 'shown' }] })
  })

  it('reads a view just under the cap whole', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'duet-http-'))
    try {
      const view = `<!doctype html><p>${'y'.repeat(MAX_MESSAGE_BYTES - 1000)}</p>`
      writeFileSync(join(dir, 'view.html'), view)
      const conn = await connect(await startServer(['--mode', 'ok', '--view-file', join(dir, 'view.html')]))
      const read = (await conn.request('resources/read', { uri: 'ui://hostile/view.html' })) as { contents: Array<{ text: string }> }
      expect(read.contents[0].text).toBe(view)
      expect(conn.snapshot().status).toBe('connected')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
