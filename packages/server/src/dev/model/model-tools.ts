import { getToolUiResourceUri, isToolVisibilityAppOnly } from '@modelcontextprotocol/ext-apps/app-bridge'
import type { Tool } from '@modelcontextprotocol/client'
import type { ServerState } from '../connections.js'

/** A connected server as the chat uses it: its tools, and a way to call one. */
export interface ToolServer {
  readonly id: string
  snapshot(): ServerState
  request(method: string, params: Record<string, unknown>, signal?: AbortSignal): Promise<unknown>
}

/** One tool the model may call, under the name the model sees. */
export interface ModelTool {
  /** The name given to the model: the MCP name, or `<server>__<name>` when two servers share one. */
  name: string
  server: ToolServer
  tool: Tool
  /** The tool's view, when it has one. */
  uri?: string
}

// Provider APIs take tool names of letters, digits, `_` and `-`, at most 64 characters.
const MODEL_NAME = /^[A-Za-z0-9_-]{1,64}$/

/**
 * The tools the model sees: every connected server's tools but the app-only ones (`visibility:
 * ["app"]`), which the spec keeps from the model. A name two servers share, or one a provider would
 * refuse, is prefixed with the server id and cleaned.
 */
export function modelTools(servers: readonly ToolServer[]): ModelTool[] {
  const listed: { server: ToolServer; tool: Tool }[] = []
  for (const server of servers) {
    const state = server.snapshot()
    if (state.status !== 'connected') continue
    for (const tool of state.tools) if (!isToolVisibilityAppOnly(tool)) listed.push({ server, tool })
  }
  const count = new Map<string, number>()
  for (const { tool } of listed) count.set(tool.name, (count.get(tool.name) ?? 0) + 1)
  return listed.map(({ server, tool }) => {
    const plain = count.get(tool.name) === 1 && MODEL_NAME.test(tool.name)
    const name = plain ? tool.name : `${server.id}__${tool.name.replace(/[^A-Za-z0-9_-]/g, '_')}`.slice(0, 64)
    const uri = getToolUiResourceUri(tool)
    return { name, server, tool, ...(uri ? { uri } : {}) }
  })
}

type Content = { type: string; text?: string; mimeType?: string; uri?: string }

/**
 * What the model gets back from a tool: the text content, the structured content and the error flag.
 * `_meta` (the view's UUID, widget data) is for the view, and images or resources are named, not inlined.
 */
export function toolOutputForModel(result: unknown): Record<string, unknown> {
  const r = (result ?? {}) as { content?: Content[]; structuredContent?: unknown; isError?: boolean }
  const content = (r.content ?? []).map((c) =>
    c.type === 'text'
      ? { type: 'text', text: c.text ?? '' }
      : { type: c.type, note: `${c.type} content${c.mimeType ? ` (${c.mimeType})` : ''}${c.uri ? ` ${c.uri}` : ''} not shown to the model` },
  )
  return { content, ...(r.structuredContent !== undefined && { structuredContent: r.structuredContent }), ...(r.isError && { isError: true }) }
}
