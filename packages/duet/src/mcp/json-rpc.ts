/**
 * JSON-RPC 2.0 framing for the MCP Apps postMessage channel. The official AppBridge validates
 * with strict schemas: an extra top-level key, a float id or array params make it drop the
 * message silently, so everything we post is built here and nowhere else.
 */

export type JsonRpcId = string | number
export type JsonObject = Record<string, unknown>

export interface JsonRpcRequest { jsonrpc: '2.0'; id: JsonRpcId; method: string; params?: JsonObject }
export interface JsonRpcNotification { jsonrpc: '2.0'; method: string; params?: JsonObject }
export interface JsonRpcSuccess { jsonrpc: '2.0'; id: JsonRpcId; result: JsonObject }
export interface JsonRpcFailure { jsonrpc: '2.0'; id: JsonRpcId | null; error: { code: number; message: string; data?: unknown } }
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcSuccess | JsonRpcFailure

/** JSON-RPC error codes used on the wire. */
export const RpcCode = {
  /** The request was not a valid JSON-RPC request. */
  InvalidRequest: -32600,
  /** The view does not implement the method the host asked for. */
  MethodNotFound: -32601,
  /** The arguments of a host request (e.g. an agent tool call) are invalid. */
  InvalidParams: -32602,
  /** The view failed while answering. */
  InternalError: -32603,
  /** Our own: a request got no answer within `timeoutMs` (MCP's RequestTimeout code). */
  RequestTimeout: -32001,
} as const

/** An error that crosses the channel: a JSON-RPC code and a message naming what went wrong. */
export class RpcError extends Error {
  constructor(readonly code: number, message: string, readonly data?: unknown) {
    super(message)
    this.name = 'RpcError'
  }
}

/** A plain object (not null, not an array): the only shape JSON-RPC params and results may take. */
export const isObject = (v: unknown): v is JsonObject => v !== null && typeof v === 'object' && !Array.isArray(v)

const isId = (v: unknown): v is JsonRpcId => typeof v === 'string' || (typeof v === 'number' && Number.isInteger(v))

/**
 * Classifies incoming data. Returns undefined for anything that is not JSON-RPC 2.0 (other
 * scripts on the page post messages too; those are none of our business).
 */
export function parseMessage(data: unknown):
  | { kind: 'request'; message: JsonRpcRequest }
  | { kind: 'notification'; message: JsonRpcNotification }
  | { kind: 'response'; message: JsonRpcSuccess | JsonRpcFailure }
  | { kind: 'invalid'; id: JsonRpcId | null; reason: string }
  | undefined {
  if (!isObject(data) || data.jsonrpc !== '2.0') return undefined
  if ('method' in data) {
    if (typeof data.method !== 'string') return { kind: 'invalid', id: isId(data.id) ? data.id : null, reason: 'method must be a string' }
    if (data.params !== undefined && !isObject(data.params)) return { kind: 'invalid', id: isId(data.id) ? data.id : null, reason: 'params must be an object' }
    if (!('id' in data)) return { kind: 'notification', message: data as unknown as JsonRpcNotification }
    if (!isId(data.id)) return { kind: 'invalid', id: null, reason: 'id must be a string or an integer' }
    return { kind: 'request', message: data as unknown as JsonRpcRequest }
  }
  if (isId(data.id) && (isObject(data.result) || isObject(data.error))) return { kind: 'response', message: data as unknown as JsonRpcSuccess | JsonRpcFailure }
  return undefined
}

/** A request; `params` is left out rather than sent empty when there are none. */
export function request(id: number, method: string, params?: JsonObject): JsonRpcRequest {
  return params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params }
}

/** A notification (no id, so no answer). */
export function notification(method: string, params?: JsonObject): JsonRpcNotification {
  return params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params }
}

/** A successful response to the host's request `id`. */
export function success(id: JsonRpcId, result: JsonObject): JsonRpcSuccess {
  return { jsonrpc: '2.0', id, result }
}

/** An error response; `id` is null when the request's own id was unreadable. */
export function failure(id: JsonRpcId | null, code: number, message: string, data?: unknown): JsonRpcFailure {
  return { jsonrpc: '2.0', id, error: data === undefined ? { code, message } : { code, message, data } }
}

/** Makes a value safe to post: drops functions/undefined and fails early on cycles. */
export function toJson<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T
}
