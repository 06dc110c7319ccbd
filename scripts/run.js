// How the repository's scripts run a command: to its end, resolving with its exit code and, when its
// stdout and stderr are piped, everything it printed (on 'close', so no late output is lost).
import { spawn } from 'node:child_process'

/** Runs `command` with `args`; `stdio` defaults to the caller's terminal. Never rejects. */
export function run(command, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: options.stdio ?? 'inherit' })
    let output = ''
    child.stdout?.on('data', (c) => (output += c))
    child.stderr?.on('data', (c) => (output += c))
    child.on('error', (err) => resolve({ code: 127, output: `${output}${err.message}\n` }))
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 128 : 1), output }))
  })
}
