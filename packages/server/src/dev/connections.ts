import { createHash } from 'node:crypto'
import { Client, StreamableHTTPClientTransport, type Tool, type Transport } from '@modelcontextprotocol/client'
import { DuetError } from 'duetkit/protocol'
import type { ServerState } from './server-state.js'
import { cappedFetch } from './capped-fetch.js'
import { CappedStdioTransport } from './stdio-transport.js'

// How long one connect attempt (handshake and tools/list) may take. Without it an attempt that reached a
// server as it went away waits out the SDK's 60 s request timeout, and no retry starts meanwhile.
const ATTEMPT_TIMEOUT_MS = 15_000

/** The most bytes one message from a server may have, over stdio or HTTP: the SDK's own stdio cap, 10 MiB. */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024

export type { ServerState } from './server-state.js'

/** Where an MCP server lives: an HTTP endpoint, or a program `duet dev` spawns and talks to over stdio. */
export type ServerSpec = { kind: 'http'; url: string; token?: string } | { kind: 'stdio'; command: string; args: string[]; line: string }

/** Everything a connection reports: state changes, traffic, logs, a watched `ui://` resource that changed. */
export type ConnectionEvent =
  | { type: 'state'; state: ServerState }
  | { type: 'trace'; server: string; dir: 'host->server' | 'server->host'; message: unknown }
  | { type: 'log'; server: string; source: 'server' | 'stderr' | 'vite'; level: string; data: unknown }
  | { type: 'resource-changed'; server: string; uri: string }

export interface ConnectionOptions {
  /** How often to re-read watched resources (and ping) and, while down, to retry. */
  pollMs: number
  emit(event: ConnectionEvent): void
}

/** One MCP client kept connected to one server: reconnects after failures and watches `ui://` resources. */
export class ServerConnection {
  private client: Client | null = null
  private state: ServerState
  private timer: NodeJS.Timeout | null = null
  private ticking = false
  private closed = false
  private readonly watched = new Map<string, string>()
  // A changed digest seen once, not yet reported: a build may still be writing the file.
  private readonly settling = new Map<string, string>()
  // Ids of the watch loop's own requests: they would bury the trace under one read a second.
  private readonly background = new Set<unknown>()
  // The watch loop and a rebuild's re-check take turns, so one change is reported once.
  private checking: Promise<void> = Promise.resolve()
  // While a `--watch` build runs, Vite empties the output folder and writes the view again, so a read
  // may see no file or half of one: no read that overlaps a build may announce anything.
  private building = false
  private builds = 0
  private attempts = 0
  // Why the connection was ended for a message past MAX_MESSAGE_BYTES, when it was: every failure that
  // causes (the connection closed, a call cut off) is shown as this instead.
  private refusal: DuetError | undefined

  constructor(
    readonly id: string,
    readonly spec: ServerSpec,
    private readonly options: ConnectionOptions,
  ) {
    this.state = {
      id,
      label: spec.kind === 'http' ? spec.url : spec.line,
      status: 'connecting',
      tools: [],
      ...(spec.kind === 'http' && { tokenSet: spec.token !== undefined }),
    }
  }

  /** Starts connecting and the watch loop; resolves once the first attempt has settled either way. */
  async start(): Promise<void> {
    await this.connect()
    if (!this.closed) this.timer = setInterval(() => void this.tick(), this.options.pollMs)
  }

  snapshot(): ServerState {
    return this.state
  }

