import { Stream } from 'xstream'
import { REPLY, type AppHandle, type Driver, type ReplyKind } from 'duetkit'
import type { McpErrorReply, McpSinkValue, McpSource } from 'duetkit/mcp'
import { makeMcpAppDriver, type McpAppDriverOptions } from 'duetkit/mcp'

/** An error of a shell API call: the driver's message, with its code and the tool result when there was one. */
export class ShellCallError extends Error {
  constructor(message: string, readonly code?: number | string, readonly result?: unknown) {
    super(message)
    this.name = 'DuetShellError'
  }
}

/** One MCP Apps connection shared by the shell's own calls and the component it mounts. */
export interface SharedDriver {
  source: McpSource
  /** Sends a sink value and resolves with its `ok` answer (rejects with a `ShellCallError`). */
  request(value: McpSinkValue): Promise<any>
  /** A driver for `run(Component, { MCP })`: the component's sink joins the shared one, on the same handshake. */
  forComponent: Driver<McpSource>
}

/**
 * A view frame gets one `ui/initialize`, so the shell and the agent's component cannot each open a
 * driver. The shell calls the driver itself with a sink it feeds, and hands the component a driver
 * that merges into that sink and returns the same source (whose host events replay to late subscribers).
 */
export function createSharedDriver(options: McpAppDriverOptions): SharedDriver {
  const sink$ = Stream.create<unknown>()
  let mounted: AppHandle | undefined
  // Before a component mounts there is nothing to flush or to list; the teardown's grace period covers it.
  const app: AppHandle = {
    agents: () => mounted?.agents() ?? [],
    onFlush: (listener) => (mounted ? mounted.onFlush(listener) : () => {}),
  }
  const source = makeMcpAppDriver(options)(sink$, { name: 'MCP', app })

  return {
    source,
    request(value) {
      return new Promise((resolve, reject) => {
        const sink = { ...value, ok: 'ok', error: 'error' }
        Object.defineProperty(sink, REPLY, {
          enumerable: false,
          value: (kind: ReplyKind, data: unknown) => {
            if (kind === 'ok') resolve(data)
            else {
              const failure = data as McpErrorReply
              reject(new ShellCallError(failure.error, failure.code, failure.result))
            }
            return true
          },
        })
        sink$.shamefullySendNext(sink)
      })
    },
    forComponent(componentSink$, context) {
      mounted = context.app
      componentSink$.addListener({
        next: (value) => sink$.shamefullySendNext(value),
        error: (err) => console.error('[duet shell] component sink failed', err),
        complete: () => { mounted = undefined },
      })
      return source
    },
  }
}
