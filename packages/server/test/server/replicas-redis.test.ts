import { spawn, type ChildProcess } from 'node:child_process'
import { createServer, request, type Server } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { startRedis } from '../channel/redis-server.js'
import { builtDuetCli } from '../../../../test/support/built.js'

// Three `duet serve --http --redis-url` processes on one real redis-server must act as one server:
// channels, renders, saved apps, app data and the log, whichever replica a request lands on.

interface Replica {
  child: ChildProcess
  url: string
  port: number
}

let bin: string
let redis: Awaited<ReturnType<typeof startRedis>>
let replicas: Replica[] = []
let proxy: Server
let proxyUrl: string

function startReplica(): Promise<Replica> {
  const child = spawn(process.execPath, [bin, 'serve', '--http', '--port', '0', '--redis-url', redis.url], { stdio: ['ignore', 'ignore', 'pipe'] })
  return new Promise((resolve, reject) => {
    let stderr = ''
    child.stderr!.on('data', (chunk) => {
      stderr += chunk
      const match = stderr.match(/listening on (http:\/\/127\.0\.0\.1:(\d+)\/mcp)/)
      if (match) resolve({ child, url: match[1]!, port: Number(match[2]) })
    })
    child.once('exit', (code) => reject(new Error(`duet serve exited ${code}: ${stderr}`)))
  })
}

/**
 * A round-robin HTTP proxy on loopback: each request goes to the next replica. A replica that refuses
 * the connection (killed) is skipped, as a load balancer's health check would; a request cut off
 * mid-answer gets a 502, which the caller sees as a failed call.
 */
