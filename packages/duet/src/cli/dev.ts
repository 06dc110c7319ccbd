import type { Command } from './command.js'

// Placeholder until the command lands; replaced by its issue's work.
export const dev: Command = {
  summary: 'not built yet',
  help: 'duet dev: not built yet',
  async run() {
    process.stderr.write('duet dev: not built yet\n')
    return 1
  },
}
