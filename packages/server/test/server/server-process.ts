import { spawn, type ChildProcess } from 'node:child_process'

/** Starts a server program (`duet serve --http`, an example server) and resolves with the URL it prints on stderr. */
export function startServerProcess(args: string[], env: Record<string, string> = {}): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...env } })
  return new Promise((resolve, reject) => {
    let stderr = ''
    child.stderr!.on('data', (chunk) => {
      stderr += chunk
      const match = stderr.match(/listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/)
      if (match) resolve({ child, url: match[1]! })
    })
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code}: ${stderr}`)))
  })
}
