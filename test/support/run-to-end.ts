import { spawn } from 'node:child_process'

/** How a process ended: its exit code and everything it wrote on each stream. */
export type Ended = { code: number | null; stdout: string; stderr: string }

export type RunToEndOptions = {
  cwd?: string
  /** The whole environment (default: this process's). */
  env?: NodeJS.ProcessEnv
  /** Written to its stdin, which then ends; without it stdin is closed (no terminal, nothing to read). */
  stdin?: string
  /** Called once the process has started. */
  onSpawn?: () => void
  /** SIGKILLs it after this long, so a test of a hanging command still ends. */
  killAfterMs?: number
}

/**
 * Runs a command to its end and resolves once its output streams have closed too (`close`, not `exit`,
 * so nothing it wrote last is missed): the one way the tests run a CLI as a process.
 */
export function runToEnd(command: string, args: readonly string[], options: RunToEndOptions = {}): Promise<Ended> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: [options.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout?.on('data', (c) => {
      stdout += c
    })
    child.stderr?.on('data', (c) => {
      stderr += c
    })
    const timer = options.killAfterMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), options.killAfterMs)
    child.once('error', (err) => {
      clearTimeout(timer)
      reject(err)
    })
    child.once('spawn', () => options.onSpawn?.())
    child.once('close', (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    })
    if (options.stdin !== undefined) child.stdin?.end(options.stdin)
  })
}
