import type { Command } from './command.js'
import { parseDevArgs } from '../dev/options.js'

const HELP = `Usage: duet dev [--server <url>]... [--stdio "<command>"]... [--port 5180] [--poll 1000]

Serves a local web host for trying and debugging MCP App servers, on 127.0.0.1.

  --server <url>       an MCP server over Streamable HTTP, e.g. http://localhost:3001/mcp
  --stdio "<command>"  a server to spawn and talk to over stdio; the line is split like a shell
                       would quote it, but never run through a shell
  --port <n>           port of the host page (default 5180); the sandbox origin uses port + 1
  --poll <ms>          how often to re-read rendered views (reload) and retry lost servers (default 1000)

Give --server and --stdio as many times as you like.`

export const dev: Command = {
  summary: 'serve a local web host that renders and debugs MCP Apps',
  help: HELP,
  async run(argv) {
    const options = parseDevArgs(argv)
    const { startDevServer } = await import('../dev/dev-server.js')
    const server = await startDevServer(options)
    process.stdout.write(`duet dev: host ready at ${server.url} (sandbox ${server.sandboxOrigin})\n`)
    await new Promise<void>((resolve) => {
      const stop = () => {
        process.off('SIGINT', stop)
        process.off('SIGTERM', stop)
        resolve()
      }
      process.on('SIGINT', stop)
      process.on('SIGTERM', stop)
    })
    await server.close()
    return 0
  },
}
