import { spawn, type ChildProcess } from 'node:child_process'
import { rmSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio'
import { bundle } from './build-fixture.js'

let script: string

beforeAll(async () => {
  script = await bundle(fileURLToPath(new URL('./fixtures/demo-server.ts', import.meta.url)), 'demo-server')
})
afterAll(() => rmSync(script, { force: true }))

/** Resolves with the exit code, or the signal name if the child was killed by one. */
function exited(child: ChildProcess): Promise<number | string> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode)
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)))
}

/** Waits for a line on the child's stderr matching `pattern`, keeping everything read in `log`. */
function stderrLine(child: ChildProcess, pattern: RegExp, log: string[]): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    let buffer = ''
    const onData = (chunk: Buffer) => {
      buffer += chunk.toString()
      log.push(chunk.toString())
      const match = buffer.match(pattern)
      if (match) {
        child.stderr!.off('data', onData)
        resolve(match)
      }
    }
    child.stderr!.on('data', onData)
    child.once('exit', (code) => reject(new Error(`child exited (${code}) before printing ${pattern}: ${log.join('')}`)))
  })
}

describe('stdio', () => {
  for (const era of ['legacy', 'modern'] as const) {
    it(`serves tools and views over stdio (${era} era) and exits 0 when stdin closes`, async () => {
      const transport = new StdioClientTransport({ command: process.execPath, args: [script, '--stdio'], stderr: 'pipe' })
      const client = new Client({ name: 'test', version: '1' }, era === 'modern' ? { versionNegotiation: { mode: 'auto' } } : {})
      await client.connect(transport)
      try {
        const { tools } = await client.listTools()
        expect(tools.find((t) => t.name === 'refresh')?._meta).toEqual({
          ui: { visibility: ['app'] },
          'openai/widgetAccessible': true,
          'openai/visibility': 'private',
        })
        expect((await client.callTool({ name: 'echo', arguments: { text: 'stdio' } })).content).toEqual([{ type: 'text', text: 'echo: stdio' }])
        const outcome = await client.callTool({ name: 'echo', arguments: {} }).then(
          (r) => JSON.stringify(r),
          (e: Error) => e.message,
        )
        expect(outcome).toMatch(/Input validation error/)
        expect((await client.readResource({ uri: 'ui://demo/show.html' })).contents[0]).toMatchObject({ mimeType: 'text/html;profile=mcp-app' })
        if (era === 'modern') expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28')
      } finally {
        const pid = transport.pid
        await client.close()
        // The SDK's close ends stdin first; the server must take that as its cue to exit on its own.
        if (pid) await waitGone(pid)
      }
    })
  }

  it('exits 0 on SIGTERM', async () => {
    const child = spawn(process.execPath, [script, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] })
    await stderrLine(child, /serving on stdio/, [])
    child.kill('SIGTERM')
    expect(await exited(child)).toBe(0)
  })
})

describe('HTTP graceful shutdown', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`finishes an in-flight call, then exits 0 on ${signal}`, async () => {
      const child = spawn(process.execPath, [script, '--http'], { stdio: ['ignore', 'pipe', 'pipe'] })
      const log: string[] = []
      try {
        const [, url] = await stderrLine(child, /listening on (\S+)/, log)
        const client = new Client({ name: 'test', version: '1' }, { versionNegotiation: { mode: 'auto' } })
        await client.connect(new StreamableHTTPClientTransport(new URL(url)))
        const started = stderrLine(child, /slow: started/, log)
        const call = client.callTool({ name: 'slow', arguments: {} })
        await started
        child.kill(signal)
        expect((await call).content).toEqual([{ type: 'text', text: 'slow done' }])
        expect(await exited(child)).toBe(0)
        // Closed for good: a new connection is refused.
        await expect(fetch(url, { method: 'POST', body: '{}' })).rejects.toThrow()
        await client.close()
      } finally {
        if (child.exitCode === null) child.kill('SIGKILL')
      }
    })
  }
})

async function waitGone(pid: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    try {
      process.kill(pid, 0)
    } catch {
      return
    }
    await new Promise((r) => setTimeout(r, 50))
  }
  process.kill(pid, 'SIGKILL')
  throw new Error(`server ${pid} did not exit after stdin closed`)
}
