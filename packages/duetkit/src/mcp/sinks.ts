import { McpAppError, McpAppErrorCode } from './errors.js'
import { isObject, type JsonObject } from './json-rpc.js'

/** What a component's model may send to the `MCP` driver. `ok`/`error` name reply actions. */
export type McpSinkValue = (
  | { callTool: string; args?: JsonObject }
  | { updateModelContext: string | unknown[] | JsonObject }
  | { message: string | unknown[] }
  | { openLink: string }
  | { displayMode: 'inline' | 'fullscreen' | 'pip' }
  | { downloadFile: JsonObject | JsonObject[] }
  | { readResource: string }
  | { listResources: true | { cursor?: string } }
  | { listResourceTemplates: true | { cursor?: string } }
  | { listPrompts: true | { cursor?: string } }
  | { createMessage: string | JsonObject }
  | { log: unknown; level?: LogLevel; logger?: string }
  | { requestTeardown: true }
  | { notifyAgent: { event: string; data?: unknown } }
) & { ok?: string; error?: string }

export type LogLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency'

const LEVELS: ReadonlySet<string> = new Set(['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'])

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

const invalid = (message: string) => new McpAppError(McpAppErrorCode.InvalidSink, `MCP sink: ${message}`)

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
  updateModelContext: (value) => request('ui/update-model-context', typeof value === 'string' || Array.isArray(value)
    ? { content: contentBlocks(value, 'updateModelContext') }
    : isObject(value) ? { structuredContent: value } : (() => { throw invalid('updateModelContext must be a string, content blocks or an object') })()),
  message: (value) => request('ui/message', { role: 'user', content: contentBlocks(value, 'message') }),
  openLink: (url) => request('ui/open-link', { url: nonEmpty(url, 'openLink') }),
  displayMode: (mode) => {
    if (mode !== 'inline' && mode !== 'fullscreen' && mode !== 'pip') throw invalid(`displayMode must be 'inline', 'fullscreen' or 'pip', not ${JSON.stringify(mode)}`)
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
    if (!LEVELS.has(level)) throw invalid(`log level must be one of ${[...LEVELS].join(', ')}, not ${JSON.stringify(level)}`)
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
export function toolErrorText(result: JsonObject): string {
  const blocks = Array.isArray(result.content) ? result.content : []
  const texts = blocks.filter((b): b is { text: string } => isObject(b) && typeof b.text === 'string').map((b) => b.text)
  return texts.length > 0 ? texts.join('\n') : 'The tool reported an error'
}
