import { spawn } from 'node:child_process'
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { setTimeout as sleep } from 'node:timers/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openChannelStore, type ChannelMessage, type ChannelStore } from '../../src/channel/index.js'
import { builtDuetCli } from '../../../../test/support/built.js'
import { tempDir } from './temp-dir.js'
import { runToEnd, type Ended } from '../../../../test/support/run-to-end.js'

let bin: string
let store: ChannelStore
const data = tempDir('duet-channel-notify-')

beforeAll(async () => {
  bin = builtDuetCli()
  store = await openChannelStore({ dataDir: data.dir })
})
afterAll(async () => {
  await store.dispose()
  data.remove()
})

function notify(args: string[], stdin?: string): Promise<Ended> {
  return runToEnd(process.execPath, [bin, 'notify', ...args], { stdin: stdin ?? '' })
}

describe('duet notify', () => {
  it('stores the message for the app, with its JSON data, and prints its id', async () => {
    const channel = await store.open()
    const sent = await notify([channel, 'answer', '{"text":"hi","n":[1,2]}', '--data-dir', data.dir])
    expect(sent.code).toBe(0)
    expect(sent.stdout).toMatch(new RegExp(`^sent message \\S+ \\('answer'\\) on channel ${channel}\\n$`))
    const got = await store.drain(channel, 'agent-to-app')
    expect(got).toMatchObject([{ event: 'answer', data: { text: 'hi', n: [1, 2] } }])
    // Nothing went the other way.
    expect(await store.peek(channel, 'app-to-agent')).toBe(0)
  })

  it("reads the data from standard input with '-', and null data when it is left out (as notify_ui stores it)", async () => {
    const channel = await store.open()
    expect((await notify([channel, 'piped', '-', '--data-dir', data.dir], '{"from":"stdin"}')).code).toBe(0)
    expect((await notify([channel, 'bare', '--data-dir', data.dir])).code).toBe(0)
    const got = await store.drain(channel, 'agent-to-app')
    expect(got.map((m) => [m.event, m.data])).toEqual([
      ['piped', { from: 'stdin' }],
      ['bare', null],
    ])
  })

  it('hints at a typo when no app has touched the channel, and stores the message anyway', async () => {
    const typo = `ch-notify-typo-${Date.now()}`
    const sent = await notify([typo, 'answer', '--data-dir', data.dir, '--json'])
    expect(sent.code).toBe(0)
    expect(JSON.parse(sent.stdout)).toEqual({ channel_id: typo, id: expect.any(String) })
    expect(sent.stderr).toMatch(new RegExp(`^duet notify: hint: No app has touched channel '${typo}'`))
    expect(await store.peek(typo, 'agent-to-app')).toBe(1)
  })

  it('exits 1 naming the problem on bad JSON, a bad id, a closed channel or missing arguments, storing nothing', async () => {
    const channel = await store.open()
    const badJson = await notify([channel, 'answer', '{text:1}', '--data-dir', data.dir])
    expect(badJson.code).toBe(1)
    expect(badJson.stderr).toMatch(/BAD_MESSAGE: \[json\] is not valid JSON/)
    expect(await store.peek(channel, 'agent-to-app')).toBe(0)

    const badId = await notify(['../etc', 'answer', '--data-dir', data.dir])
    expect(badId.code).toBe(1)
    expect(badId.stderr).toMatch(/^duet notify: /)

    const closed = await store.open()
    await store.close(closed)
    const toClosed = await notify([closed, 'answer', '--data-dir', data.dir])
    expect(toClosed.code).toBe(1)
    expect(toClosed.stderr).toMatch(/closed/i)

    const missing = await notify([channel, '--data-dir', data.dir])
    expect(missing.code).toBe(1)
    expect(missing.stderr).toMatch(/expected <channel_id> <event> \[json\]/)

    const badFlag = await notify([channel, 'answer', '--bogus'])
    expect(badFlag.code).toBe(1)
    expect(badFlag.stderr).toMatch(/bogus/)
  })
})

describe("the channels guide's terminal loop (duet wait --follow + duet notify)", () => {
  it('answers each message the app sends, run as printed in the guide', { timeout: 60_000 }, async () => {
    const readme = readFileSync(fileURLToPath(new URL('../../../../docs/guide/channels.md', import.meta.url)), 'utf8')
    const section = readme.slice(readme.indexOf('A terminal can play the agent too'))
    const loop = /```sh\n([\s\S]*?)```/.exec(section)?.[1]
    expect(loop).toContain('duet notify "$CH"')
    // `duet` on PATH is the bin under test, reading this test's store.
    const binDir = mkdtempSync(join(tmpdir(), 'duet-loop-bin-'))
    const shim = join(binDir, 'duet')
    writeFileSync(shim, `#!/bin/sh\nexec "${process.execPath}" "${bin}" "$@"\n`)
    chmodSync(shim, 0o755)
    const channel = await store.open()
    const shell = spawn('bash', ['-c', loop as string], {
      env: { ...process.env, CH: channel, PATH: `${binDir}:${process.env.PATH}`, DUET_DATA_DIR: data.dir },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    })
    let out = ''
    shell.stdout.on('data', (c) => (out += c))
    try {
      await store.send(channel, 'app-to-agent', { event: 'ask', data: { q: 1 } })
      await store.send(channel, 'app-to-agent', { event: 'ask', data: { q: 2 } })
      // `read` removes nothing, so each read returns every answer so far. Between reads the test waits on a
      // timer: a read that returns at once (one answer already there) would otherwise loop on promises
      // alone and never let this process read the shell's output pipe.
      let answers: ChannelMessage[] = []
      const deadline = Date.now() + 45_000
      while (Date.now() < deadline) {
        answers = await store.read(channel, 'agent-to-app', { waitMs: 1_000, after: '0' })
        if (answers.length >= 2) break
        await sleep(50)
      }
      expect(answers).toMatchObject([
        { event: 'answer', data: { text: 'Seen, thanks.' } },
        { event: 'answer', data: { text: 'Seen, thanks.' } },
      ])
      // The loop echoes before it answers, but its output reaches this process through a pipe, on its own time.
      const said = /app said: \{.*"event":"ask"/
      while (!said.test(out) && Date.now() < deadline) await sleep(50)
      expect(out).toMatch(said)
    } finally {
      process.kill(-(shell.pid as number), 'SIGTERM')
      rmSync(binDir, { recursive: true, force: true })
    }
  })
})
