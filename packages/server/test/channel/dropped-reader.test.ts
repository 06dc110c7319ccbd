import { spawn, type ChildProcess } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { openChannelStore, type ChannelStore } from '../../src/channel/index.js'
import { builtDuetCli } from '../../../../test/support/built.js'
import { tempDir } from './temp-dir.js'

// The case: 100 messages of 500 KB queued, the poller's connection cut after ~65 KB of the reply.
// With `after` (the documented way to poll), nothing is removed until the next poll acknowledges it, so a
// fresh client still gets every message, over HTTP and over stdio, from real `duet serve` processes.
const COUNT = 100
const SIZE = 500 * 1024
const CUT_AFTER = 65 * 1024

let bin: string
let store: ChannelStore
const data = tempDir('duet-dropped-reader-')
const children: ChildProcess[] = []

beforeAll(async () => {
  bin = builtDuetCli()
  store = await openChannelStore({ dataDir: data.dir })
})
afterAll(async () => {
  for (const child of children) child.kill('SIGKILL')
  await store.dispose()
  data.remove()
})

async function fill(): Promise<{ channel: string; ids: string[] }> {
  const channel = await store.open()
  const ids: string[] = []
  for (let i = 0; i < COUNT; i++) ids.push(await store.send(channel, 'app-to-agent', { event: 'big', data: { i, blob: 'x'.repeat(SIZE) } }))
  return { channel, ids }
}

const pollCall = (channel: string) => ({
  jsonrpc: '2.0',
  id: 7,
  method: 'tools/call',
  params: { name: 'poll_agent_messages', arguments: { channel_id: channel, after: '0' } },
})

/** What a fresh client gets from one poll with after "0": every message's id, in order. */
async function freshPoll(client: Client, channel: string): Promise<string[]> {
  const r = (await client.callTool({ name: 'poll_agent_messages', arguments: { channel_id: channel, after: '0' } })) as {
    structuredContent: { messages: Array<{ id: string; data: { i: number; blob: string } }> }
  }
  const messages = r.structuredContent.messages
  for (const m of messages) expect(m.data.blob.length).toBe(SIZE)
  return messages.map((m) => m.id)
}

describe('a reader dropped mid-reply loses nothing (with after)', () => {
  it('over HTTP: a fetch aborted after ~65 KB of the reply, then a fresh client gets all 100', async () => {
    const { channel, ids } = await fill()
    const child = spawn(process.execPath, [bin, 'serve', '--http', '--port', '0', '--data-dir', data.dir], { stdio: ['ignore', 'ignore', 'pipe'] })
    children.push(child)
    const url = await new Promise<string>((resolve, reject) => {
      let stderr = ''
      child.stderr!.on('data', (chunk) => {
        stderr += chunk
        const match = stderr.match(/listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/)
        if (match) resolve(match[1]!)
      })
      child.once('exit', (code) => reject(new Error(`duet serve exited ${code}: ${stderr}`)))
    })
    const abort = new AbortController()
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
      body: JSON.stringify(pollCall(channel)),
      signal: abort.signal,
    })
    expect(res.status).toBe(200)
    const reader = res.body!.getReader()
    let received = 0
    while (received < CUT_AFTER) {
      const { value, done } = await reader.read()
      if (done) throw new Error(`the reply ended after ${received} bytes, before the cut`)
      received += value.byteLength
    }
    abort.abort()
    await reader.cancel().catch(() => {})
    expect(received).toBeLessThan(COUNT * SIZE)

    const client = new Client({ name: 'fresh', version: '1' })
    await client.connect(new StreamableHTTPClientTransport(new URL(url)))
    try {
      expect(await freshPoll(client, channel)).toEqual(ids)
    } finally {
      await client.close()
      child.kill('SIGTERM')
    }
  }, 120_000)

  it('over stdio: the server killed while its stdout reader is mid-reply, then a fresh server and client get all 100', async () => {
    const { channel, ids } = await fill()
    const child = spawn(process.execPath, [bin, 'serve', '--stdio', '--data-dir', data.dir], { stdio: ['pipe', 'pipe', 'ignore'] })
    children.push(child)
    const send = (message: unknown) => child.stdin!.write(`${JSON.stringify(message)}\n`)
    let buffered = ''
    let received = 0
    const initialized = new Promise<void>((resolve) => {
      const onData = (chunk: Buffer) => {
        buffered += chunk
        if (buffered.includes('"id":1')) {
          child.stdout!.off('data', onData)
          resolve()
        }
      }
      child.stdout!.on('data', onData)
    })
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    })
    await initialized
    send({ jsonrpc: '2.0', method: 'notifications/initialized' })
    const cut = new Promise<void>((resolve) => {
      child.stdout!.on('data', (chunk: Buffer) => {
        received += chunk.byteLength
        if (received >= CUT_AFTER) {
          // The reader goes away mid-reply: its end of the pipe is destroyed, then the process dies.
          child.stdout!.destroy()
          child.kill('SIGKILL')
          resolve()
        }
      })
    })
    send(pollCall(channel))
    await cut
    expect(received).toBeLessThan(COUNT * SIZE)

    // A fresh server and a raw client: the SDK's stdio client re-copies its line buffer on every chunk, which
    // takes minutes on this ~100 MB line (the reply carries the batch twice: text and structured content).
    const fresh = spawn(process.execPath, [bin, 'serve', '--stdio', '--data-dir', data.dir], { stdio: ['pipe', 'pipe', 'ignore'] })
    children.push(fresh)
    const chunks: Buffer[] = []
    const reply = new Promise<string>((resolve) => {
      fresh.stdout!.on('data', (chunk: Buffer) => {
        chunks.push(chunk)
        if (chunk.includes(10)) {
          // Complete lines only (the text after the last newline is still arriving).
          const lines = Buffer.concat(chunks).toString().split('\n').slice(0, -1)
          const line = lines.find((l) => /"id":7[,}]/.test(l))
          if (line) resolve(line)
        }
      })
    })
    fresh.stdin!.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } })}\n`,
    )
    fresh.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`)
    fresh.stdin!.write(`${JSON.stringify(pollCall(channel))}\n`)
    const result = JSON.parse(await reply) as { result: { structuredContent: { messages: Array<{ id: string; data: { blob: string } }> } } }
    fresh.kill('SIGTERM')
    const messages = result.result.structuredContent.messages
    for (const m of messages) expect(m.data.blob.length).toBe(SIZE)
    expect(messages.map((m) => m.id)).toEqual(ids)
  }, 120_000)
})