  /** Sends one request to the server; fails with NOT_CONNECTED while it is down. */
  async request(method: string, params: Record<string, unknown>, signal?: AbortSignal): Promise<unknown> {
    const client = this.client
    if (!client || this.state.status !== 'connected')
      throw new DuetError('NOT_CONNECTED', `server ${this.state.label} is not connected${this.state.error ? `: ${this.state.error}` : ''}`)
    this.offered(client, method)
    try {
      switch (method) {
        case 'tools/call':
          return await client.callTool(params as { name: string; arguments?: Record<string, unknown> }, { signal })
        case 'resources/read': {
          const result = await client.readResource(params as { uri: string }, { signal, cacheMode: 'bypass' })
          this.watch(String(params.uri), result)
          return result
        }
        case 'resources/list':
          return await client.listResources(params, { signal, cacheMode: 'bypass' })
        case 'resources/templates/list':
          return await client.listResourceTemplates(params, { signal, cacheMode: 'bypass' })
        case 'prompts/list':
          return await client.listPrompts(params, { signal, cacheMode: 'bypass' })
        case 'prompts/get':
          return await client.getPrompt(params as { name: string; arguments?: Record<string, string> }, { signal })
        default:
          throw new DuetError('UNSUPPORTED', `method ${method} is not forwarded to servers`)
      }
    } catch (err) {
      // Duet's own errors are what they say. Any other failure on a connection refused for a message past
      // the cap is that refusal: over HTTP the cut-off answer fails as a body error, not a closed socket.
      if (err instanceof DuetError || (this.refusal === undefined && !isTransportFailure(err))) throw err
      this.fail(err)
      throw this.refusal ?? err
    }
  }

  /**
   * Lists of a feature the server does not declare are answered here, as the server would (-32601):
   * asked, the SDK client would print a line about it on duet dev's terminal and answer an empty list.
   */
  private offered(client: Client, method: string): void {
    const feature = method === 'prompts/list' ? 'prompts' : method === 'resources/list' || method === 'resources/templates/list' ? 'resources' : undefined
    if (feature === undefined || client.getServerCapabilities()?.[feature] !== undefined) return
    throw Object.assign(new Error(`${this.state.label} does not offer ${feature} (its capabilities have no "${feature}")`), { code: -32601 })
  }

  /** A `--watch` build started: watched reads are ignored until it ends (see `building`). */
  buildStarted(): void {
    this.building = true
    this.builds++
  }

  /**
   * A `--watch` build ended. When it wrote the view, re-reads the rendered `ui://` resources now: a
   * change is reported at once, without the two agreeing reads the polling loop waits for.
   */
  async buildEnded(wrote: boolean): Promise<void> {
    this.building = false
    if (wrote) await this.recheck()
  }

  /** Re-reads the rendered `ui://` resources now, reporting a change without waiting for a second read. */
  async recheck(): Promise<void> {
    if (this.state.status !== 'connected') return
    try {
      await this.checkWatched(false)
    } catch (err) {
      if (isTransportFailure(err)) this.fail(err)
    }
  }

  /**
   * Sends `token` (`undefined`: none) as the bearer from now on, and connects again with it: a protected
   * server answered 401 or 403, and the person at the page pasted a token.
   */
  async setToken(token: string | undefined): Promise<void> {
    if (this.spec.kind !== 'http') throw new DuetError('UNSUPPORTED', `server ${this.state.label} is not an HTTP server: a stdio server takes no token`)
    if (token !== undefined && !/^[\x21-\x7e]+$/.test(token))
      throw new DuetError('INVALID_ARGUMENT', 'a bearer token is printable characters without spaces', { field: 'token' })
    this.spec.token = token
    await this.dropClient()
    this.set({ status: 'connecting', error: undefined, tools: [], tokenSet: token !== undefined })
    await this.connect()
  }

  /** Tool by name, from the last `tools/list`. */
  tool(name: string): Tool | undefined {
    return this.state.tools.find((t) => t.name === name)
  }

  /** Stops the watch loop and drops the client; a request or tick still on its way reports nothing after this. */
  async close(): Promise<void> {
    this.closed = true
    if (this.timer) clearInterval(this.timer)
    this.timer = null
    await this.dropClient()
  }

  // Closing the client fails whatever it still had in flight (a tick's ping, a watched read); those failures
  // are the close itself, not news for a page that is going away too.
  private emit(event: ConnectionEvent): void {
    if (!this.closed) this.options.emit(event)
  }

