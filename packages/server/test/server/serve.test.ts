import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio'
import { builtDuetCli } from '../../../../test/support/built.js'
import { runToEnd, type Ended } from '../../../../test/support/run-to-end.js'

let bin: string
let dataDir: string

beforeAll(async () => {
  bin = builtDuetCli()
  dataDir = mkdtempSync(join(tmpdir(), 'duet-serve-'))
})
afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true })
})

function run(args: string[]): Promise<Ended> {
  return runToEnd(process.execPath, [bin, ...args])
}

function exited(child: ChildProcess): Promise<number | string> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode)
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)))
}

describe('duet serve', () => {
  it('rejects bad flags with exit 2 and a pointer to --help', async () => {
    for (const args of [['--stdio', '--http'], ['--http', '--port', 'abc'], ['--port', '4000'], ['--bogus']]) {
      const { code, stderr, stdout } = await run(['serve', ...args])
      expect(code, args.join(' ')).toBe(2)
      expect(stderr).toMatch(/duet serve: .*\n.*duet serve --help/)
      expect(stdout).toBe('')
    }
  })

  it('prints its help', async () => {
    const { code, stdout } = await run(['serve', '--help'])
    expect(code).toBe(0)
    expect(stdout).toMatch(/--stdio/)
    expect(stdout).toMatch(/--data-dir/)
  })

  it('serves the channel tools over stdio, keeping stdout for the protocol', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [bin, 'serve', '--stdio', '--data-dir', dataDir], stderr: 'pipe' })
    let stderr = ''
    transport.stderr?.on('data', (c) => (stderr += c))
    const client = new Client({ name: 'test', version: '1' })
    await client.connect(transport)
    try {
      expect(client.getServerVersion()?.name).toBe('duet')
      const { tools } = await client.listTools()
      const names = tools.map((t) => t.name)
      expect(names).toEqual(expect.arrayContaining(['open_channel', 'notify_ui', 'poll_agent_messages', 'notify_agent', 'poll_ui_messages']))
      expect(tools.find((t) => t.name === 'notify_agent')?._meta).toMatchObject({ ui: { visibility: ['app'] } })
      // load_app shows the app again on a fresh channel, so it must not claim to be read-only.
      expect(tools.find((t) => t.name === 'load_app')?.annotations?.readOnlyHint).toBe(false)
      const { stdout: help } = await run(['serve', '--help'])
      expect(
        names.filter((name) => !new RegExp(`\\b${name}\\b`).test(help)),
        'tools that duet serve --help does not describe',
      ).toEqual([])
      const opened = await client.callTool({ name: 'open_channel', arguments: {} })
      expect(opened.isError).toBeFalsy()
      expect(JSON.stringify(opened.structuredContent ?? opened.content)).toMatch(/channel_id/)
      expect(stderr).toMatch(/duet serve: serving MCP on stdio/)
    } finally {
      await client.close()
    }
  })

  it('serves over HTTP on a free port, reports the URL on stderr and exits 0 on SIGTERM', async () => {
    const child = spawn(process.execPath, [bin, 'serve', '--http', '--port', '0', '--data-dir', dataDir], { stdio: ['ignore', 'pipe', 'pipe'] })
    try {
      let stdout = ''
      child.stdout!.on('data', (c) => (stdout += c))
      const url = await new Promise<string>((resolve, reject) => {
        let stderr = ''
        child.stderr!.on('data', (c) => {
          stderr += c
          const match = stderr.match(/listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/)
          if (match) resolve(match[1])
        })
        child.once('exit', (code) => reject(new Error(`duet serve exited ${code}: ${stderr}`)))
      })
      const client = new Client({ name: 'test', version: '1' }, { versionNegotiation: { mode: 'auto' } })
      await client.connect(new StreamableHTTPClientTransport(new URL(url)))
      const opened = await client.callTool({ name: 'open_channel', arguments: {} })
      expect(opened.isError).toBeFalsy()
      await client.close()
      child.kill('SIGTERM')
      expect(await exited(child)).toBe(0)
      expect(stdout).toBe('')
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL')
    }
  })
})
