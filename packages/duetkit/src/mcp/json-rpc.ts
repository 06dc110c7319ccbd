/**
 * JSON-RPC 2.0 framing for the MCP Apps postMessage channel. The official AppBridge validates
 * with strict schemas: an extra top-level key, a float id or array params make it drop the
 * message silently, so everything we post is built here and nowhere else.
 */

export type JsonRpcId = string | number
import { isObject, type JsonObject } from '../protocol/json.js'

export { isObject, type JsonObject }

export interface JsonRpcRequest {
  jsonrpc: '2.0'
  id: JsonRpcId
  method: string
  params?: JsonObject
}
export interface JsonRpcNotification {
  jsonrpc: '2.0'
  method: string
  params?: JsonObject
}
export interface JsonRpcSuccess {
  jsonrpc: '2.0'
  id: JsonRpcId
  result: JsonObject
}
export interface JsonRpcFailure {
  jsonrpc: '2.0'
  id: JsonRpcId | null
  error: { code: number; message: string; data?: unknown }
}
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcSuccess | JsonRpcFailure

// The codes as plain constants, which duetkit's own code uses: a bundle inlines them, where an object's
// fields stay lookups. `RpcCode` is the same table for users.
/** The request was not a valid JSON-RPC request. */
export const INVALID_REQUEST = -32600
/** The view does not implement the method the host asked for. */
export const METHOD_NOT_FOUND = -32601
/** The arguments of a host request (e.g. an agent tool call) are invalid. */
export const INVALID_PARAMS = -32602
/** The view failed while answering. */
export const INTERNAL_ERROR = -32603
/** Our own: a request got no answer within `timeoutMs` (MCP's RequestTimeout code). */
export const REQUEST_TIMEOUT = -32001

/** JSON-RPC error codes used on the wire. */
export const RpcCode = {
  InvalidRequest: INVALID_REQUEST,
  MethodNotFound: METHOD_NOT_FOUND,
  InvalidParams: INVALID_PARAMS,
  InternalError: INTERNAL_ERROR,
  RequestTimeout: REQUEST_TIMEOUT,
} as const

/** An error that crosses the channel: a JSON-RPC code and a message naming what went wrong. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message)
    this.name = 'RpcError'
  }
}

/** A plain object (not null, not an array): the only shape JSON-RPC params and results may take. */

/** A JSON-RPC id: a string or an integer (the AppBridge drops float ids). */
export const isId = (v: unknown): v is JsonRpcId => typeof v === 'string' || Number.isInteger(v)

/**
 * Checks incoming data: the message when it is JSON-RPC 2.0, a string saying what is wrong with a
 * malformed request or notification, and undefined for anything else (other scripts on the page
 * post messages too; those are none of our business). A request with an unreadable id is
 * reported as malformed; the caller can't answer it, having no id to answer to.
 */
export function parseMessage(data: unknown): JsonRpcMessage | string | undefined {
  if (!isObject(data) || data.jsonrpc !== '2.0') return undefined
  if ('method' in data) {
    if (typeof data.method !== 'string') return 'method must be a string'
    if (data.params !== undefined && !isObject(data.params)) return 'params must be an object'
    if ('id' in data && !isId(data.id)) return 'id must be a string or an integer'
    return data as unknown as JsonRpcRequest | JsonRpcNotification
  }
  if (isId(data.id) && (isObject(data.result) || isObject(data.error))) return data as unknown as JsonRpcSuccess | JsonRpcFailure
  return undefined
}

/** Makes a value safe to post: drops functions/undefined and fails early on cycles. */
export function toJson<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T
}
