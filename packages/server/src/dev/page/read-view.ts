import { rpc } from './api.js'

/** The `_meta.ui` of a view's resource: CSP, permissions, border preference. */
export type ViewMeta = Record<string, any>

/**
 * Reads a tool's `ui://` resource: its HTML and `_meta.ui` (from the content item, else from the
 * resources/list entry, as the spec allows). Fails, saying why, on no content or a MIME type that is not HTML.
 */
export async function readView(server: string, uri: string): Promise<{ html: string; meta: ViewMeta }> {
  const read = await rpc<{ contents: { uri: string; mimeType?: string; text?: string; blob?: string; _meta?: { ui?: ViewMeta } }[] }>(
    server,
    'resources/read',
    { uri },
    'user',
  )
  const content = read.contents?.[0]
  if (!content) throw new Error(`${uri} returned no content`)
  if (content.mimeType && !content.mimeType.startsWith('text/html')) throw new Error(`${uri} has MIME type ${content.mimeType}, not text/html;profile=mcp-app`)
  const html = content.text ?? new TextDecoder().decode(Uint8Array.from(atob(content.blob ?? ''), (ch) => ch.charCodeAt(0)))
  const meta = content._meta?.ui ?? (await listingMeta(server, uri)) ?? {}
  return { html, meta }
}

// The spec lets `_meta.ui` sit on the resources/list entry instead of the content item; the item wins.
async function listingMeta(server: string, uri: string): Promise<ViewMeta | undefined> {
  try {
    const list = await rpc<{ resources?: { uri: string; _meta?: { ui?: ViewMeta } }[] }>(server, 'resources/list', {}, 'user')
    return list.resources?.find((r) => r.uri === uri)?._meta?.ui
  } catch {
    return undefined
  }
}
