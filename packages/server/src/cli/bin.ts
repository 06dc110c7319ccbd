import type { Command } from './command.js'

// Each command is loaded only when asked for, so `duet wait` starts without the server's dependencies.
const commands: Record<string, () => Promise<Command>> = {
  serve: async () => (await import('./serve.js')).serve,
  wait: async () => (await import('./wait.js')).wait,
  notify: async () => (await import('./notify.js')).notify,
  dev: async () => (await import('./dev.js')).dev,
  check: async () => (await import('./check.js')).check,
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    const lines = await Promise.all(Object.entries(commands).map(async ([n, load]) => `  ${n.padEnd(7)} ${(await load()).summary}`))
    process.stdout.write(`Usage: duet <command> [options]\n\nCommands:\n${lines.join('\n')}\n\nRun 'duet <command> --help' for a command's options.\n`)
    return name ? 0 : 1
  }
  const load = commands[name]
  if (!load) {
    process.stderr.write(`duet: unknown command '${name}'. Run 'duet --help' for the list.\n`)
    return 1
  }
  const command = await load()
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(command.help.endsWith('\n') ? command.help : `${command.help}\n`)
    return 0
  }
  return command.run(rest)
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code
  },
  (err) => {
    process.stderr.write(`duet: ${err instanceof Error ? err.message : String(err)}\n`)
    process.exitCode = 1
  },
)
