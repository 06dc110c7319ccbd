import type { Command } from './command.js'

// Placeholder until the command lands; replaced by its issue's work.
export const wait: Command = {
  summary: 'not built yet',
  help: 'duet wait: not built yet',
  async run() {
    process.stderr.write('duet wait: not built yet\n')
    return 1
  },
}
