import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { exampleView } from '../../../../test/support/built.js'
import type { Listening } from '../../src/server/index.js'

// What the interop e2e files share: the forecast example as the server under test, and a real host
// (MCP Inspector, MCPJam) run as a child process, awaited until it says it listens and ended after.

const FORECAST_DIST = fileURLToPath(new URL('../../../../examples/forecast/dist/', import.meta.url))
const START_MS = 60_000

/** The forecast example's server on a free loopback port, serving its built view from dist/ as after `npm run build` there. */
export async function startForecast(): Promise<Listening> {
  mkdirSync(FORECAST_DIST, { recursive: true })
  writeFileSync(join(FORECAST_DIST, 'index.html'), exampleView('forecast'))
  // @ts-expect-error the example is JavaScript without declarations
  const { createForecastServer } = await import('../../../../examples/forecast/server/server.js')
  return createForecastServer().listen({ http: { port: 0, host: '127.0.0.1' }, handleSignals: false })
}

/** A host running as a child process. */
export interface HostProcess {
  child: ChildProcess
  /** All it has written so far, stdout and stderr together. */
  output(): string
  /** Ends it (SIGTERM) and waits for its exit; nothing when it has already exited. */
  stop(): Promise<void>
}

/**
 * Spawns `name`'s process and resolves once `ready` holds for what it has written. A host that exits
 * first, or is not ready within 60 s, rejects with its output (and is ended, so no process is left).
 */
export async function startHost(
  name: string,
  command: string,
  args: string[],
  options: Pick<SpawnOptions, 'cwd' | 'env'>,
  ready: (output: string) => boolean,
): Promise<HostProcess> {
  const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  const host: HostProcess = {
    child,
    output: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGTERM')
      await exited
    },
  }
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${name} did not start in ${START_MS / 1000} s:\n${output}`)), START_MS)
      const hear = (chunk: Buffer) => {
        output += chunk
        if (ready(output)) {
          clearTimeout(timer)
          resolve()
        }
      }
      child.stdout?.on('data', hear)
      child.stderr?.on('data', hear)
      child.once('exit', (code) => {
        clearTimeout(timer)
        reject(new Error(`${name} exited (${code}):\n${output}`))
      })
    })
  } catch (err) {
    await host.stop()
    throw err
  }
  return host
}
