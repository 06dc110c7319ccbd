import { Client, StreamableHTTPClientTransport, type Tool, type Transport } from '@modelcontextprotocol/client'
import type { ServerSpec } from '../dev/connections.js'
import { cappedFetch } from '../dev/capped-fetch.js'
import { CappedStdioTransport } from '../dev/stdio-transport.js'

// The largest timer Node keeps: the step deadlines decide when to give up, never the SDK's 60 s default.
const NO_SDK_TIMEOUT = 2 ** 31 - 1

/** The server `duet check` talks to: its tools, requests to it, and its end. */
export interface CheckServer {
  label: string
  tools: Tool[]
  tool(name: string): Tool | undefined
  /** tools/call, resources/read, resources/list or resources/templates/list, as the view may forward. */
  request(method: string, params: Record<string, unknown>): Promise<unknown>
  /** The spawned stdio server's pid (killed on exit even when `close` never ran). */
  pid: number | null
  close(): Promise<void>
}

/**
 * Connects to `spec` with every message from the server capped at `maxMessageBytes`, counted as the
 * bytes arrive, so a huge response is refused before it is held in memory: over stdio the line
 * reader has the cap, over HTTP each response body is counted as it streams. `onTooLarge`
 * hears of a refused message (the pending request itself may only end at its deadline).
 */
export async function connectCheckServer(spec: ServerSpec, maxMessageBytes: number, onTooLarge: (what: string) => void): Promise<CheckServer> {
  let transport: Transport
  let stdio: CappedStdioTransport | null = null
  if (spec.kind === 'http') {
    transport = new StreamableHTTPClientTransport(new URL(spec.url), { fetch: cappedFetch(maxMessageBytes, onTooLarge) })
  } else {
    // The configured command only, with arguments as given: never through a shell.
    stdio = new CappedStdioTransport({
      command: spec.command,
      args: spec.args,
      maxLineBytes: maxMessageBytes,
      onTooLarge: () => onTooLarge(`a message on the server's stdout went past ${maxMessageBytes} bytes before its end of line`),
    })
    transport = stdio
  }
  const client = new Client({ name: 'duet-check', version: '0.1.0' }, { capabilities: {} })
  const pidOf = () => stdio?.pid ?? null
  let pid: number | null = null
  try {
    await client.connect(transport)
    pid = pidOf()
    const { tools } = await client.listTools(undefined, { cacheMode: 'bypass' })
    return {
      label: spec.kind === 'http' ? spec.url : spec.line,
      tools,
      tool: (name) => tools.find((t) => t.name === name),
      request: (method, params) => {
        const opts = { timeout: NO_SDK_TIMEOUT }
        if (method === 'tools/call') return client.callTool(params as { name: string; arguments?: Record<string, unknown> }, opts)
        if (method === 'resources/read') return client.readResource(params as { uri: string }, { ...opts, cacheMode: 'bypass' })
        if (method === 'resources/list') return client.listResources(params, { ...opts, cacheMode: 'bypass' })
        if (method === 'resources/templates/list') return client.listResourceTemplates(params, { ...opts, cacheMode: 'bypass' })
        return Promise.reject(new Error(`${method} is not forwarded`))
      },
      pid,
      close: () => closeClient(client, pid),
    }
  } catch (err) {
    await closeClient(client, pid ?? pidOf())
    throw err
  }
}

async function closeClient(client: Client, pid: number | null): Promise<void> {
  // The timer is unref'd: once the client closed, it must not hold the process for its 2 s.
  await Promise.race([client.close().catch(() => {}), new Promise((r) => setTimeout(r, 2000).unref())])
  // A server that ignores its closed stdin still ends with the check.
  if (pid !== null) killQuietly(pid)
}

/** Sends SIGKILL to `pid`, ignoring a process already gone. */
export function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL')
  } catch {}
}
