/**
 * The failure path a command shares: `commandFailure('wait')` gives a function that says what went
 * wrong on stderr as `duet wait: <message>` and returns exit code 1, so every command reads the same.
 */
export function commandFailure(command: string): (message: string) => number {
  return (message) => {
    process.stderr.write(`duet ${command}: ${message}\n`)
    return 1
  }
}
