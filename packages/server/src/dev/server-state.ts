import type { Tool } from '@modelcontextprotocol/client'

// Its own file because the dev page (browser code) reads it: importing it from connections.ts would
// bring that Node module into the page's type check.

/** What the page is told about one server. */
export interface ServerState {
  id: string
  label: string
  status: 'connecting' | 'connected' | 'error'
  error?: string
  serverInfo?: { name: string; version: string }
  tools: Tool[]
  /** HTTP servers only: whether a bearer token is sent (the token itself never goes to the page). */
  tokenSet?: boolean
}
