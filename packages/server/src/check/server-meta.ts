// The server side of MCP Apps as a host sees it in tools/list and resources/read: the tool's
// `_meta.ui` (resourceUri, visibility), the resource's MIME type, its CSP and permissions metadata.
import type { Tool } from '@modelcontextprotocol/client'

type Verdict = [boolean, string]

/** What `duet check` read from the server, which the server checks judge. */
export interface ServerSample {
  tools: Tool[]
  /** The checked view's resource content as resources/read returned it. */
  content: { uri?: unknown; mimeType?: unknown; _meta?: { ui?: Record<string, unknown> } }
}

const MIME = 'text/html;profile=mcp-app'
const VISIBILITY = new Set(['model', 'app'])
const CSP_KEYS = new Set(['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'])
const PERMISSIONS = new Set(['camera', 'microphone', 'geolocation', 'clipboardWrite'])

const uiOf = (tool: Tool) => ((tool._meta ?? {}) as { ui?: Record<string, unknown> }).ui

/** Every tool's resourceUri (both keys) is a ui:// string, and the two keys agree. */
export function resourceUris(tools: Tool[]): Verdict {
  let apps = 0
  for (const tool of tools) {
    const nested = uiOf(tool)?.resourceUri
    const flat = (tool._meta as Record<string, unknown> | undefined)?.['ui/resourceUri']
    for (const [key, uri] of [
      ['_meta.ui.resourceUri', nested],
      ['_meta["ui/resourceUri"]', flat],
    ] as const) {
      if (uri === undefined) continue
      if (typeof uri !== 'string' || !uri.startsWith('ui://')) return [false, `tool ${tool.name}: ${key} is ${JSON.stringify(uri)}, not a ui:// URI`]
    }
    if (nested !== undefined && flat !== undefined && nested !== flat)
      return [false, `tool ${tool.name}: _meta.ui.resourceUri and _meta["ui/resourceUri"] differ`]
    if (nested !== undefined || flat !== undefined) apps++
  }
  return [true, `${apps} app tool${apps === 1 ? '' : 's'}, every resourceUri a ui:// URI`]
}

/** Every tool's visibility is a non-empty list of "model" and "app", each at most once. */
export function visibilities(tools: Tool[]): Verdict {
  let appOnly = 0
  for (const tool of tools) {
    const v = uiOf(tool)?.visibility
    if (v === undefined) continue
    if (!Array.isArray(v) || v.length === 0 || v.some((x) => !VISIBILITY.has(x)) || new Set(v).size !== v.length)
      return [false, `tool ${tool.name}: _meta.ui.visibility is ${JSON.stringify(v)}; it must list "model" and/or "app", each once`]
    if (v.length === 1 && v[0] === 'app') appOnly++
  }
  return [true, `${appOnly} app-only tool${appOnly === 1 ? '' : 's'} (hidden from the model, callable by views)`]
}

/** The view's resource is served as text/html;profile=mcp-app. */
export function mimeType(content: ServerSample['content']): Verdict {
  return content.mimeType === MIME ? [true, MIME] : [false, `the resource's mimeType is ${JSON.stringify(content.mimeType)}, not ${MIME}`]
}

/** The resource's `_meta.ui.csp` and `permissions`, when present, have the spec's shape. */
export function securityMeta(content: ServerSample['content']): Verdict {
  const ui = content._meta?.ui ?? {}
  const csp = ui.csp
  if (csp !== undefined) {
    if (typeof csp !== 'object' || csp === null || Array.isArray(csp)) return [false, `_meta.ui.csp is ${JSON.stringify(csp)}, not an object`]
    for (const [key, value] of Object.entries(csp)) {
      if (!CSP_KEYS.has(key)) return [false, `_meta.ui.csp.${key} is not one of ${[...CSP_KEYS].join(', ')}`]
      if (!Array.isArray(value) || value.some((d) => typeof d !== 'string')) return [false, `_meta.ui.csp.${key} is not a list of origins`]
    }
  }
  const permissions = ui.permissions
  if (permissions !== undefined) {
    if (typeof permissions !== 'object' || permissions === null || Array.isArray(permissions))
      return [false, `_meta.ui.permissions is ${JSON.stringify(permissions)}, not an object`]
    for (const [key, value] of Object.entries(permissions)) {
      if (!PERMISSIONS.has(key)) return [false, `_meta.ui.permissions.${key} is not one of ${[...PERMISSIONS].join(', ')}`]
      if (typeof value !== 'object' || value === null || Array.isArray(value))
        return [false, `_meta.ui.permissions.${key} is ${JSON.stringify(value)}, not an object ({})`]
    }
  }
  return [true, csp === undefined && permissions === undefined ? 'none declared (the default CSP applies)' : 'well-formed']
}
