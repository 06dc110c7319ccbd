import { type ChildProcess, spawn } from 'node:child_process'
import type { Server } from 'node:net'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { builtDuetCli } from '../../../../test/support/built.js'
import { freePortPair as freePair, listenOn } from '../../../../test/support/ports.js'

// The built `duet dev` as a starter's `npm run dev` runs it (no --port): which port it takes, what a
// taken port says, and what it prints while the page lists a server's prompts.
const FORECAST_SERVER = fileURLToPath(new URL('../../../../examples/forecast/server/server.js', import.meta.url))
const held: Server[] = []
const children: ChildProcess[] = []

interface Run {
  child: ChildProcess
  out: () => string
  ready: Promise<string>
  exited: Promise<number | null>
}

function duetDev(args: string[], env: Record<string, string>): Run {
  const child = spawn(process.execPath, [builtDuetCli(), 'dev', '--stdio', `node ${FORECAST_SERVER} --stdio`, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  children.push(child)
  let out = ''
  const ready = new Promise<string>((resolve) => {
    const onData = (chunk: Buffer) => {
      out += chunk.toString('utf8')
      const m = /host ready at (http:\/\/\S+)\//.exec(out)
      if (m) resolve(m[1]!)
    }
    child.stdout!.on('data', onData)
    child.stderr!.on('data', onData)
  })
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  return { child, out: () => out, ready, exited }
}

afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  await Promise.all(held.splice(0).map((s) => new Promise((resolve) => s.close(resolve))))
})

describe('duet dev ports', { timeout: 60_000 }, () => {
  it('listens on $DUET_DEV_PORT when --port is not given (a starter’s npm run dev)', async () => {
    const port = await freePair()
    const run = duetDev([], { DUET_DEV_PORT: String(port) })
    expect(await run.ready).toBe(`http://127.0.0.1:${port}`)
    expect(run.out()).toContain(`(sandbox http://127.0.0.1:${port + 1})`)
  })

  it('refuses a $DUET_DEV_PORT that is not a port, naming the variable', async () => {
    const run = duetDev([], { DUET_DEV_PORT: 'eighty' })
    expect(await run.exited).toBe(1)
    expect(run.out()).toContain('$DUET_DEV_PORT eighty: expected a whole number from 0 to 65534')
  })

  it('names the sandbox, and what moves it, when only the sandbox port is taken', async () => {
    const port = await freePair()
    held.push(await listenOn(port + 1))
    const run = duetDev(['--port', String(port)], {})
    expect(await run.exited).toBe(1)
    const message = run.out().trim()
    expect(message).toContain(`port ${port + 1} (the sandbox origin duet dev serves views from, always the page's port ${port} + 1) is in use`)
    expect(message).toContain('pick another --port or $DUET_DEV_PORT')
  })

  it('names the page port the person chose when that one is taken', async () => {
    const port = await freePair()
    held.push(await listenOn(port))
    const run = duetDev([], { DUET_DEV_PORT: String(port) })
    expect(await run.exited).toBe(1)
    expect(run.out().trim()).toBe(`duet: port ${port} (the duet dev page) is in use; pick another with --port or $DUET_DEV_PORT`)
  })
})

describe('duet dev and a server without prompts', { timeout: 60_000 }, () => {
  it('answers the prompts tab "method not found" without the SDK client warning on the terminal', async () => {
    const port = await freePair()
    const run = duetDev(['--port', String(port)], {})
    const url = await run.ready
    const rpc = async (method: string) => {
      const res = await fetch(`${url}/api/rpc`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ server: 's1', method, params: {}, caller: 'user' }),
      })
      return (await res.json()) as { result?: unknown; error?: { code: number; message: string } }
    }
    // The server connects in the background; tools/list answering means it is up.
    for (let i = 0; i < 100 && (await rpc('resources/list')).error; i++) await new Promise((r) => setTimeout(r, 100))
    const answer = await rpc('prompts/list')
    expect(answer.error).toEqual({ code: -32601, message: expect.stringMatching(/does not offer prompts \(its capabilities have no "prompts"\)/) })
    // Resources it does offer are still listed.
    expect((await rpc('resources/list')).result).toMatchObject({
      resources: expect.arrayContaining([expect.objectContaining({ uri: 'ui://forecast/view.html' })]),
    })
    run.child.kill('SIGTERM')
    await run.exited
    expect(run.out()).not.toMatch(/does not advertise/)
  })
})
