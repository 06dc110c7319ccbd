// `duet serve` as a user runs it (the real bin), for tests of its flags: resolves once it listens, or
// with its exit code and stderr when it refuses to start.
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const BIN = fileURLToPath(new URL('../../../cli/bin/duet.js', import.meta.url))

export interface ServeRun {
  url?: string
  code?: number | null
  stderr: string
  stop(): void
}

/** Starts `duet serve <args> --data-dir <dataDir>`; `stop()` ends it. */
export function serveRun(args: string[], dataDir: string): Promise<ServeRun> {
  const child = spawn(process.execPath, [BIN, 'serve', ...args, '--data-dir', dataDir], { stdio: ['ignore', 'ignore', 'pipe'] })
  return new Promise((resolve) => {
    let stderr = ''
    const stop = () => child.kill('SIGTERM')
    child.stderr!.on('data', (chunk) => {
      stderr += chunk
      const match = stderr.match(/listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/)
      if (match) resolve({ url: match[1]!, stderr, stop })
    })
    child.once('exit', (code) => resolve({ code, stderr, stop }))
  })
}
