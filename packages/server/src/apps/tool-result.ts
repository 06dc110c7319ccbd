import type { CallToolResult } from '@modelcontextprotocol/server'

/** A successful tool result: text for the model, and the same data structured for apps. */
export function toolResult(text: string, structured?: Record<string, unknown>): CallToolResult {
  return structured === undefined ? { content: [{ type: 'text', text }] } : { content: [{ type: 'text', text }], structuredContent: structured }
}