  private watch(uri: string, result: unknown): void {
    if (uri.startsWith('ui://')) this.watched.set(uri, digest(result))
  }

  private set(patch: Partial<ServerState>): void {
    if (this.closed) return
    this.state = { ...this.state, ...patch }
    this.emit({ type: 'state', state: this.state })
  }

  private async connect(): Promise<void> {
    // A newer attempt (a token set while a retry was on its way) wins: this one's outcome is dropped.
    const attempt = ++this.attempts
    const client = new Client({ name: 'duet-dev', version: '0.1.0' }, { capabilities: {} })
    const transport = this.transport()
    client.onerror = () => {}
    try {
      await client.connect(transport, { timeout: ATTEMPT_TIMEOUT_MS })
      this.traceTransport(transport)
      client.setNotificationHandler('notifications/message', (n) => {
        this.emit({ type: 'log', server: this.id, source: 'server', level: n.params.level, data: n.params.data })
      })
      const { tools } = await client.listTools(undefined, { cacheMode: 'bypass', timeout: ATTEMPT_TIMEOUT_MS })
      if (this.closed || attempt !== this.attempts) {
        await client.close()
        return
      }
      this.client = client
      const info = client.getServerVersion()
      // Chained: the client's own handler fails the requests still waiting for an answer.
      const closed = transport.onclose
      transport.onclose = () => {
        closed?.()
        if (this.client === client) this.fail(new Error('the connection closed (did the server exit?)'))
      }
      this.set({ status: 'connected', error: undefined, tools, serverInfo: info ? { name: info.name, version: info.version } : undefined })
      await this.checkWatched()
    } catch (err) {
      await client.close().catch(() => {})
      if (attempt === this.attempts) this.set({ status: 'error', error: describe(this.refusal ?? err) })
    }
  }

  private transport(): Transport {
    this.refusal = undefined
    if (this.spec.kind === 'http') return this.httpTransport(this.spec.url, this.spec.token)
    // The configured command only, with arguments as given: never through a shell.
    const stdio = new CappedStdioTransport({
      command: this.spec.command,
      args: this.spec.args,
      stderr: 'pipe',
      maxLineBytes: MAX_MESSAGE_BYTES,
      // The transport ends the server, and its close fails the connection.
      onTooLarge: (bytes) =>
        this.refuse(`the server wrote a message past ${MAX_MESSAGE_BYTES} bytes (${bytes} so far, no end of line yet), so duet dev ended it`, bytes),
    })
    stdio.stderr?.on('data', (chunk: Buffer) => {
      this.emit({ type: 'log', server: this.id, source: 'stderr', level: 'info', data: chunk.toString('utf8') })
    })
    return stdio
  }

  /** Records why a message past the cap ended the connection, in the words every failure it causes shows. */
  private refuse(what: string, bytes: number): DuetError {
    this.refusal = new DuetError('TOO_LARGE', `${what}. Make the message smaller: a view that large can load its assets from elsewhere.`, {
      size: bytes,
      limit: MAX_MESSAGE_BYTES,
    })
    return this.refusal
  }

