import type { Command } from './command.js'
import { parseDevArgs } from '../dev/options.js'

const HELP = `Usage: duet dev [--server <url> [--token <bearer>]]... [--stdio "<command>"]... [--port 5180] [--poll 1000] [--watch <vite project>]
               [--model <provider>:<model> [--model-base-url <url>]]

Serves a local web host for trying and debugging MCP App servers, on 127.0.0.1.

  --server <url>       an MCP server over Streamable HTTP, e.g. http://localhost:3001/mcp
  --token <bearer>     the access token for the --server just before it (a server with --auth-issuer);
                       $DUET_DEV_TOKEN serves HTTP servers without one. 401/403/429 answers show in the trace
  --stdio "<command>"  a server to spawn and talk to over stdio; the line is split like a shell
                       would quote it, but never run through a shell
  --port <n>           port of the host page (default 5180, or $DUET_DEV_PORT); the sandbox origin
                       uses port + 1
  --poll <ms>          how often to re-read rendered views (reload) and retry lost servers (default 1000)
  --watch <folder>     a Vite project (e.g. . in a create-duet-app project): rebuild its view with its
                       own Vite on every save and re-mount the rendered view at once, keeping its
                       persisted state (App.persist) and replaying the last tool input and result
  --model <p>:<m>      chat with a real model in the page; it calls the servers' tools and their views
                       render in the chat. anthropic:<model> ($ANTHROPIC_API_KEY), openai:<model>
                       ($OPENAI_API_KEY) or openai-compatible:<model> with --model-base-url; any of them
                       takes $DUET_MODEL_API_KEY. $DUET_MODEL stands for the flag. Needs Node 22+
  --model-base-url <url>  another endpoint for the model's API (Ollama: http://localhost:11434/v1)

Give --server and --stdio as many times as you like.`

export const dev: Command = {
  summary: 'serve a local web host that renders and debugs MCP Apps',
  help: HELP,
  async run(argv) {
    const options = parseDevArgs(argv)
    const { startDevServer } = await import('../dev/dev-server.js')
    const server = await startDevServer(options)
    process.stdout.write(`duet dev: host ready at ${server.url} (sandbox ${server.sandboxOrigin})\n`)
    if (options.watch !== undefined) process.stdout.write(`duet dev: rebuilding ${options.watch} on save\n`)
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
