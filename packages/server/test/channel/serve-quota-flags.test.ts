import { spawnSync } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client } from '@modelcontextprotocol/client'
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio'
import { builtDuetCli } from '../../../../test/support/built.js'
import { tempDir } from './temp-dir.js'

let bin: string
const data = tempDir('duet-serve-quota-')

beforeAll(async () => {
  bin = builtDuetCli()
})
afterAll(() => {
  data.remove()
})

type Result = { isError?: boolean; content: Array<{ text?: string }>; structuredContent?: Record<string, unknown> }

describe('duet serve quota flags', () => {
  it('--max-channels and --max-store-bytes reach the store: past them a tool call is LIMIT_REACHED naming the quota', async () => {
    const client = new Client({ name: 'quota', version: '1' })
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [bin, 'serve', '--stdio', '--data-dir', data.dir, '--max-channels', '1', '--max-store-bytes', '2000'],
        stderr: 'ignore',
      }),
    )
    try {
      const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as Result
      const channel = (await call('open_channel', {})).structuredContent!.channel_id as string
      const second = await call('open_channel', {})
      expect(second.isError).toBe(true)
      expect(second.content[0]?.text).toMatch(/LIMIT_REACHED[\s\S]*1 open channels, limit 1 \(maxChannels\)/)
      expect((await call('notify_ui', { channel_id: channel, event: 'a', data: 'x'.repeat(1500) })).isError).toBeFalsy()
      const full = await call('notify_ui', { channel_id: channel, event: 'b', data: 'x'.repeat(1500) })
      expect(full.isError).toBe(true)
      expect(full.content[0]?.text).toMatch(/LIMIT_REACHED[\s\S]*limit 2000 bytes \(maxStoreBytes\)/)
    } finally {
      await client.close()
    }
  })

  it('refuses a bad quota flag up front, naming it', () => {
    for (const [flag, value] of [
      ['--max-channels', '0'],
      ['--max-store-bytes', '1.5'],
      ['--max-store-bytes', 'lots'],
      ['--max-channels-per-subject', '0'],
      ['--max-store-bytes-per-subject', '0x10'],
      ['--max-renders-per-subject', 'many'],
      ['--max-data-keys', '2.5'],
    ]) {
      const run = spawnSync(process.execPath, [bin, 'serve', '--stdio', '--data-dir', data.dir, flag, value], { encoding: 'utf8', timeout: 20_000 })
      expect(run.status, `${flag} ${value}`).toBe(2)
      expect(run.stderr).toContain(`${flag} must be a positive integer, got '${value}'`)
    }
  })
})
