import type { DuetError, ErrorCode } from 'duetkit/protocol'

/**
 * A Duet error as JSON: what a failed tool call's `structuredContent.error` holds, and what every HTTP
 * answer that is not JSON-RPC carries as `{ error: … }` (the `/mcp` server's 404s and 405s, duet dev's
 * API, duet check's host page). One shape, so a client branches on `error.code` wherever it came from.
 */
export interface ErrorBody {
  code: ErrorCode
  message: string
  /** The values at fault (which field, the size and the limit, a compile's problems), when the error has them. */
  data?: Record<string, unknown>
}

/** The error's code, message and data, its data only when it has some that JSON can carry. */
export function errorBody(err: DuetError): ErrorBody {
  const data = jsonData(err.data)
  return { code: err.code, message: err.message, ...(data && { data }) }
}

/** The body of an HTTP error answer that is not JSON-RPC: `{"error":{"code","message","data"?}}`. */
export function httpErrorJson(err: DuetError): string {
  return JSON.stringify({ error: errorBody(err) })
}

function jsonData(data: DuetError['data']): Record<string, unknown> | undefined {
  if (data === undefined || Object.keys(data).length === 0) return undefined
  try {
    return JSON.parse(JSON.stringify(data)) as Record<string, unknown>
  } catch {
    // A cycle or a bigint: the code and the message still say what went wrong.
    return undefined
  }
}
