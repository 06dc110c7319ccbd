// The capped stdio transport `duet check` and `duet dev` talk to a stdio server with, on real child processes:
// messages split across chunks or sharing one arrive whole and in order, a line over the cap is
// refused as its bytes arrive (before its end of line) and ends the process; the server's stderr is piped only when asked.
import type { JSONRPCMessage } from '@modelcontextprotocol/client'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { CappedStdioTransport } from '../../src/dev/stdio-transport.js'

let open: CappedStdioTransport[] = []
afterEach(async () => {
  await Promise.all(open.map((t) => t.close()))
  open = []
})

// A node process running `script`, with the transport's events recorded.
async function start(script: string, maxLineBytes = 1 << 20) {
  const got: JSONRPCMessage[] = []
  const errors: string[] = []
  const tooLarge: number[] = []
  let closed = false
  const t = new CappedStdioTransport({ command: process.execPath, args: ['-e', script], maxLineBytes, onTooLarge: (n) => tooLarge.push(n) })
  t.onmessage = (m) => got.push(m)
  t.onerror = (e) => errors.push(e.message)
  t.onclose = () => {
    closed = true
  }
  open.push(t)
  await t.start()
  return { t, got, errors, tooLarge, closed: () => closed }
}

// Vitest's own polling, with room for a loaded machine.
const until = (assertion: () => void) => vi.waitFor(assertion, { timeout: 10_000, interval: 10 })

describe('CappedStdioTransport', () => {
  it('delivers a message written in many pieces and two messages written in one, skipping a line that is not JSON', async () => {
    const script = `
      const m = (id) => JSON.stringify({ jsonrpc: '2.0', id, result: { text: 'y'.repeat(200000) } })
      const one = m(1)
      let i = 0
      const pieces = () => { if (i >= one.length) { process.stdout.write('\\nnot json, a log line\\n' + m(2) + '\\n' + m(3) + '\\n'); return }
        process.stdout.write(one.slice(i, i + 1000), () => setImmediate(pieces)); i += 1000 }
      pieces()
      process.stdin.resume()`
    const s = await start(script)
    await until(() => expect(s.got).toHaveLength(3))
    expect(s.got.map((m) => ('id' in m ? m.id : null))).toEqual([1, 2, 3])
    expect((s.got[0] as unknown as { result: { text: string } }).result.text).toHaveLength(200000)
    expect(s.errors).toEqual([])
    expect(s.tooLarge).toEqual([])
  })

  it('sends a message the process reads as one line of JSON', async () => {
    const s = await start(`
      let b = ''
      process.stdin.on('data', (c) => { b += c; const i = b.indexOf('\\n'); if (i < 0) return
        const m = JSON.parse(b.slice(0, i)); process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { echoed: m.method } }) + '\\n') })`)
    await s.t.send({ jsonrpc: '2.0', id: 7, method: 'ping' })
    await until(() => expect(s.got).toHaveLength(1))
    expect(s.got[0]).toEqual({ jsonrpc: '2.0', id: 7, result: { echoed: 'ping' } })
  })

  it('refuses a line past the cap before its end of line and ends the process', async () => {
    // Writes forever without an end of line: only a refusal as the bytes arrive can end it.
    const s = await start(
      `const c = 'x'.repeat(65536); const w = () => process.stdout.write(c, w); process.stdout.write('{"jsonrpc":"2.0","id":1,"result":{"t":"'); w()`,
      1 << 20,
    )
    await until(() => expect(s.closed()).toBe(true))
    expect(s.tooLarge).toHaveLength(1)
    expect(s.tooLarge[0]).toBeGreaterThan(1 << 20)
    expect(s.errors).toEqual([`a message went past ${1 << 20} bytes before its end of line`])
    expect(s.got).toEqual([])
    expect(s.t.pid).toBeNull()
  })

  it('refuses a line whose end of line comes past the cap, delivering the message before it', async () => {
    const s = await start(
      `
      process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: 1, result: {} }) + '\\n' + '{"jsonrpc":"2.0","id":2,"result":{"t":"' + 'x'.repeat(3000) + '"}}\\n')
      process.stdin.resume()`,
      2000,
    )
    await until(() => expect(s.closed()).toBe(true))
    expect(s.got).toEqual([{ jsonrpc: '2.0', id: 1, result: {} }])
    expect(s.tooLarge).toHaveLength(1)
  })

  it("hands the server's stderr on from its first byte when asked to pipe it, and ignores it by default", async () => {
    const script = `process.stderr.write('early line\\n'); process.stdin.resume()`
    const piped = new CappedStdioTransport({ command: process.execPath, args: ['-e', script], maxLineBytes: 100, onTooLarge: () => {}, stderr: 'pipe' })
    open.push(piped)
    let text = ''
    // Listening before start, as duet dev does: nothing written before the first listener is lost.
    piped.stderr?.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8')
    })
    await piped.start()
    await until(() => expect(text).toBe('early line\n'))
    const ignored = new CappedStdioTransport({ command: process.execPath, args: ['-e', script], maxLineBytes: 100, onTooLarge: () => {} })
    open.push(ignored)
    expect(ignored.stderr).toBeNull()
  })

  it('fails start for a command that does not exist', async () => {
    const t = new CappedStdioTransport({ command: '/nonexistent/duet-test-server', args: [], maxLineBytes: 100, onTooLarge: () => {} })
    await expect(t.start()).rejects.toThrow(/ENOENT/)
  })
})
