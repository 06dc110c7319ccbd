import type { CallToolResult } from '@modelcontextprotocol/server'
import { DuetError, isDuetError } from 'duetkit/protocol'
import { errorBody } from './error-body.js'

/**
 * The one shape of a failed Duet tool call: text the model reads (`CODE: what went wrong. What to
 * do.`) and the same facts structured, for views and programs to branch on: `structuredContent.error`
 * is `{ code, message, data? }`, `data` being the error's values at fault (e.g. COMPILE_ERROR's `problems`).
 */
export function toolError(err: DuetError): CallToolResult {
  return {
    isError: true,
    content: [{ type: 'text', text: `${err.code}: ${err.message}` }],
    structuredContent: { error: { ...errorBody(err) } },
  }
}

/**
 * Runs a tool body and answers a thrown error with {@link toolError}, so the caller reads a code
 * and what to do instead of a protocol failure. An error that is not a DuetError is a bug or a broken
 * environment; it gets the same shape under INTERNAL rather than the SDK's bare message.
 */
export async function guarded(body: () => CallToolResult | Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await body()
  } catch (err) {
    if (isDuetError(err)) return toolError(err)
    const message = err instanceof Error ? err.message : String(err)
    return toolError(
      new DuetError(
        'INTERNAL',
        `The server failed unexpectedly (${message}). Retry once; if it fails again, tell the user: the server or its environment needs fixing.`,
        undefined,
        { cause: err },
      ),
    )
  }
}