function startProxy(): Promise<string> {
  let next = 0
  proxy = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks)
      const attempt = (tries: number) => {
        const target = replicas[next++ % replicas.length]!
        const upstream = request(
          {
            host: '127.0.0.1',
            port: target.port,
            path: req.url,
            method: req.method,
            headers: { ...req.headers, host: `127.0.0.1:${target.port}` },
            // A fresh connection each time: a pooled socket to the killed replica would fail as a reset, not a refusal.
            agent: false,
          },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers)
            answer.pipe(res)
            answer.on('error', () => res.destroy())
          },
        )
        upstream.on('error', (err: NodeJS.ErrnoException) => {
          if (err.code === 'ECONNREFUSED' && tries < replicas.length) return attempt(tries + 1)
          if (!res.headersSent) res.writeHead(502).end()
          else res.destroy()
        })
        upstream.end(body)
      }
      attempt(1)
    })
  })
  return new Promise((resolve) => proxy.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(proxy.address() as { port: number }).port}/mcp`)))
}

async function connect(url: string): Promise<Client> {
  const client = new Client({ name: 'replica-test', version: '1' }, { versionNegotiation: { mode: 'auto' } })
  await client.connect(new StreamableHTTPClientTransport(new URL(url)))
  return client
}

type Result = { isError?: boolean; structuredContent?: Record<string, unknown>; content: Array<{ type: string; text?: string }> }
const call = (client: Client, name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args }) as Promise<Result>

beforeAll(async () => {
  bin = builtDuetCli()
  redis = await startRedis()
  replicas = await Promise.all([startReplica(), startReplica(), startReplica()])
  proxyUrl = await startProxy()
}, 60_000)

afterAll(async () => {
  proxy?.close()
  for (const r of replicas) if (r.child.exitCode === null && r.child.signalCode === null) r.child.kill('SIGKILL')
  await redis?.stop()
})

describe('duet serve replicas on one Redis', () => {
  it('a render on A is saved and loaded on B, its data read on B, and what A logged is tailed on C', async () => {
    const [a, b, c] = await Promise.all(replicas.map((r) => connect(r.url)))
    try {
      const shown = await call(a!, 'display_ui_to_user', { html: '<p>from A</p>', title: 'A' })
      expect(shown.isError).toBeFalsy()
      const channel = shown.structuredContent!.channel_id as string
      expect(shown.content[0]!.text).toContain(`duet wait ${channel} --redis-url ${redis.url}`)

      expect((await call(b!, 'save_app', { name: 'from-a', channel_id: channel })).isError).toBeFalsy()
      const loaded = await call(b!, 'load_app', { name: 'from-a' })
      expect(loaded.structuredContent).toMatchObject({ kind: 'html', html: '<p>from A</p>', title: 'A' })
      expect(loaded.structuredContent!.channel_id).not.toBe(channel)
      expect((await call(c!, 'list_saved_apps', {})).structuredContent).toMatchObject({ apps: [expect.objectContaining({ name: 'from-a' })] })

      await call(a!, 'put_app_data', { app: 'book', key: 'pages', value: ['one', 'two', 'three'] })
      await call(c!, 'put_app_data', { app: 'book', key: 'pages', value: ['four'], append: true })
      expect((await call(b!, 'get_app_data', { app: 'book', key: 'pages', limit: 2, offset: 2 })).structuredContent).toEqual({
        value: ['three', 'four'],
        offset: 2,
        total: 4,
      })

      await call(a!, 'write_server_log', { level: 'warning', message: 'written on A', data: { replica: 'A' } })
      const tail = await call(c!, 'tail_server_log', { n: 5, level: 'warning' })
      expect(tail.structuredContent).toMatchObject({ entries: [expect.objectContaining({ message: 'written on A', data: { replica: 'A' } })] })

      // The app writes through C; `duet wait` pointed at the same Redis wakes, wherever it runs.
      await call(c!, 'notify_agent', { channel_id: channel, event: 'ready' })
      const waited = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
        const child = spawn(process.execPath, [bin, 'wait', channel, '--timeout', '10'], {
          stdio: ['ignore', 'pipe', 'pipe'],
          env: { ...process.env, DUET_REDIS_URL: redis.url },
        })
        let stdout = ''
        child.stdout!.on('data', (chunk) => (stdout += chunk))
        child.on('exit', (code) => resolve({ code, stdout }))
      })
      expect(waited).toEqual({ code: 0, stdout: `1 message waiting on channel ${channel}\n` })
      expect((await call(b!, 'poll_agent_messages', { channel_id: channel })).structuredContent).toMatchObject({
        messages: [expect.objectContaining({ event: 'ready' })],
      })
    } finally {
      await Promise.all([a, b, c].map((x) => x?.close()))
    }
  }, 60_000)

  it('4 senders and 2 readers through a round-robin proxy, one replica SIGKILLed mid-stream: every acknowledged message delivered once, in order per sender', async () => {
    const PER_SENDER = 60
    const setup = await connect(proxyUrl)
    const openChannel = async () => {
      const opened = await call(setup, 'open_channel', {})
      expect(opened.isError, opened.content[0]?.text).toBeFalsy()
      return opened.structuredContent!.channel_id as string
    }
    const toApp = await openChannel()
    const toAgent = await openChannel()
    await setup.close()

    // Two agents send to an app with notify_ui; two app views send to an agent with notify_agent.
    const senders = [
      { name: 'agent-1', tool: 'notify_ui', channel: toApp },
      { name: 'agent-2', tool: 'notify_ui', channel: toApp },
      { name: 'app-1', tool: 'notify_agent', channel: toAgent },
      { name: 'app-2', tool: 'notify_agent', channel: toAgent },
    ]
    const acknowledged = new Map<string, number[]>(senders.map((s) => [s.name, []]))
    const readers = [
      { name: 'app reader', tool: 'poll_ui_messages', channel: toApp, wait: { wait_ms: 1000 }, from: ['agent-1', 'agent-2'] },
      { name: 'agent reader', tool: 'poll_agent_messages', channel: toAgent, wait: { wait_seconds: 1 }, from: ['app-1', 'app-2'] },
    ]
    const received = new Map<string, Array<{ id: string; sender: string; seq: number }>>(readers.map((r) => [r.name, []]))
    let sendersDone = false

    const send = async (sender: (typeof senders)[number]) => {
      const client = await connect(proxyUrl)
      try {
        for (let seq = 0; seq < PER_SENDER; seq++) {
          // A send whose answer is lost (its replica died) is not acknowledged; the sender moves on.
          const answer = await call(client, sender.tool, { channel_id: sender.channel, event: 'm', data: { sender: sender.name, seq } }).catch(() => undefined)
          if (answer && !answer.isError) acknowledged.get(sender.name)!.push(seq)
          await new Promise((resolve) => setTimeout(resolve, 10))
        }
      } finally {
        await client.close()
      }
    }
    const read = async (reader: (typeof readers)[number]) => {
      const client = await connect(proxyUrl)
      const got = received.get(reader.name)!
      // The reader acknowledges what it has by passing the last id it received; a poll whose answer is lost
      // is asked again with the same cursor, so its messages come back instead of being lost.
      let after = '0'
      try {
        for (;;) {
          const expected = reader.from.reduce((n, s) => n + acknowledged.get(s)!.length, 0)
          if (sendersDone && got.length >= expected) break
          const answer = await call(client, reader.tool, { channel_id: reader.channel, after, ...reader.wait }).catch(() => undefined)
          if (!answer || answer.isError) {
            await new Promise((resolve) => setTimeout(resolve, 20))
            continue
          }
          const messages = (answer.structuredContent?.messages ?? []) as Array<{ id: string; data: { sender: string; seq: number } }>
          for (const m of messages) got.push({ id: m.id, sender: m.data.sender, seq: m.data.seq })
          if (messages.length) after = messages.at(-1)!.id
          if (sendersDone && messages.length === 0 && got.length < expected) {
            // Nothing more is coming: stop rather than spin until the test times out.
            const again = await call(client, reader.tool, { channel_id: reader.channel, after, ...reader.wait }).catch(() => undefined)
            if (again && !again.isError && ((again.structuredContent?.messages ?? []) as unknown[]).length === 0) break
          }
        }
      } finally {
        await client.close()
      }
    }

    const reading = readers.map(read)
    const sending = Promise.all(senders.map(send)).then(() => {
      sendersDone = true
    })
    // Kill one replica once about a third of the stream is out.
    while ([...acknowledged.values()].reduce((n, l) => n + l.length, 0) < (senders.length * PER_SENDER) / 3) {
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
    const victim = replicas[1]!
    victim.child.kill('SIGKILL')
    await sending
    await Promise.all(reading)

    expect(victim.child.signalCode).toBe('SIGKILL')
    for (const reader of readers) {
      const got = received.get(reader.name)!
      expect(new Set(got.map((m) => m.id)).size, `${reader.name}: a message id delivered twice`).toBe(got.length)
      for (const sender of reader.from) {
        const seqs = got.filter((m) => m.sender === sender).map((m) => m.seq)
        expect(seqs, `${sender}: order kept`).toEqual([...seqs].sort((x, y) => x - y))
        expect(new Set(seqs).size, `${sender}: a message delivered twice`).toBe(seqs.length)
        const missing = acknowledged.get(sender)!.filter((seq) => !seqs.includes(seq))
        expect(missing, `${sender}: acknowledged sends never delivered`).toEqual([])
      }
    }
    // Most sends went through: the dead replica was skipped once it refused connections.
    expect([...acknowledged.values()].reduce((n, l) => n + l.length, 0)).toBeGreaterThan(senders.length * PER_SENDER * 0.9)
  }, 120_000)
})
