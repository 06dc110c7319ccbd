/** @module duetkit/mcp */
// The MCP Apps driver: the view side of MCP Apps, written without the MCP SDK or zod.
export { makeMcpAppDriver } from './driver.js'
export type { McpAppDriverOptions, McpErrorReply, DisplayMode } from './driver.js'
// Pay for what you use: the core driver and the features a view names (each tree-shaken when unused).
export { makeLeanMcpAppDriver } from './lean-driver.js'
export type { LeanMcpAppDriverOptions } from './lean-driver.js'
export type { McpCoreOptions } from './driver-core.js'
export type { McpFeature, McpFeatureContext, McpFeatureParts } from './feature.js'
export { withViewState } from './view-state.js'
export { withCapabilityChecks } from './capabilities.js'
export { withDisplayModes } from './display-mode.js'
export { withDownloads } from './download.js'
export { serveAgentTools } from './serve-tools.js'
export { withServerRequests } from './server-requests.js'
export { withOpenAiExtras } from './openai-extras.js'
export { agentTools } from './agent-tools.js'
export type { AgentTool, AgentToolLayer, AgentToolsFactory, ConfirmFn, ConfirmRequest } from './agent-tools.js'
export { applyHostContext } from './theme.js'
export type { McpSource, McpSourceName, McpSourceTypes, OutputOf } from './sources.js'
export type { McpDrivers, McpDriverTypes } from './drivers.js'
export type {
  AudioContent,
  CallToolResult,
  ContentBlock,
  CreateMessageParams,
  CreateMessageResult,
  DownloadItem,
  EmbeddedResource,
  HostCapabilities,
  HostContext,
  HostInfo,
  ImageContent,
  ListResult,
  ReadResourceResult,
  ResourceContents,
  ResourceLink,
  SafeAreaInsets,
  SamplingMessage,
  TextContent,
  ToolCancelled,
} from './host-types.js'
export type { McpSinkValue, CallToolSink, LogLevel, Outgoing } from './sinks.js'
export type { ViewSize } from './auto-resize.js'
export { agentChannel, channelOfResult, CHANNEL_META_KEY, withAgentChannel } from './channel.js'
export { toolErrorText } from './sinks.js'
export type { AgentChannelFactory, AgentMessage, AgentNotification, ChannelLink, ChannelLinkOptions } from './channel.js'
export type { HostWindow } from './protocol-client.js'
export type { OpenAiBridge, OpenAiExtra } from '../protocol/apps-sdk-adapter.js'
export { DuetError, ErrorCodes, isDuetError } from '../protocol/errors.js'
export type { ErrorCode, ErrorData } from '../protocol/errors.js'
export { RpcError, RpcCode } from './json-rpc.js'
