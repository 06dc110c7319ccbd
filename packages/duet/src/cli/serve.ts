import type { Command } from './command.js'

// Placeholder until the command lands; replaced by its issue's work.
export const serve: Command = {
  summary: 'not built yet',
  help: 'duet serve: not built yet',
  async run() {
    process.stderr.write('duet serve: not built yet\n')
    return 1
  },
}
