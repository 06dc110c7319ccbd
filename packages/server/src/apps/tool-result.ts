import type { CallToolResult } from '@modelcontextprotocol/server'

/** A successful tool result: text for the model, and the same data structured for apps. */
export function toolResult(text: string, structured?: Record<string, unknown>): CallToolResult {
  return structured === undefined
    ? { content: [{ type: 'text', text }] }
    : { content: [{ type: 'text', text }], structuredContent: structured }
}

function codeOf(err: unknown): string | undefined {
  const code = err instanceof Error ? (err as { code?: unknown }).code : undefined
  return typeof code === 'string' ? code : undefined
}

/**
 * Runs a tool body and turns a coded error (the store's or the channels') into an `isError`
 * result that starts with the code, so the caller can tell a bad name from a missing record.
 * Anything else is a bug and is rethrown; the SDK still reports it as a tool error.
 */
export async function guarded(body: () => CallToolResult | Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await body()
  } catch (err) {
    const code = codeOf(err)
    if (code === undefined) throw err
    return {
      content: [{ type: 'text', text: `${code}: ${(err as Error).message}` }],
      structuredContent: { error: { code, message: (err as Error).message } },
      isError: true,
    }
  }
}