  // The token goes as a bearer header; a refusal (401/403 with its challenge, 429 with its wait) is traced,
  // as the SDK client reports it only as a failed request. Each response is counted as it arrives and
  // cut off past MAX_MESSAGE_BYTES, as a stdio server's messages are: the connection is dropped (the
  // watch loop reconnects), and the calls it carried fail with the reason.
  private httpTransport(url: string, token: string | undefined): Transport {
    const traced: typeof fetch = async (input, init) => {
      const response = await fetch(input, init)
      if (response.status === 401 || response.status === 403 || response.status === 429) {
        const body = await response
          .clone()
          .text()
          .catch(() => '')
        const headers = Object.fromEntries(
          ['www-authenticate', 'retry-after'].flatMap((name) => (response.headers.has(name) ? [[name, response.headers.get(name)]] : [])),
        )
        this.emit({
          type: 'trace',
          server: this.id,
          dir: 'server->host',
          message: { http: { status: response.status, headers, body: parseBody(body) } },
        })
      }
      return response
    }
    const capped = cappedFetch(MAX_MESSAGE_BYTES, (what, bytes) => this.fail(this.refuse(`${what}, so duet dev closed the connection`, bytes)), traced)
    return new StreamableHTTPClientTransport(new URL(url), {
      fetch: capped,
      ...(token !== undefined && { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
    })
  }

  // Wraps the transport after connect so the trace shows every message this host exchanged with the server.
  private traceTransport(transport: Transport): void {
    const send = transport.send.bind(transport)
    transport.send = async (message, opts) => {
      const m = message as { id?: unknown; method?: string }
      if (this.ticking && m.id !== undefined && (m.method === 'ping' || m.method === 'resources/read')) this.background.add(m.id)
      else this.emit({ type: 'trace', server: this.id, dir: 'host->server', message })
      return send(message, opts)
    }
    const receive = transport.onmessage
    transport.onmessage = (message, extra) => {
      const id = (message as { id?: unknown }).id
      if (id !== undefined && this.background.delete(id)) {
        receive?.(message, extra)
        return
      }
      this.emit({ type: 'trace', server: this.id, dir: 'server->host', message })
      receive?.(message, extra)
    }
  }

  private fail(err: unknown): void {
    if (this.closed || this.state.status === 'error') return
    void this.dropClient()
    this.set({ status: 'error', error: describe(this.refusal ?? err) })
  }

  private async dropClient(): Promise<void> {
    const client = this.client
    this.client = null
    if (client) await client.close().catch(() => {})
  }

  private async tick(): Promise<void> {
    if (this.ticking || this.closed) return
    this.ticking = true
    try {
      if (this.state.status !== 'connected') await this.connect()
      // A view that cannot be read for a moment (a build between emptying dist/ and writing it) is not a
      // server that went away: only a transport failure takes the server down; the next poll reads again.
      else if (this.watched.size > 0)
        await this.checkWatched().catch((err) => {
          if (isTransportFailure(err)) throw err
        })
      else await this.client?.ping()
    } catch (err) {
      this.fail(err)
    } finally {
      this.ticking = false
    }
  }

  // Re-reads every `ui://` resource the page has rendered; a changed digest means the view was rebuilt.
  // The change is reported once two reads in a row agree, so a half-written file never renders.
  private checkWatched(settle = true): Promise<void> {
    const run = this.checking.then(() => this.readWatched(settle))
    this.checking = run.catch(() => {})
    return run
  }

  private async readWatched(settle: boolean): Promise<void> {
    for (const [uri, before] of this.watched) {
      const client = this.client
      if (!client || this.building) return
      const build = this.builds
      const after = digest(await client.readResource({ uri }, { cacheMode: 'bypass' }))
      // A build that started while this read was on its way may have been writing the file.
      if (this.building || build !== this.builds) return
      if (after === before) {
        this.settling.delete(uri)
        continue
      }
      if (settle && this.settling.get(uri) !== after) {
        this.settling.set(uri, after)
        continue
      }
      this.settling.delete(uri)
      this.watched.set(uri, after)
      this.emit({ type: 'resource-changed', server: this.id, uri })
    }
  }
}

function parseBody(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

function digest(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex')
}

function describe(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err)
  const cause = err instanceof Error && err.cause instanceof Error ? ` (${err.cause.message})` : ''
  return `${message}${cause}`
}

// Protocol errors (a tool's -32602, an unknown resource) say nothing about the link; network errors do.
function isTransportFailure(err: unknown): boolean {
  if (!(err instanceof Error)) return false
  const code = (err as { code?: unknown }).code
  if (typeof code === 'number' && code > -32800 && code < -32000) return false
  if (typeof code === 'number' && code >= -32700 && code <= -32600) return false
  return /fetch failed|ECONNREFUSED|ECONNRESET|closed|socket|network/i.test(`${err.message} ${err.cause instanceof Error ? err.cause.message : ''}`)
}
