import { createStream, type Stream } from '../runtime/stream.js'
import { DuetError } from '../protocol/errors.js'
import type { JsonObject } from '../protocol/json.js'
import type { ToolSignatures } from '../protocol/tools.js'
import type { AgentMessage } from './channel.js'
import type { CallToolResult, HostContext, HostInfo, ToolCancelled } from './host-types.js'

/**
 * What each `MCP.select(name)` stream carries, for a view of tools `T` (tool name → signature) that
 * shows the tools named `V`. Untyped (`ToolSignatures`), arguments are JSON objects and results carry
 * a JSON object as `structuredContent`.
 */
export interface McpSourceTypes<T = ToolSignatures, V extends keyof T = keyof T> {
  /** The arguments the model called the view's tool with. */
  'tool-input': ArgsOf<T[V]>
  /** The arguments so far, while the model is still writing them. */
  'tool-input-partial': PartialArgsOf<T[V]>
  /** The view's tool's result. */
  'tool-result': CallToolResult<OutputOf<T[V]>>
  'tool-cancelled': ToolCancelled
  /** The whole host context, after every change. */
  'host-context-changed': HostContext
  /** The host is about to remove the view; the teardown is answered once the actions it caused are rendered. */
  teardown: JsonObject
  /** The handshake's answer, once connected. */
  host: HostInfo
  /** Messages the agent sent the view's channel with `notify_ui`: `{ id, event, data }` (served by the driver's channel link). */
  'agent-message': AgentMessage
}

/** The names `MCP.select(…)` accepts. */
export type McpSourceName = keyof McpSourceTypes

type ArgsOf<S> = S extends { args: infer A } ? A : JsonObject
type PartialArgsOf<S> = S extends { args: infer A } ? Partial<A> : JsonObject
/** A tool's `structuredContent` type; a JSON object when the tool declares none. */
export type OutputOf<S> = S extends { structuredContent: infer O } ? (unknown extends O ? JsonObject : O) : JsonObject

// Each name, and whether it is replayed: tool input and result, host context and host describe
// the view's current situation, so a component mounted later still needs them.
const NAMES: Record<McpSourceName, boolean> = {
  'tool-input': true,
  'tool-input-partial': false,
  'tool-result': true,
  'tool-cancelled': false,
  'host-context-changed': true,
  teardown: false,
  host: true,
  'agent-message': false,
}

/** The `MCP` source intents receive; `T` and `V` as in `McpSourceTypes`. */
export interface McpSource<T = ToolSignatures, V extends keyof T = keyof T> {
  /** A stream of one kind of host event; the latest tool input, tool result, host context and host are replayed on subscribe. */
  select<N extends McpSourceName>(name: N): Stream<McpSourceTypes<T, V>[N]>
}

export interface SourceHub {
  source: McpSource
  /** Emits to current listeners; returns how many there were. */
  emit(name: McpSourceName, value: unknown): number
  dispose(): void
}

/**
 * A listener's throw, reported without stopping the emit: in a page to its error handlers (`reportError`, as an
 * uncaught throw would have been, so e.g. the display shell still logs it), elsewhere on the console.
 */
function reportListenerError(name: McpSourceName, err: unknown): void {
  const report = (globalThis as { reportError?: (error: unknown) => void }).reportError
  if (typeof report === 'function') report(err)
  else console.error(`[duetkit/mcp] a listener of '${name}' threw`, err)
}

/** One listener set per source name, with the latest replayable value kept for late subscribers. */
export function createSourceHub(): SourceHub {
  const listeners = new Map<McpSourceName, Set<(value: unknown) => void>>()
  const latest = new Map<McpSourceName, unknown>()
  let disposed = false

  const setOf = (name: McpSourceName) => {
    let set = listeners.get(name)
    if (!set) listeners.set(name, (set = new Set()))
    return set
  }

  const source: McpSource = {
    select<N extends McpSourceName>(name: N) {
      if (!Object.hasOwn(NAMES, name)) {
        throw new DuetError('INVALID_ARGUMENT', `MCP.select: unknown source "${String(name)}"; expected one of ${Object.keys(NAMES).join(', ')}`, {
          field: 'name',
        })
      }
      let push: ((value: unknown) => void) | undefined
      return createStream<McpSourceTypes[N]>({
        start(listener) {
          if (disposed) return listener.complete()
          // The hub is fed by the driver, which emits each name's payload.
          push = (value) => listener.next(value as McpSourceTypes[N])
          setOf(name).add(push)
          if (latest.has(name)) listener.next(latest.get(name) as McpSourceTypes[N])
        },
        stop() {
          if (push) setOf(name).delete(push)
          push = undefined
        },
      })
    },
  }

  return {
    source,
    emit(name, value) {
      if (disposed) return 0
      if (NAMES[name]) latest.set(name, value)
      const set = [...setOf(name)]
      for (const push of set) {
        // One listener's throw must not keep the value from the others, nor from what the driver does after
        // them: the channel learns its id from the tool result once every listener has had it, and without
        // the id each notifyAgent would wait out the timeout and fail.
        try {
          push(value)
        } catch (err) {
          reportListenerError(name, err)
        }
      }
      return set.length
    },
    dispose() {
      disposed = true
      listeners.clear()
      latest.clear()
    },
  }
}
