import { spawn, type ChildProcess } from 'node:child_process'
import { afterAll, beforeAll } from 'vitest'
import { createClient } from 'redis'

// The one free-port helper of the tests, re-exported for the Redis tests that import it from here.
export { freePort } from '../../../../test/support/ports.js'
import { freePort } from '../../../../test/support/ports.js'

/**
 * Starts a throwaway `redis-server` on a loopback port (free, unless given), without persistence unless `dir`
 * is given: then it keeps an append-only file and RDB snapshots there, so a restart on the same port and
 * folder finds its data again.
 */
export async function startRedis(options: { port?: number; dir?: string } = {}): Promise<{ url: string; port: number; stop: () => Promise<void> }> {
  const port = options.port ?? (await freePort())
  const persistence = options.dir
    ? ['--dir', options.dir, '--appendonly', 'yes', '--appendfsync', 'always', '--save', '1 1']
    : ['--save', '', '--appendonly', 'no']
  const child: ChildProcess = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', ...persistence], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  await new Promise<void>((resolve, reject) => {
    let output = ''
    const timer = setTimeout(() => reject(new Error(`redis-server did not start on port ${port}:\n${output}`)), 20_000)
    child.once('error', (err) => {
      clearTimeout(timer)
      reject(err)
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`redis-server exited with ${code}:\n${output}`))
    })
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer)
        resolve()
      }
    })
  })
  child.removeAllListeners('exit')
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
      }),
  }
}

/**
 * A redis-server for the test file that calls this, with a connected client for the tests' own commands
 * (flushing, planting corrupt values): started before its tests, stopped after them, the client closed first.
 */
export function redisForSuite(): { readonly url: string; readonly admin: ReturnType<typeof createClient> } {
  let server: Awaited<ReturnType<typeof startRedis>> | undefined
  let client: ReturnType<typeof createClient> | undefined
  beforeAll(async () => {
    server = await startRedis()
    client = createClient({ url: server.url })
    await client.connect()
  })
  afterAll(async () => {
    await client?.quit()
    await server?.stop()
  })
  return {
    get url() {
      return server!.url
    },
    get admin() {
      return client!
    },
  }
}
