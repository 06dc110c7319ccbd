import { spawn } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { openChannelStore } from '../../src/channel/index.js'
import { openAppStore } from '../../src/apps/index.js'
import { freePort, startRedis } from '../channel/redis-server.js'
import { builtDuetCli } from '../../../../test/support/built.js'
import { runToEnd, type Ended } from '../../../../test/support/run-to-end.js'

// `--redis-url`, else DUET_REDIS_URL, for `duet serve` and `duet wait`: the flag wins, bad values are refused up front.
let bin: string
let redis: Awaited<ReturnType<typeof startRedis>>
beforeAll(async () => {
  bin = builtDuetCli()
  redis = await startRedis()
}, 60_000)
afterAll(async () => {
  await redis?.stop()
})

function run(args: string[], env: Record<string, string> = {}): Promise<Ended> {
  return runToEnd(process.execPath, [bin, ...args], { env: { ...process.env, DUET_REDIS_URL: '', ...env } })
}

describe('choosing Redis on the command line', () => {
  it('refuses a bad --redis-url or DUET_REDIS_URL, and both --data-dir and --redis-url, naming the culprit', async () => {
    const flag = await run(['serve', '--http', '--port', '0', '--redis-url', 'http://x'])
    expect(flag).toMatchObject({ code: 2, stderr: expect.stringMatching(/--redis-url must be a Redis URL like redis:\/\/127\.0\.0\.1:6379, got 'http:\/\/x'/) })
    const env = await run(['serve', '--http', '--port', '0'], { DUET_REDIS_URL: 'redis://:s3cret@ bad host' })
    expect(env).toMatchObject({ code: 2, stderr: expect.stringMatching(/DUET_REDIS_URL must be a Redis URL/) })
    expect(env.stderr).not.toContain('s3cret')
    expect(await run(['serve', '--data-dir', '/tmp/x', '--redis-url', redis.url])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/choose one of --data-dir or --redis-url/),
    })
    expect(await run(['wait', 'ch-1', '--redis-url', 'nope'])).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/duet wait: --redis-url must be a Redis URL/),
    })
  })

  it('duet wait names the Redis it cannot reach and exits 1', async () => {
    const port = await freePort()
    const result = await run(['wait', 'ch-1', '--timeout', '1'], { DUET_REDIS_URL: `redis://127.0.0.1:${port}` })
    expect(result).toMatchObject({ code: 1, stderr: expect.stringContaining(`127.0.0.1:${port}`) })
  })

  it('duet serve keeps channels and apps in the Redis DUET_REDIS_URL names, and --redis-url wins over it', async () => {
    const bogus = `redis://127.0.0.1:${await freePort()}`
    const child = spawn(process.execPath, [bin, 'serve', '--http', '--port', '0', '--redis-url', redis.url], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, DUET_REDIS_URL: bogus },
    })
    const channels = await openChannelStore({ backend: 'redis', url: redis.url })
    const apps = await openAppStore({ backend: 'redis', url: redis.url })
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let stderr = ''
        child.stderr!.on('data', (c) => {
          stderr += c
          const match = stderr.match(/listening on (http:\/\/\S+\/mcp)/)
          if (match) resolve(match[1]!)
        })
        child.once('exit', (code) => reject(new Error(`duet serve exited ${code}: ${stderr}`)))
      })
      const client = new Client({ name: 'test', version: '1' }, { versionNegotiation: { mode: 'auto' } })
      await client.connect(new StreamableHTTPClientTransport(new URL(url)))
      const shown = await client.callTool({ name: 'display_ui_to_user', arguments: { html: '<p>in redis</p>' } })
      const channel = (shown.structuredContent as { channel_id: string }).channel_id
      await client.callTool({ name: 'notify_ui', arguments: { channel_id: channel, event: 'hello' } })
      await client.close()
      // What the server wrote is in that Redis, read by stores of this test process.
      expect(await apps.getRender(channel)).toMatchObject({ kind: 'html', html: '<p>in redis</p>' })
      expect(await channels.peek(channel, 'agent-to-app')).toBe(1)
    } finally {
      child.kill('SIGTERM')
      await channels.dispose()
      await apps.close()
    }
  }, 60_000)
})
