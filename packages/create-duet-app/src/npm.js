import { spawn } from 'node:child_process'

/**
 * Runs npm in `cwd` and collects what it printed. `inherit` shows npm's output live instead (for
 * `npm install`, which can take a while); then `stdout` and `output` stay empty.
 * @param {string[]} args
 * @param {string} cwd
 * @param {{ inherit?: boolean }} [options]
 * @returns {Promise<{ code: number, stdout: string, output: string }>}
 */
export function runNpm(args, cwd, { inherit = false } = {}) {
  return new Promise((resolve) => {
    // npm is a .cmd script on Windows, which Node only starts through a shell.
    const child = spawn('npm', args, {
      cwd,
      shell: process.platform === 'win32',
      stdio: inherit ? ['ignore', 'inherit', 'inherit'] : ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let output = ''
    child.stdout?.on('data', (chunk) => {
      stdout += chunk
      output += chunk
    })
    child.stderr?.on('data', (chunk) => {
      output += chunk
    })
    // Not found or not executable: reported like a failed run, so callers handle one shape.
    child.once('error', (err) => resolve({ code: -1, stdout, output: `could not start npm: ${err.message}` }))
    child.once('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), stdout, output }))
  })
}
