import type { Server } from 'node:net'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { freePort, freePortPair, listenOn } from '../../../../test/support/ports.js'
import { runToEnd, type Ended } from '../../../../test/support/run-to-end.js'

// `npm start` (scripts/start.js) and the forecast server it starts, when a port they need is taken.
const root = fileURLToPath(new URL('../../../../', import.meta.url))
const held: Server[] = []

/** Listens on a free loopback port and keeps it, so the code under test finds it taken. */
async function takePort(): Promise<number> {
  const server = await listenOn(0)
  held.push(server)
  return (server.address() as { port: number }).port
}

/**
 * Takes a port whose predecessor was free a moment ago, so DUET_DEV_PORT = it − 1 finds only the sandbox
 * port taken. (A random taken port's predecessor may be any other test's ephemeral port: CI saw that once.)
 */
async function takeSandboxPort(): Promise<number> {
  for (;;) {
    const page = await freePortPair()
    const server = await listenOn(page + 1).catch(() => undefined)
    if (server) {
      held.push(server)
      return page + 1
    }
  }
}

function run(args: string[], env: Record<string, string>): Promise<Ended> {
  return runToEnd(process.execPath, args, { cwd: root, env: { ...process.env, ...env }, killAfterMs: 20_000 })
}

afterEach(async () => {
  await Promise.all(held.splice(0).map((s) => new Promise((resolve) => s.close(resolve))))
})

describe('npm start with its ports taken', { timeout: 30_000 }, () => {
  it('exits 1 with one line naming the port and the variable, before building anything', async () => {
    const taken = await takePort()
    const r = await run(['scripts/start.js'], { PORT: String(taken), DUET_SERVE_PORT: String(await freePort()), DUET_DEV_PORT: String(await freePortPair()) })
    expect(r.code).toBe(1)
    expect(r.stderr).toBe(`start: port ${taken} (the forecast server) is in use; stop what holds it or set PORT to another port\n`)
    expect(r.stdout).not.toContain('building')
  })

  it("checks duet dev's sandbox port, DUET_DEV_PORT + 1, too", async () => {
    const sandbox = await takeSandboxPort()
    const r = await run(['scripts/start.js'], { PORT: String(await freePort()), DUET_SERVE_PORT: String(await freePort()), DUET_DEV_PORT: String(sandbox - 1) })
    expect(r.code).toBe(1)
    expect(r.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(new RegExp(`^start: port ${sandbox} \\(duet dev's sandbox \\(DUET_DEV_PORT \\+ 1\\)\\) is in use`)),
    ])
  })

  it('refuses a port variable that is not a port, naming it', async () => {
    const r = await run(['scripts/start.js'], { DUET_SERVE_PORT: 'eighty' })
    expect(r.code).toBe(1)
    expect(r.stderr).toBe("start: DUET_SERVE_PORT must be a port number 1-65535, got 'eighty'\n")
  })
})

describe('the forecast server on a taken port', { timeout: 30_000 }, () => {
  it('exits 1 with a one-line reason instead of a stack trace', async () => {
    const taken = await takePort()
    const r = await run(['examples/forecast/server/server.js'], { PORT: String(taken), HOST: '127.0.0.1' })
    expect(r.code).toBe(1)
    expect(r.stderr).toBe(`forecast: listen: 127.0.0.1:${taken} is in use; pick another port (0 picks a free one)\n`)
  })
})
