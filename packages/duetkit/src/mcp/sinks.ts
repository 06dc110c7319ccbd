import { DuetError } from '../protocol/errors.js'
import type { LogLevel } from '../protocol/log-level.js'
import { isObject, type JsonObject } from './json-rpc.js'
import type { ToolSignatures } from '../protocol/tools.js'
import type { AgentNotification } from './channel.js'
import type { McpErrorReply } from './driver-core.js'
import type {
  CallToolResult,
  ContentBlock,
  CreateMessageParams,
  CreateMessageResult,
  DisplayMode,
  DownloadItem,
  ListResult,
  ReadResourceResult,
} from './host-types.js'
import type { OutputOf } from './sources.js'
import type { OpenAiExtra } from '../protocol/apps-sdk-adapter.js'

// A sink value and what its replies carry: `'~ok'`/`'~error'` are type-only keys the runtime reads
// to let `ok`/`error` name only actions that accept the reply.
type Replies<V, Ok> = V & { readonly '~ok'?: Ok; readonly '~error'?: McpErrorReply }

type ArgsField<A> = Record<never, never> extends A ? { args?: A } : { args: A }
type ArgsOf<S> = S extends { args: infer A } ? A : JsonObject

/** `{ callTool }` for each tool of `T`, with that tool's arguments; its `ok` reply is the tool's result. */
export type CallToolSink<T = ToolSignatures> = {
  [N in keyof T & string]: Replies<{ callTool: N } & ArgsField<ArgsOf<T[N]>>, CallToolResult<OutputOf<T[N]>>>
}[keyof T & string]

/**
 * What a component's model may send to the `MCP` driver, for a server with tools `T` (untyped by
 * default). `ok`/`error` name reply actions: the `ok` action gets the host's answer (for `callTool`, the
 * tool's result), the `error` action an `McpErrorReply`.
 */
export type McpSinkValue<T = ToolSignatures> = (
  | CallToolSink<T>
  | Replies<{ updateModelContext: string | ContentBlock[] | JsonObject }, JsonObject>
  | Replies<{ message: string | ContentBlock[] }, { isError?: boolean; [field: string]: unknown }>
  | Replies<{ openLink: string }, { isError?: boolean; [field: string]: unknown }>
  | Replies<{ displayMode: DisplayMode }, { mode: DisplayMode }>
  | Replies<{ downloadFile: DownloadItem | DownloadItem[] }, { isError?: boolean; [field: string]: unknown }>
  | Replies<{ readResource: string }, ReadResourceResult>
  | Replies<{ listResources: true | { cursor?: string } }, ListResult>
  | Replies<{ listResourceTemplates: true | { cursor?: string } }, ListResult>
  | Replies<{ listPrompts: true | { cursor?: string } }, ListResult>
  | Replies<{ createMessage: string | CreateMessageParams }, CreateMessageResult>
  | Replies<{ log: unknown; level?: LogLevel; logger?: string }, JsonObject>
  | Replies<{ requestTeardown: true }, JsonObject>
  | Replies<{ notifyAgent: AgentNotification }, JsonObject>
  | Replies<{ openai: OpenAiExtra; args?: unknown }, unknown>
) & { ok?: string; error?: string }

// The MCP levels, shared with the server log.
export type { LogLevel }

/** One outgoing message a sink value becomes. */
export interface Outgoing {
  kind: 'request' | 'notification'
  method: string
  params: JsonObject
  /** `callTool` results with `isError: true` go to the `error` action. */
  toolResult?: boolean
  /** Reshapes the host's answer for the `ok` action. */
  answer?: (result: JsonObject) => unknown
}

/** An `INVALID_SINK` error naming the problem. */
export const invalid = (message: string) => new DuetError('INVALID_SINK', `MCP sink: ${message}`)

const text = (value: string) => ({ type: 'text', text: value })

function contentBlocks(value: unknown, field: string): unknown[] {
  if (typeof value === 'string') return [text(value)]
  if (Array.isArray(value) && value.every(isObject)) return value
  throw invalid(`${field} must be a string or an array of content blocks`)
}

export function nonEmpty(value: unknown, field: string): string {
  if (typeof value !== 'string' || value === '') throw invalid(`${field} must be a non-empty string`)
  return value
}

/** An outgoing request (or, with `more.kind`, notification). */
export const request = (method: string, params: JsonObject, more?: Partial<Outgoing>): Outgoing => ({ kind: 'request', method, params, ...more })

/** Turns one sink key's value (and the whole sink value) into the message it stands for. */
export type SinkTranslator = (value: unknown, sink: JsonObject) => Outgoing

// The sinks every view's driver understands; the others come with the features that add them.
const TABLE: Record<string, (value: any, sink: any) => Outgoing> = {
  callTool: (name, sink) => {
    if (sink.args !== undefined && !isObject(sink.args)) throw invalid('callTool args must be an object')
    return request('tools/call', { name: nonEmpty(name, 'callTool'), arguments: sink.args ?? {} }, { toolResult: true })
  },
  updateModelContext: (value) =>
    request(
      'ui/update-model-context',
      typeof value === 'string' || Array.isArray(value)
        ? { content: contentBlocks(value, 'updateModelContext') }
        : isObject(value)
          ? { structuredContent: value }
          : (() => {
              throw invalid('updateModelContext must be a string, content blocks or an object')
            })(),
    ),
  message: (value) => request('ui/message', { role: 'user', content: contentBlocks(value, 'message') }),
  openLink: (url) => request('ui/open-link', { url: nonEmpty(url, 'openLink') }),
  requestTeardown: () => request('ui/notifications/request-teardown', {}, { kind: 'notification' }),
}

/**
 * Turns a sink value into the message it stands for, or throws an `INVALID_SINK` error naming the
 * problem. `more` are the translators the driver's features add, and `named` the keys features answer
 * themselves, for the error's list of what the driver understands.
 */
export function toOutgoing(sink: unknown, more: Record<string, SinkTranslator> = {}, named: string[] = []): Outgoing {
  if (!isObject(sink)) throw invalid(`expected an object such as { callTool, args }, got ${sink === null ? 'null' : typeof sink}`)
  const table = { ...TABLE, ...more }
  const key = Object.keys(table).find((k) => k in sink)
  if (key === undefined) throw invalid(`the value names none of ${[...Object.keys(table), ...named].join(', ')}`)
  return table[key]!(sink[key], sink)
}

/** A short text for a tool result that reported `isError`: its text blocks, joined, or `none` when it has none. */
export function toolErrorText(result: { content?: unknown }, none = 'The tool reported an error'): string {
  const blocks = Array.isArray(result.content) ? result.content : []
  const texts = blocks.filter((b): b is { text: string } => isObject(b) && typeof b.text === 'string').map((b) => b.text)
  return texts.length > 0 ? texts.join('\n') : none
}
