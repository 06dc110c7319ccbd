import { REPLY, Stream, type AppHandle, type Driver, type ReplyKind } from 'duetkit'
import type { McpErrorReply, McpSinkValue, McpSource } from 'duetkit/mcp'
import { agentOnlyMessage, isAgentOnly, withViewChannel } from './view-calls.js'
import { makeMcpAppDriver, RpcError, type McpAppDriverOptions } from 'duetkit/mcp'
import { DuetError, ErrorCodes, isObject, type ErrorCode } from 'duetkit/protocol'

/**
 * A failed shell call as the error the page's code catches: the host's JSON-RPC code as an RpcError,
 * the driver's own as a DuetError, and a tool's error result as a DuetError with the tool's own code
 * (every Duet tool answers `structuredContent.error = { code, message }`), else TOOL_FAILED.
 */
function callError(failure: McpErrorReply): Error {
  const result = failure.result
  if (result) {
    const told = isObject(result.structuredContent) ? result.structuredContent.error : undefined
    if (isObject(told) && typeof told.code === 'string' && Object.hasOwn(ErrorCodes, told.code) && typeof told.message === 'string') {
      return new DuetError(told.code as ErrorCode, told.message, { ...failure.data, result })
    }
    return new DuetError('TOOL_FAILED', failure.error, { result })
  }
  if (typeof failure.code === 'number') return new RpcError(failure.code, failure.error)
  if (failure.code !== undefined) return new DuetError(failure.code, failure.error)
  return new DuetError('TOOL_FAILED', failure.error)
}

/**
 * A component's `notifyAgent` sink value, with its reply watched: a failure still reaches the
 * component's `error:` action, and is reported too, so the agent reads it in the server log.
 */
function watchNotify(value: unknown, onFailed: ((message: string, data: Record<string, unknown>) => void) | undefined): unknown {
  if (!onFailed || !isObject(value) || !isObject(value.notifyAgent)) return value
  const reply = (value as Record<PropertyKey, unknown>)[REPLY] as ((kind: ReplyKind, data: unknown) => boolean) | undefined
  const event = String(value.notifyAgent.event)
  const watched = { ...value }
  Object.defineProperty(watched, REPLY, {
    enumerable: false,
    value: (kind: ReplyKind, data: unknown) => {
      if (kind !== 'ok') {
        const failure = data as McpErrorReply
        onFailed(`notifyAgent('${event}') failed: ${failure.error}`, { event, ...(failure.code !== undefined && { code: failure.code }) })
      }
      return reply ? reply(kind, data) : false
    },
  })
  return watched
}

/**
 * A component's sink value as the shell forwards it: an agent-only tool call is answered with FORBIDDEN and not
 * sent (undefined), a data call names the render's channel (see view-calls.ts), anything else goes as it is.
 */
function asViewCall(value: unknown, channel: string | undefined): unknown {
  if (!isObject(value) || typeof value.callTool !== 'string') return value
  const reply = (value as Record<PropertyKey, unknown>)[REPLY] as ((kind: ReplyKind, data: unknown) => boolean) | undefined
  if (isAgentOnly(value.callTool)) {
    reply?.('error', { error: agentOnlyMessage(value.callTool), code: 'FORBIDDEN' })
    return undefined
  }
  // Without a channel yet (a component mounts once its render is known, so rarely), an empty one: the server refuses it.
  const args = withViewChannel(value.callTool, value.args, channel ?? '')
  if (args === value.args) return value
  // A copy with every own property, the reply hook (a non-enumerable symbol) included.
  const copy = Object.defineProperties({}, Object.getOwnPropertyDescriptors(value)) as Record<string, unknown>
  copy.args = args
  return copy
}

/** One MCP Apps connection shared by the shell's own calls and the component it mounts. */
export interface SharedDriver {
  source: McpSource
  /** Sends a sink value and resolves with its `ok` answer (rejects with a DuetError or, for a host's JSON-RPC error, an RpcError). */
  request(value: McpSinkValue): Promise<unknown>
  /** A driver for `run(Component, { MCP })`: the component's sink joins the shared one, on the same handshake. */
  forComponent: Driver<McpSource>
}

/**
 * A view frame gets one `ui/initialize`, so the shell and the agent's component cannot each open a
 * driver. The shell calls the driver itself with a sink it feeds, and hands the component a driver
 * that merges into that sink and returns the same source (whose host events replay to late subscribers).
 */
export function createSharedDriver(
  options: McpAppDriverOptions,
  onComponentSendFailed?: (message: string, data: Record<string, unknown>) => void,
  viewChannel: () => string | undefined = () => undefined,
): SharedDriver {
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
              reject(callError(data as McpErrorReply))
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
        next: (value) => {
          const call = asViewCall(value, viewChannel())
          if (call !== undefined) sink$.shamefullySendNext(watchNotify(call, onComponentSendFailed))
        },
        error: (err) => console.error('[duet shell] component sink failed', err),
        complete: () => {
          mounted = undefined
        },
      })
      return source
    },
  }
}
