import type { McpServerFactory } from '@modelcontextprotocol/server'
import { serveStdio } from '@modelcontextprotocol/server/stdio'

/** A running stdio connection. */
export interface StdioListening {
  close(): Promise<void>
}

/**
 * Serves one connection over this process's stdin/stdout, in whichever protocol era the client opens with.
 * `onEnd` runs when the client closes stdin, the stdio binding's signal that the server should exit.
 */
export function listenStdio(factory: McpServerFactory, onEnd: () => void): StdioListening {
  const handle = serveStdio(factory)
  process.stdin.once('end', onEnd)
  let closing: Promise<void> | undefined
  return {
    close() {
      closing ??= (async () => {
        process.stdin.off('end', onEnd)
        await handle.close()
      })()
      return closing
    },
  }
}
