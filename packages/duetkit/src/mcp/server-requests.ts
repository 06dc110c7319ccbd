import { isLogLevel, LOG_LEVELS } from '../protocol/log-level.js'
import type { McpFeature } from './feature.js'
import { isObject, type JsonObject } from './json-rpc.js'
import { invalid, nonEmpty, request, type SinkTranslator } from './sinks.js'

const cursor = (value: unknown, field: string): JsonObject => {
  if (value === true || value === undefined) return {}
  if (isObject(value) && (value.cursor === undefined || typeof value.cursor === 'string')) return value.cursor === undefined ? {} : { cursor: value.cursor }
  throw invalid(`${field} must be true or { cursor }`)
}

const sampling = (params: JsonObject) => request('sampling/createMessage', { maxTokens: 1024, ...params })

const SINKS: Record<string, SinkTranslator> = {
  readResource: (uri) => request('resources/read', { uri: nonEmpty(uri, 'readResource') }),
  listResources: (value) => request('resources/list', cursor(value, 'listResources')),
  listResourceTemplates: (value) => request('resources/templates/list', cursor(value, 'listResourceTemplates')),
  listPrompts: (value) => request('prompts/list', cursor(value, 'listPrompts')),
  createMessage: (value) => {
    if (typeof value === 'string') return sampling({ messages: [{ role: 'user', content: { type: 'text', text: value } }] })
    if (!isObject(value) || !Array.isArray(value.messages)) throw invalid('createMessage must be a prompt string or sampling params with messages')
    return sampling(value)
  },
  log: (data, sink) => {
    const level = sink.level ?? 'info'
    if (!isLogLevel(level)) throw invalid(`log level must be one of ${LOG_LEVELS.join(', ')}, not ${JSON.stringify(level)}`)
    if (sink.logger !== undefined && typeof sink.logger !== 'string') throw invalid('log logger must be a string')
    return request('notifications/message', sink.logger === undefined ? { level, data } : { level, logger: sink.logger, data }, { kind: 'notification' })
  },
}

/**
 * The requests a host forwards to the MCP server and the client: the `readResource`, `listResources`,
 * `listResourceTemplates`, `listPrompts`, `createMessage` (sampling) and `log` sinks. Part of
 * `makeMcpAppDriver`; pass it to `makeLeanMcpAppDriver` for a view that uses them.
 */
export function withServerRequests(): McpFeature {
  return () => ({ sinks: SINKS })
}
