/**
 * Strict JSON-RPC 2.0 as MCP Apps uses it: what is wrong with one message a view posted, or
 * `undefined` when nothing is. Hosts built on the official SDK drop or reject a message with any of
 * these faults, so a view that sends one works in some hosts and silently fails in others.
 */
export function jsonRpcFault(message: unknown): string | undefined {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return `not a JSON-RPC object: ${preview(message)}`
  const m = message as Record<string, unknown>
  if (m.jsonrpc !== '2.0') return `jsonrpc is ${preview(m.jsonrpc)}, not "2.0"`
  const extra = Object.keys(m).filter((k) => !ALLOWED.has(k))
  if (extra.length) return `extra member${extra.length > 1 ? 's' : ''} ${extra.map((k) => JSON.stringify(k)).join(', ')}`
  const hasId = 'id' in m
  if (hasId && !validId(m.id)) return `id ${preview(m.id)} is not a string or an integer`
  if ('method' in m) {
    if (typeof m.method !== 'string' || m.method === '') return `method ${preview(m.method)} is not a non-empty string`
    if ('result' in m || 'error' in m) return `${m.method}: a request or notification carries result or error`
    if ('params' in m && (typeof m.params !== 'object' || m.params === null)) return `${m.method}: params ${preview(m.params)} is not an object or array`
    return undefined
  }
  if (!hasId) return 'neither a method nor an id: not a request, notification or response'
  if ('params' in m) return 'a response carries params'
  if ('result' in m === 'error' in m) return `response ${preview(m.id)} needs exactly one of result and error`
  if ('error' in m) {
    const e = m.error as Record<string, unknown> | null
    if (typeof e !== 'object' || e === null || !Number.isInteger(e.code) || typeof e.message !== 'string')
      return `response ${preview(m.id)}: error is not { code: integer, message: string }`
  }
  return undefined
}

const ALLOWED = new Set(['jsonrpc', 'id', 'method', 'params', 'result', 'error'])

// MCP narrows JSON-RPC's ids: never null, and numbers only as integers.
function validId(id: unknown): boolean {
  return typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id))
}

function preview(value: unknown): string {
  const text = value === undefined ? 'undefined' : JSON.stringify(value)
  return text.length > 80 ? `${text.slice(0, 77)}...` : text
}
