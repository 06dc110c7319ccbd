import { spawn } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { openChannelStore, type ChannelStore } from '../../src/channel/index.js'
import { builtDuetCli } from '../../../../test/support/built.js'
import { tempDir } from './temp-dir.js'
import { runToEnd, type Ended } from '../../../../test/support/run-to-end.js'

let bin: string
let store: ChannelStore
const data = tempDir('duet-channel-wait-')

beforeAll(async () => {
  bin = builtDuetCli()
  store = await openChannelStore({ dataDir: data.dir })
})
afterAll(async () => {
  await store.dispose()
  data.remove()
})

function wait(args: string[], onStart?: () => void): Promise<Ended> {
  return runToEnd(process.execPath, [bin, 'wait', ...args], { onSpawn: onStart })
}

describe('duet wait', () => {
  it('exits 0 with the count once the app has written, and consumes nothing', async () => {
    const channel = await store.open()
    const result = await wait([channel, '--data-dir', data.dir, '--timeout', '60'], () => {
      setTimeout(() => void store.send(channel, 'app-to-agent', { event: 'ask' }), 300)
    })
    expect(result.code).toBe(0)
    expect(result.stdout).toBe(`1 message waiting on channel ${channel}\n`)
    expect(await store.peek(channel, 'app-to-agent')).toBe(1)
    // Mail already waiting: exits at once, still without consuming.
    await store.send(channel, 'app-to-agent', { event: 'ask2' })
    const again = await wait([channel, '--data-dir', data.dir])
    expect(again.code).toBe(0)
    expect(again.stdout).toMatch(/^2 messages waiting/)
    expect(await store.drain(channel, 'app-to-agent')).toHaveLength(2)
  })

  it('says at once on stderr, and in the --json timeout line, when no app has touched the channel (a likely typo)', async () => {
    const typo = `ch-typo-${Date.now()}`
    await store.send(typo, 'agent-to-app', { event: 'for a view that never came' })
    const result = await wait([typo, '--json', '--data-dir', data.dir, '--timeout', '0.5'])
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(new RegExp(`^duet wait: hint: No app has touched channel '${typo}'`))
    expect(JSON.parse(result.stdout)).toEqual({ channel_id: typo, waiting: 0, hint: expect.stringContaining('mistyped') })
    // Once the view has polled, the same wait says nothing of the kind.
    await store.read(typo, 'agent-to-app', { after: '0' })
    const seen = await wait([typo, '--json', '--data-dir', data.dir, '--timeout', '0.5'])
    expect(seen.stderr).not.toMatch(/hint/)
    expect(JSON.parse(seen.stdout)).toEqual({ channel_id: typo, waiting: 0 })
  })

  it('ignores the other direction and exits 2 on timeout', async () => {
    const channel = `ch-${Date.now()}`
    await store.send(channel, 'agent-to-app', { event: 'for the app' })
    const result = await wait([channel, '--data-dir', data.dir, '--timeout', '0.5'])
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(/no message on channel/)
  })

  it('exits 1 on a bad id, a closed channel, bad flags or an unreadable store', async () => {
    const closed = await store.open()
    await store.close(closed)
    const file = join(data.dir, 'a-file')
    writeFileSync(file, 'x')
    const cases: Array<[string[], RegExp]> = [
      [['../../etc', '--data-dir', data.dir], /Invalid channel id/],
      [['x'.repeat(65), '--data-dir', data.dir], /Invalid channel id/],
      [[closed, '--data-dir', data.dir], /closed or expired/],
      [['ch-1', '--data-dir', file], /cannot be used.*writable directory/],
      [['ch-1', '--timeout', 'soon', '--data-dir', data.dir], /--timeout must be a number/],
      [[], /exactly one channel id/],
      [['ch-1', '--bogus'], /Unknown option/],
    ]
    for (const [args, pattern] of cases) {
      const result = await wait(args)
      expect(result.code, args.join(' ')).toBe(1)
      expect(result.stderr, args.join(' ')).toMatch(pattern)
    }
  })

  it('--follow prints one JSON line per message as it arrives, in order, keeps running, and consumes nothing', async () => {
    const channel = await store.open()
    const child = spawn(process.execPath, [bin, 'wait', channel, '--follow', '--data-dir', data.dir], { stdio: ['ignore', 'pipe', 'pipe'] })
    try {
      let out = ''
      child.stdout.on('data', (c) => (out += c))
      const lines = () => out.split('\n').filter(Boolean)
      const until = (n: number) => vi.waitFor(() => expect(lines().length).toBeGreaterThanOrEqual(n), { timeout: 20_000, interval: 20 })
      // The first may land before the command reads (it prints what is waiting too).
      const first = await store.send(channel, 'app-to-agent', { event: 'one', data: { n: 1 } })
      await until(1)
      // The second is sent once the first was printed, so while the command runs: it shows only if it kept following.
      const second = await store.send(channel, 'app-to-agent', { event: 'two', data: { n: 2 } })
      await until(2)
      const parsed = lines().map((l) => JSON.parse(l))
      expect(parsed.map((m) => [m.id, m.event, m.data])).toEqual([
        [first, 'one', { n: 1 }],
        [second, 'two', { n: 2 }],
      ])
      expect(child.exitCode).toBeNull()
      expect(await store.peek(channel, 'app-to-agent')).toBe(2)
    } finally {
      child.kill('SIGTERM')
    }
  })

  it('--json prints the count as one JSON line', async () => {
    const channel = await store.open()
    await store.send(channel, 'app-to-agent', { event: 'ask' })
    const result = await wait([channel, '--json', '--data-dir', data.dir])
    expect(result.code).toBe(0)
    expect(JSON.parse(result.stdout)).toEqual({ channel_id: channel, waiting: 1 })
    expect((await wait([channel, '--json', '--follow', '--data-dir', data.dir])).code).toBe(1)
  })

  it('prints its help', async () => {
    const result = await wait(['--help'])
    expect(result.code).toBe(0)
    expect(result.stdout).toMatch(/Usage: duet wait <channel_id>/)
    expect(result.stdout).toMatch(/Exit codes: 0 .* 2 .* 1/)
  })
})
