// `duet serve`'s authorization flags through the real bin, against the test issuer: --auth-issuer
// protects the server, a non-loopback --host without it refuses to start, --insecure-no-auth allows it.
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { startIssuer, type TestIssuer } from './oidc-issuer.js'

const BIN = fileURLToPath(new URL('../../../cli/bin/duet.js', import.meta.url))
const dataDir = mkdtempSync(join(tmpdir(), 'duet-serve-auth-'))

interface Run {
  url?: string
  code?: number | null
  stderr: string
  stop(): Promise<void>
}

function serve(args: string[]): Promise<Run> {
  const child = spawn(process.execPath, [BIN, 'serve', ...args, '--data-dir', dataDir], { stdio: ['ignore', 'ignore', 'pipe'] })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM')
    await exited
  }
  return new Promise((resolve) => {
    let stderr = ''
    child.stderr!.on('data', (chunk) => {
      stderr += chunk
      const match = stderr.match(/listening on (http:\/\/[^\s]+\/mcp)/)
      if (match) resolve({ url: match[1]!, stderr, stop })
    })
    child.once('exit', (code) => resolve({ code, stderr, stop }))
  })
}

let issuer: TestIssuer
beforeAll(async () => {
  issuer = await startIssuer()
})
afterAll(async () => {
  await issuer?.close()
  rmSync(dataDir, { recursive: true, force: true })
})

describe('duet serve --auth-issuer', () => {
  it('answers without a token with 401 and serves a token holder', async () => {
    const run = await serve(['--http', '--port', '0', '--auth-issuer', issuer.url])
    try {
      expect(run.url).toBeDefined()
      const url = run.url!
      const denied = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
      })
      expect(denied.status).toBe(401)
      expect(denied.headers.get('www-authenticate')).toContain('resource_metadata=')
      const doc = (await (await fetch(new URL('/.well-known/oauth-protected-resource/mcp', url))).json()) as Record<string, unknown>
      expect(doc.authorization_servers).toEqual([issuer.url])

      const token = await issuer.tokenFor('alice', { audience: url })
      const client = new Client({ name: 'test', version: '1' })
      await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }))
      const { tools } = await client.listTools()
      expect(tools.map((t) => t.name)).toContain('list_recipes')
      await client.close()
    } finally {
      await run.stop()
    }
  })

  it('refuses flags it cannot use, naming them', async () => {
    const stdio = await serve(['--auth-issuer', issuer.url])
    expect(stdio.code).toBe(2)
    expect(stdio.stderr).toContain('--auth-issuer needs --http')
    const both = await serve(['--http', '--port', '0', '--auth-issuer', issuer.url, '--insecure-no-auth'])
    expect(both.code).toBe(2)
    const badRate = await serve(['--http', '--port', '0', '--rate-limit', 'lots'])
    expect(badRate.code).toBe(2)
    expect(badRate.stderr).toContain('--rate-limit must be BURST:PER_SECOND')
  })
})

describe('duet serve on a non-loopback address', () => {
  it('refuses to start without auth, with a one-line reason', async () => {
    const run = await serve(['--http', '--port', '0', '--host', '0.0.0.0'])
    expect(run.url).toBeUndefined()
    expect(run.code).not.toBe(0)
    const lines = run.stderr.trim().split('\n')
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain('refusing to serve 0.0.0.0 without auth')
    expect(lines[0]).toContain('--insecure-no-auth')
  })

  it('starts with --insecure-no-auth', async () => {
    const run = await serve(['--http', '--port', '0', '--host', '0.0.0.0', '--insecure-no-auth'])
    try {
      expect(run.url).toMatch(/^http:\/\/0\.0\.0\.0:\d+\/mcp$/)
    } finally {
      await run.stop()
    }
  })

  it('starts with --auth-issuer and the public --auth-resource', async () => {
    const run = await serve(['--http', '--port', '0', '--host', '0.0.0.0', '--auth-issuer', issuer.url, '--auth-resource', 'https://mcp.example.com/mcp'])
    try {
      expect(run.url).toMatch(/^http:\/\/0\.0\.0\.0:\d+\/mcp$/)
      const local = `http://127.0.0.1:${new URL(run.url!).port}/mcp`
      const token = await issuer.tokenFor('alice', { audience: 'https://mcp.example.com/mcp' })
      const ok = await fetch(local, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${token}` },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
      })
      expect(ok.status).toBe(200)
    } finally {
      await run.stop()
    }
  })
})
