import { spawn } from 'node:child_process'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { openSqlite } from '../../src/channel/sqlite-driver.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client } from '@modelcontextprotocol/client'
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio'
import { openChannelStore } from '../../src/channel/index.js'
import { SQLITE_FILE, SQLITE_SUBDIR } from '../../src/channel/sqlite-store.js'
import { bundle } from '../server/build-fixture.js'
import { builtDuetCli } from '../../../../test/support/built.js'
import { tempDir } from './temp-dir.js'

let bin: string
let sender: string
const data = tempDir('duet-channel-procs-')

beforeAll(async () => {
  bin = builtDuetCli()
  sender = await bundle(fileURLToPath(new URL('./fixtures/sender.ts', import.meta.url)), 'channel-sender')
})
afterAll(() => {
  if (sender) rmSync(sender, { force: true })
  data.remove()
})

type Msg = { id: string; event: string; data: { sender: number; n: number } }
type Result = { isError?: boolean; structuredContent?: Record<string, unknown>; content: Array<{ text?: string }> }

async function startServer(): Promise<Client> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [bin, 'serve', '--stdio', '--data-dir', data.dir], stderr: 'pipe' })
  const client = new Client({ name: 'channel-test', version: '1' })
  await client.connect(transport)
  return client
}

describe('channels across real server processes', () => {
  it('4 `duet serve --stdio` processes share channels: nothing lost, nothing duplicated, order kept per sender', async () => {
    const clients = await Promise.all([0, 1, 2, 3].map(() => startServer()))
    try {
      const call = async (c: Client, name: string, args: Record<string, unknown>) => {
        const r = (await c.callTool({ name, arguments: args })) as Result
        if (r.isError) throw new Error(r.content[0]?.text)
        return r.structuredContent!
      }
      const channel = (await call(clients[0], 'open_channel', {})).channel_id as string
      const perSender = 40
      // Every process sends its own numbered stream (app side), while two others drain (agent side).
      const sends = clients.map(async (c, sender) => {
        for (let n = 0; n < perSender; n++) await call(c, 'notify_agent', { channel_id: channel, event: 'n', data: { sender, n } })
      })
      const received: Msg[] = []
      let sendsDone = false
      const drainer = async (c: Client) => {
        for (;;) {
          const { messages } = (await call(c, 'poll_agent_messages', { channel_id: channel, wait_seconds: 1 })) as { messages: Msg[] }
          received.push(...messages)
          if (messages.length === 0 && sendsDone) return
        }
      }
      const drains = [drainer(clients[2]), drainer(clients[3])]
      await Promise.all(sends)
      sendsDone = true
      await Promise.all(drains)
      expect(received).toHaveLength(4 * perSender)
      expect(new Set(received.map((m) => m.id)).size).toBe(4 * perSender)
      // Ids grow with commit order; each sender's numbers must appear in that order.
      const byId = [...received].sort((a, b) => Number(a.id) - Number(b.id))
      for (let sender = 0; sender < 4; sender++) {
        expect(byId.filter((m) => m.data.sender === sender).map((m) => m.data.n)).toEqual([...Array(perSender).keys()])
      }
      // The agent-to-app direction across processes, with a waiting long-poll woken by another process.
      const waiting = call(clients[1], 'poll_ui_messages', { channel_id: channel, wait_ms: 20_000 })
      await call(clients[3], 'notify_ui', { channel_id: channel, event: 'answer', data: { text: 'hi' } })
      expect(((await waiting).messages as Msg[]).map((m) => m.event)).toEqual(['answer'])
      // Bad input comes back as tool errors and every process keeps serving.
      const bad = async (c: Client, name: string, args: Record<string, unknown>) => {
        const r = (await c.callTool({ name, arguments: args })) as Result
        expect(r.isError, name).toBe(true)
        return r.content[0]?.text ?? ''
      }
      expect(await bad(clients[0], 'notify_ui', { channel_id: '../../../etc/passwd', event: 'e' })).toMatch(/^BAD_CHANNEL_ID/)
      expect(await bad(clients[1], 'notify_agent', { channel_id: channel, event: 'e', data: 'x'.repeat(1024 * 1024) })).toMatch(
        /^TOO_LARGE: The message is \d+ bytes/,
      )
      await call(clients[2], 'close_channel', { channel_id: channel })
      expect(await bad(clients[3], 'poll_agent_messages', { channel_id: channel })).toMatch(/^CHANNEL_CLOSED/)
      for (const c of clients) expect((await call(c, 'open_channel', {})).channel_id).toMatch(/^[A-Za-z0-9_-]{22,}$/)
    } finally {
      await Promise.all(clients.map((c) => c.close()))
    }
  }, 120_000)

  it('a sender killed with SIGKILL mid-stream loses no acknowledged message and leaves the database readable', async () => {
    const channel = `crash-${Date.now()}`
    const child = spawn(process.execPath, [sender, data.dir, channel], { stdio: ['ignore', 'pipe', 'inherit'] })
    const acked: string[] = []
    let buffer = ''
    await new Promise<void>((resolve, reject) => {
      child.on('error', reject)
      child.on('exit', (code) => reject(new Error(`sender exited early with ${code}`)))
      child.stdout!.on('data', (chunk: Buffer) => {
        buffer += chunk
        const lines = buffer.split('\n')
        buffer = lines.pop()!
        acked.push(...lines)
        if (acked.length >= 2000) resolve()
      })
    })
    child.removeAllListeners('exit')
    const killed = new Promise((r) => child.once('exit', r))
    child.kill('SIGKILL')
    await killed
    // Lines still in the pipe were acknowledged too.
    acked.push(...buffer.split('\n').filter(Boolean))

    const db = openSqlite(join(data.dir, SQLITE_SUBDIR, SQLITE_FILE))
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok')
    db.close()
    const store = await openChannelStore({ dataDir: data.dir, limits: { maxPending: 1_000_000 } })
    try {
      const got: string[] = []
      for (;;) {
        const batch = await store.drain(channel, 'app-to-agent', { max: 10_000 })
        if (batch.length === 0) break
        got.push(...batch.map((m) => m.id))
        const ns = batch.map((m) => (m.data as { n: number }).n)
        expect(ns).toEqual([...ns].sort((a, b) => a - b))
      }
      const stored = new Set(got)
      expect(acked.filter((id) => !stored.has(id))).toEqual([])
      expect(got.length).toBeGreaterThanOrEqual(acked.length)
      // The store still takes writes after the crash.
      await store.send(channel, 'app-to-agent', { event: 'after' })
      expect(await store.peek(channel, 'app-to-agent')).toBe(1)
    } finally {
      await store.dispose()
    }
  }, 120_000)
})
