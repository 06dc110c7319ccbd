import type { McpFeature } from './feature.js'
import { isObject, type JsonObject } from './json-rpc.js'
import { invalid, nonEmpty, request } from './sinks.js'

// `{ uri, mimeType, text|blob }` shorthand becomes an embedded resource block; blocks pass through.
function downloadBlock(item: unknown): JsonObject {
  if (!isObject(item)) throw invalid('downloadFile items must be objects')
  if (item.type === 'resource' || item.type === 'resource_link') return item
  const uri = nonEmpty(item.uri, 'downloadFile.uri')
  if (typeof item.text !== 'string' && typeof item.blob !== 'string') throw invalid('downloadFile needs text or blob (base64)')
  return { type: 'resource', resource: { ...item, uri } }
}

/**
 * Downloads: the `{ downloadFile }` sink (`ui/download-file`), one item or several. Part of
 * `makeMcpAppDriver`; pass it to `makeLeanMcpAppDriver` for a view that hands the user files.
 */
export function withDownloads(): McpFeature {
  return () => ({
    sinks: {
      downloadFile: (value) => request('ui/download-file', { contents: (Array.isArray(value) ? value : [value]).map(downloadBlock) }),
    },
  })
}
