import { DuetError } from '../protocol/errors.js'
import { isLogLevel, LOG_LEVELS, type LogLevel } from '../protocol/log-level.js'
import { isObject, type JsonObject } from './json-rpc.js'
import type { ToolSignatures } from '../protocol/tools.js'
import type { AgentNotification } from './channel.js'
import type { McpErrorReply } from './driver.js'
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
import type { OpenAiExtra } from './openai-host.js'

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

const invalid = (message: string) => new DuetError('INVALID_SINK', `MCP sink: ${message}`)

const text = (value: string) => ({ type: 'text', text: value })

function contentBlocks(value: unknown, field: string): unknown[] {
  if (typeof value === 'string') return [text(value)]
  if (Array.isArray(value) && value.every(isObject)) return value
  throw invalid(`${field} must be a string or an array of content blocks`)
}

const cursor = (value: unknown, field: string): JsonObject => {
  if (value === true || value === undefined) return {}
  if (isObject(value) && (value.cursor === undefined || typeof value.cursor === 'string')) return value.cursor === undefined ? {} : { cursor: value.cursor }
  throw invalid(`${field} must be true or { cursor }`)
}

function nonEmpty(value: unknown, field: string): string {
  if (typeof value !== 'string' || value === '') throw invalid(`${field} must be a non-empty string`)
  return value
}

// `{ uri, mimeType, text|blob }` shorthand becomes an embedded resource block; blocks pass through.
function downloadBlock(item: unknown): JsonObject {
  if (!isObject(item)) throw invalid('downloadFile items must be objects')
  if (item.type === 'resource' || item.type === 'resource_link') return item
  const uri = nonEmpty(item.uri, 'downloadFile.uri')
  if (typeof item.text !== 'string' && typeof item.blob !== 'string') throw invalid('downloadFile needs text or blob (base64)')
  return { type: 'resource', resource: { ...item, uri } }
}

const request = (method: string, params: JsonObject, more?: Partial<Outgoing>): Outgoing => ({ kind: 'request', method, params, ...more })

const sampling = (params: JsonObject) => request('sampling/createMessage', { maxTokens: 1024, ...params })

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
  displayMode: (mode) => {
    if (mode !== 'inline' && mode !== 'fullscreen' && mode !== 'pip')
      throw invalid(`displayMode must be 'inline', 'fullscreen' or 'pip', not ${JSON.stringify(mode)}`)
    return request('ui/request-display-mode', { mode }, { answer: (r) => ({ mode: r.mode }) })
  },
  downloadFile: (value) => request('ui/download-file', { contents: (Array.isArray(value) ? value : [value]).map(downloadBlock) }),
  readResource: (uri) => request('resources/read', { uri: nonEmpty(uri, 'readResource') }),
  listResources: (value) => request('resources/list', cursor(value, 'listResources')),
  listResourceTemplates: (value) => request('resources/templates/list', cursor(value, 'listResourceTemplates')),
  listPrompts: (value) => request('prompts/list', cursor(value, 'listPrompts')),
  createMessage: (value) => {
    if (typeof value === 'string') return sampling({ messages: [{ role: 'user', content: text(value) }] })
    if (!isObject(value) || !Array.isArray(value.messages)) throw invalid('createMessage must be a prompt string or sampling params with messages')
    return sampling(value)
  },
  log: (data, sink) => {
    const level = sink.level ?? 'info'
    if (!isLogLevel(level)) throw invalid(`log level must be one of ${LOG_LEVELS.join(', ')}, not ${JSON.stringify(level)}`)
    if (sink.logger !== undefined && typeof sink.logger !== 'string') throw invalid('log logger must be a string')
    return request('notifications/message', sink.logger === undefined ? { level, data } : { level, logger: sink.logger, data }, { kind: 'notification' })
  },
  requestTeardown: () => request('ui/notifications/request-teardown', {}, { kind: 'notification' }),
}

/** The sink keys the driver understands, in the order they are looked for. */
export const SINK_KEYS = Object.keys(TABLE)

/** Turns a sink value into the message it stands for, or throws an `INVALID_SINK` error naming the problem. */
export function toOutgoing(sink: unknown): Outgoing {
  if (!isObject(sink)) throw invalid(`expected an object such as { callTool, args }, got ${sink === null ? 'null' : typeof sink}`)
  const key = SINK_KEYS.find((k) => k in sink)
  if (key === undefined) throw invalid(`the value names none of ${SINK_KEYS.join(', ')}, notifyAgent`)
  return TABLE[key]!(sink[key], sink)
}

/** A short text for a tool result that reported `isError`: its text blocks, joined. */
export function toolErrorText(result: { content?: unknown }): string {
  const blocks = Array.isArray(result.content) ? result.content : []
  const texts = blocks.filter((b): b is { text: string } => isObject(b) && typeof b.text === 'string').map((b) => b.text)
  return texts.length > 0 ? texts.join('\n') : 'The tool reported an error'
}
