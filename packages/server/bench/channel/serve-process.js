import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const BIN = fileURLToPath(new URL('../../dist/cli/bin.js', import.meta.url))

/** Starts `duet serve --http --port 0` with `args` (its store flags), and `env` added to ours; resolves with the child and its URL. */
export function serveHttp(args, env = {}) {
  const child = spawn(process.execPath, [BIN, 'serve', '--http', '--port', '0', ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, ...env },
  })
  return new Promise((resolve, reject) => {
    let stderr = ''
    child.stderr.on('data', (chunk) => {
      stderr += chunk
      const match = stderr.match(/listening on (http:\/\/\S+\/mcp)/)
      if (match) resolve({ child, url: match[1] })
    })
    child.once('exit', (code) => reject(new Error(`duet serve exited ${code}: ${stderr}`)))
  })
}
