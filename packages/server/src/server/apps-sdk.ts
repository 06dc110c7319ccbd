// The OpenAI Apps SDK dialect of an app tool, served beside its MCP Apps form: hosts that speak only
// that dialect (ChatGPT's older path, MCPJam Inspector 1.0) read `_meta["openai/outputTemplate"]` and
// render a `text/html+skybridge` resource whose page talks through `window.openai`. The twin carries
// the same HTML plus duetkit's adapter script, which presents `window.openai` to the view's driver as
// an MCP Apps host; the view itself carries none of it, so only the twin pays for the dialect.
import type { McpServer } from '@modelcontextprotocol/server'
import { appsSdkAdapterScript } from 'duetkit/protocol'
import type { ResolvedView } from './app-tool.js'
import { invalidOption } from './errors.js'

/** The MIME type Apps SDK hosts render. */
export const SKYBRIDGE_MIME_TYPE = 'text/html+skybridge'
/** What the twin's page starts with: the adapter, a plain script, so it has run before the view's module script. */
export const DIALECT_SCRIPT = `<script>${appsSdkAdapterScript()}</script>`

/** The twin's URI: the view's, under `openai/` on the same `ui://` authority. */
export function twinUri(uri: string): string {
  return uri.replace(/^ui:\/\/([^/]+)\//, 'ui://$1/openai/')
}

/** The view's HTML with the adapter script as the first thing in its head. */
export function twinHtml(html: string): string {
  const head = /<head[^>]*>/i.exec(html)
  if (head) return html.slice(0, head.index + head[0].length) + DIALECT_SCRIPT + html.slice(head.index + head[0].length)
  return DIALECT_SCRIPT + html
}

/** Checks the short status texts Apps SDK hosts show while and after a tool runs (at most 64 characters). */
export function statusText(where: string, option: 'invoking' | 'invoked', value: unknown): string | undefined {
  if (value === undefined) return undefined
  if (typeof value !== 'string' || value === '' || value.length > 64) invalidOption(where, option, 'must be a string of 1-64 characters')
  return value
}

/** The `openai/*` keys of a tool: its template, who may call it, and its status texts. */
export function toolDialectMeta(options: {
  template?: string
  visibility?: Array<'model' | 'app'>
  invoking?: string
  invoked?: string
}): Record<string, unknown> {
  const meta: Record<string, unknown> = {}
  if (options.template !== undefined) meta['openai/outputTemplate'] = options.template
  // As in MCP Apps: a view may call a tool unless it is the model's alone.
  const visibility = options.visibility ?? ['model', 'app']
  meta['openai/widgetAccessible'] = visibility.includes('app')
  if (!visibility.includes('model')) meta['openai/visibility'] = 'private'
  if (options.invoking !== undefined) meta['openai/toolInvocation/invoking'] = options.invoking
  if (options.invoked !== undefined) meta['openai/toolInvocation/invoked'] = options.invoked
  return meta
}

/** The twin's resource metadata, translated from the view's `_meta.ui`. */
export function resourceDialectMeta(view: ResolvedView, description: string): Record<string, unknown> {
  const { csp, prefersBorder, domain } = view.ui
  const meta: Record<string, unknown> = { 'openai/widgetDescription': description }
  if (csp) {
    meta['openai/widgetCSP'] = {
      connect_domains: csp.connectDomains ?? [],
      resource_domains: csp.resourceDomains ?? [],
      ...(csp.frameDomains && { frame_domains: csp.frameDomains }),
    }
  }
  if (prefersBorder !== undefined) meta['openai/widgetPrefersBorder'] = prefersBorder
  if (domain !== undefined) meta['openai/widgetDomain'] = domain
  return meta
}

/** Registers the `text/html+skybridge` twin of a view on one SDK server instance. */
export function registerTwin(mcp: McpServer, name: string, view: ResolvedView, description: string): void {
  const uri = twinUri(view.uri)
  const _meta = resourceDialectMeta(view, description)
  mcp.registerResource(name, uri, { mimeType: SKYBRIDGE_MIME_TYPE, _meta }, async () => ({
    contents: [{ uri, mimeType: SKYBRIDGE_MIME_TYPE, text: twinHtml(await view.read()), _meta }],
  }))
}
