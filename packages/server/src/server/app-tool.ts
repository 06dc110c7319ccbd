import { readFile } from 'node:fs/promises'
import { isAbsolute, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { McpServer } from '@modelcontextprotocol/server'
import { RESOURCE_MIME_TYPE, registerAppResource } from '@modelcontextprotocol/ext-apps/server'
import { DuetError, invalidOption } from './errors.js'

/** Content Security Policy domains a view needs beyond the host's strict default (MCP Apps `McpUiResourceCsp`). */
export interface ViewCsp {
  connectDomains?: string[]
  resourceDomains?: string[]
  frameDomains?: string[]
  baseUriDomains?: string[]
}

/** Browser permissions a view asks the host to grant its iframe (MCP Apps `McpUiResourcePermissions`). */
export interface ViewPermissions {
  camera?: Record<string, never>
  microphone?: Record<string, never>
  geolocation?: Record<string, never>
  clipboardWrite?: Record<string, never>
}

/** Where an app tool's HTML comes from and how the host should frame it. Give exactly one of `file` or `html`. */
export interface ViewConfig {
  /** A built single-file HTML document; read at every `resources/read`, so a rebuild shows without a restart. Relative paths resolve against the working directory. */
  file?: string | URL
  /** The HTML itself, or a function producing it per read. */
  html?: string | (() => string | Promise<string>)
  /** The `ui://` resource URI; defaults to `ui://<server name>/<tool name>.html`. */
  uri?: string
  csp?: ViewCsp
  permissions?: ViewPermissions
  /** `true`/`false` asks the host for a border or none; omitted leaves it to the host. */
  prefersBorder?: boolean
  /** A dedicated sandbox origin, in the host's own format. */
  domain?: string
}

/** The `_meta.ui` a view's resource carries on its content item and on its listing entry. */
export interface ViewUiMeta {
  csp?: ViewCsp
  permissions?: ViewPermissions
  prefersBorder?: boolean
  domain?: string
}

/** A checked view: its URI, the metadata for the host and a reader returning the current HTML. */
export interface ResolvedView {
  uri: string
  ui: ViewUiMeta
  read(): Promise<string>
}

/** Checks a tool's `view` option once, at registration, and returns how to serve it. */
export function resolveView(serverName: string, toolName: string, view: ViewConfig | undefined): ResolvedView {
  const where = `appTool('${toolName}')`
  if (!view || typeof view !== 'object') invalidOption(where, 'view', 'is required: { file } or { html }')
  if ((view.file === undefined) === (view.html === undefined)) invalidOption(where, 'view', 'needs exactly one of file or html')
  const uri = view.uri ?? `ui://${serverName}/${toolName}.html`
  if (typeof uri !== 'string' || !/^ui:\/\/[^/\s]+\/\S*$/.test(uri))
    invalidOption(where, 'view.uri', `must be a ui://<host>/<path> URI, got ${JSON.stringify(uri)}`)
  if (view.prefersBorder !== undefined && typeof view.prefersBorder !== 'boolean') invalidOption(where, 'view.prefersBorder', 'must be a boolean')
  if (view.domain !== undefined && typeof view.domain !== 'string') invalidOption(where, 'view.domain', 'must be a string')

  const ui: ViewUiMeta = {}
  if (view.csp) ui.csp = view.csp
  if (view.permissions) ui.permissions = view.permissions
  if (view.prefersBorder !== undefined) ui.prefersBorder = view.prefersBorder
  if (view.domain !== undefined) ui.domain = view.domain

  if (view.file !== undefined) {
    const file = filePath(where, view.file)
    return { uri, ui, read: () => readViewFile(uri, file) }
  }
  const html = view.html
  if (typeof html === 'string') return { uri, ui, read: async () => html }
  if (typeof html !== 'function') invalidOption(where, 'view.html', 'must be a string or a function returning one')
  return {
    uri,
    ui,
    async read() {
      const text = await html()
      if (typeof text !== 'string') throw new DuetError('VIEW_UNAVAILABLE', `The view function for ${uri} returned ${typeof text}, not an HTML string`, { uri })
      return text
    },
  }
}

function filePath(where: string, file: string | URL): string {
  if (file instanceof URL) {
    if (file.protocol !== 'file:') invalidOption(where, 'view.file', `must be a path or a file: URL, got ${file.href}`)
    return fileURLToPath(file)
  }
  if (typeof file !== 'string' || file === '') invalidOption(where, 'view.file', 'must be a non-empty path')
  return isAbsolute(file) ? file : resolve(file)
}

async function readViewFile(uri: string, file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8')
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'does not exist (build the view first?)' : `cannot be read: ${(err as Error).message}`
    throw new DuetError('VIEW_UNAVAILABLE', `View file for ${uri} ${reason}: ${file}`, { uri, file })
  }
}

/** Registers the view's `ui://` resource on one SDK server instance. */
export function registerView(mcp: McpServer, name: string, view: ResolvedView): void {
  const meta = Object.keys(view.ui).length > 0 ? { ui: view.ui } : undefined
  registerAppResource(mcp, name, view.uri, { mimeType: RESOURCE_MIME_TYPE, ...(meta && { _meta: meta }) }, async () => ({
    contents: [{ uri: view.uri, mimeType: RESOURCE_MIME_TYPE, text: await view.read(), ...(meta && { _meta: meta }) }],
  }))
}
