import type { ChildProcess } from 'node:child_process'
import { PassThrough } from 'node:stream'
import { deserializeMessage, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client'
import { getDefaultEnvironment } from '@modelcontextprotocol/client/stdio'
import spawn from 'cross-spawn'

export interface CappedStdioOptions {
  command: string
  args: string[]
  /** The most bytes one line (one message) may reach before its end of line. */
  maxLineBytes: number
  /** Hears of a line refused for its size; the transport then kills the process and closes. */
  onTooLarge(bytesSoFar: number): void
  /** The server's stderr: ignored (the default), or piped to `stderr` (`duet dev` shows it as log lines). */
  stderr?: 'ignore' | 'pipe'
}

/**
 * A stdio client transport whose reader keeps a line's chunks apart until its end of line, so
 * reading a message costs its size once. The SDK's reader joins the whole buffer again on every
 * chunk, so a 10 MB message costs about 160 copies of up to 10 MB: seconds of CPU for a server
 * that streams a huge view, and `duet check` must refuse that view within a step's deadline. Past
 * its cap the SDK's reader drops what it holds and reads on, so the request waits out its timeout;
 * this one refuses the line and ends the server, and both `duet check` and `duet dev` say why.
 * Spawns as the SDK's transport does: the command with its arguments as given (never through a
 * shell; cross-spawn finds `npx.cmd` and the like on Windows) and the SDK's default environment.
 */
export class CappedStdioTransport implements Transport {
  onclose?: () => void
  onerror?: (error: Error) => void
  onmessage?: (message: JSONRPCMessage) => void
  private child: ChildProcess | undefined
  private parts: Buffer[] = []
  private held = 0
  private refused = false
  /** The server's stderr when `stderr: 'pipe'`; there before `start`, so nothing it writes early is lost. */
  readonly stderr: PassThrough | null

  constructor(private readonly options: CappedStdioOptions) {
    this.stderr = options.stderr === 'pipe' ? new PassThrough() : null
  }

  get pid(): number | null {
    return this.child?.pid ?? null
  }

  start(): Promise<void> {
    if (this.child) return Promise.reject(new Error('CappedStdioTransport already started'))
    const stderr = this.stderr ? 'pipe' : 'ignore'
    const child = spawn(this.options.command, this.options.args, { stdio: ['pipe', 'pipe', stderr], shell: false, env: getDefaultEnvironment() })
    this.child = child
    if (this.stderr) child.stderr?.pipe(this.stderr)
    return new Promise((resolve, reject) => {
      child.once('spawn', () => resolve())
      child.once('error', (err) => {
        reject(err)
        this.onerror?.(err)
      })
      child.once('close', () => {
        this.child = undefined
        this.onclose?.()
      })
      // A server that exits while a message is written to it: its end is reported by 'close'.
      child.stdin?.on('error', (err) => this.onerror?.(err))
      child.stdout?.on('data', (chunk: Buffer) => this.read(chunk))
    })
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin
    if (!stdin || stdin.destroyed) return Promise.reject(new Error('not connected'))
    return new Promise((resolve) => {
      if (stdin.write(`${JSON.stringify(message)}\n`)) resolve()
      else stdin.once('drain', () => resolve())
    })
  }

  async close(): Promise<void> {
    const child = this.child
    if (!child) return
    const closed = new Promise<void>((resolve) => child.once('close', () => resolve()))
    child.stdin?.end()
    // A server that ignores its closed stdin gets SIGTERM, then SIGKILL.
    for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
      if (await settles(closed, 2000)) return
      child.kill(signal)
    }
    await settles(closed, 2000)
  }

  private read(chunk: Buffer): void {
    if (this.refused) return
    let rest = chunk
    for (let end = rest.indexOf(10); end !== -1; end = rest.indexOf(10)) {
      if (this.held + end > this.options.maxLineBytes) {
        this.refuse(this.held + end)
        return
      }
      const line = this.parts.length === 0 ? rest.subarray(0, end) : Buffer.concat([...this.parts, rest.subarray(0, end)])
      this.parts = []
      this.held = 0
      rest = rest.subarray(end + 1)
      this.deliver(line.toString('utf8').replace(/\r$/, ''))
      if (this.refused) return
    }
    if (rest.length === 0) return
    if (this.held + rest.length > this.options.maxLineBytes) {
      this.refuse(this.held + rest.length)
      return
    }
    this.parts.push(rest)
    this.held += rest.length
  }

  private deliver(line: string): void {
    let message: JSONRPCMessage
    try {
      message = deserializeMessage(line)
    } catch (err) {
      // A line that is not JSON (a server logging to stdout) is skipped, as the SDK's reader does.
      if (err instanceof SyntaxError) return
      this.onerror?.(err as Error)
      return
    }
    this.onmessage?.(message)
  }

  private refuse(bytes: number): void {
    this.refused = true
    this.parts = []
    this.held = 0
    this.options.onTooLarge(bytes)
    this.onerror?.(new Error(`a message went past ${this.options.maxLineBytes} bytes before its end of line`))
    // A server streaming a message past the cap gets no grace period to end on its own.
    this.child?.kill('SIGKILL')
  }
}

function settles(promise: Promise<void>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms)
    promise.then(() => {
      clearTimeout(timer)
      resolve(true)
    })
  })
}
