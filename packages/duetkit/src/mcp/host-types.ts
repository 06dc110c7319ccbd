// What the host sends the view and answers it, as types only (the driver checks shapes where it must,
// and passes the rest through). Written from the MCP and MCP Apps specifications, without their SDKs.
import type { JsonObject } from '../protocol/json.js'

export type DisplayMode = 'inline' | 'fullscreen' | 'pip'

/** Optional hints on a content block. */
export interface ContentAnnotations {
  audience?: ('user' | 'assistant')[]
  priority?: number
  lastModified?: string
}

interface BlockBase {
  annotations?: ContentAnnotations
  _meta?: JsonObject
}

export interface TextContent extends BlockBase {
  type: 'text'
  text: string
}

/** Base64 `data` of a `mimeType` image. */
export interface ImageContent extends BlockBase {
  type: 'image'
  data: string
  mimeType: string
}

/** Base64 `data` of a `mimeType` sound. */
export interface AudioContent extends BlockBase {
  type: 'audio'
  data: string
  mimeType: string
}

/** A resource the receiver may read by `uri`. */
export interface ResourceLink extends BlockBase {
  type: 'resource_link'
  uri: string
  name: string
  title?: string
  description?: string
  mimeType?: string
  size?: number
}

/** One resource's contents: `text`, or base64 `blob`. */
export type ResourceContents = { uri: string; mimeType?: string; _meta?: JsonObject } & ({ text: string } | { blob: string })

/** A resource carried inline. */
export interface EmbeddedResource extends BlockBase {
  type: 'resource'
  resource: ResourceContents
}

/** One block of a tool result, a message or a model-context update. */
export type ContentBlock = TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource

/**
 * A tool's result: `MCP.select('tool-result')` and a `callTool` reply. `Structured` is the tool's
 * output (its `outputSchema`), present on success when the tool declares one.
 */
export interface CallToolResult<Structured = JsonObject> {
  content: ContentBlock[]
  structuredContent?: Structured
  isError?: boolean
  _meta?: JsonObject
}

/** The insets a view should keep clear (notches, system bars), in pixels. */
export interface SafeAreaInsets {
  top: number
  right: number
  bottom: number
  left: number
}

/** How the host shows the view and where: `MCP.select('host-context-changed')`, the latest whole context after each change. */
export interface HostContext {
  theme?: 'light' | 'dark'
  /** CSS custom properties (`--color-background-primary`, …) and font CSS; the driver applies them unless `theme: false`. */
  styles?: { variables?: Record<string, string | undefined>; css?: { fonts?: string } }
  displayMode?: DisplayMode
  availableDisplayModes?: DisplayMode[]
  /** The container's size: fixed (`width`/`height`) or bounded (`maxWidth`/`maxHeight`), in pixels. */
  containerDimensions?: { width?: number; height?: number; maxWidth?: number; maxHeight?: number }
  /** BCP 47, e.g. `'en-GB'`. */
  locale?: string
  /** IANA, e.g. `'Europe/Lisbon'`. */
  timeZone?: string
  userAgent?: string
  platform?: 'web' | 'desktop' | 'mobile'
  deviceCapabilities?: { touch?: boolean; hover?: boolean }
  safeAreaInsets?: SafeAreaInsets
  /** The tool call that showed this view. */
  toolInfo?: { id?: string | number; tool: { name: string; [field: string]: unknown } }
  /** Fields of later protocol versions. */
  [field: string]: unknown
}

/** What the host offers the view; a missing key means the host does not offer it. */
export interface HostCapabilities {
  openLinks?: JsonObject
  downloadFile?: JsonObject
  serverTools?: { listChanged?: boolean }
  serverResources?: { listChanged?: boolean }
  logging?: JsonObject
  updateModelContext?: JsonObject
  message?: JsonObject
  /** `sampling/createMessage` (`{ createMessage }`); `tools` when it takes tools too. */
  sampling?: { tools?: JsonObject }
  sandbox?: JsonObject
  experimental?: Record<string, JsonObject>
  [capability: string]: unknown
}

/** The handshake's answer, once connected: `MCP.select('host')`. */
export interface HostInfo {
  hostInfo: { name: string; version: string; title?: string; [field: string]: unknown }
  hostCapabilities: HostCapabilities
  protocolVersion: string
  /** Fields of later protocol versions. */
  [field: string]: unknown
}

/** `MCP.select('tool-cancelled')`: the host stopped the tool call that showed the view. */
export interface ToolCancelled {
  reason?: string
}

/** The answer to `{ readResource }`. */
export interface ReadResourceResult {
  contents: ResourceContents[]
  _meta?: JsonObject
}

/** The answer to `{ listResources }`, `{ listResourceTemplates }` and `{ listPrompts }`: a page, and the cursor of the next. */
export interface ListResult {
  nextCursor?: string
  [list: string]: unknown
}

/** One turn of a sampling conversation. */
export interface SamplingMessage {
  role: 'user' | 'assistant'
  content: TextContent | ImageContent | AudioContent
}

/** `{ createMessage }` as sampling parameters (a bare string is one user message). */
export interface CreateMessageParams {
  messages: SamplingMessage[]
  maxTokens?: number
  systemPrompt?: string
  temperature?: number
  stopSequences?: string[]
  modelPreferences?: JsonObject
  [param: string]: unknown
}

/** The answer to `{ createMessage }`: the model's turn. */
export interface CreateMessageResult {
  role: 'assistant'
  content: TextContent | ImageContent | AudioContent
  model: string
  stopReason?: string
  [field: string]: unknown
}

/** A file for `{ downloadFile }`: the shorthand `{ uri, mimeType?, text | blob }`, or a resource block. */
export type DownloadItem = ResourceContents | EmbeddedResource | ResourceLink
