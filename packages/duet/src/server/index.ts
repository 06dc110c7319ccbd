// duet/server: build MCP servers whose tools come with interactive views, and serve them.
export { createAppServer } from './app-server.js'
export type {
  AppServer,
  AppServerOptions,
  AppToolConfig,
  ListenOptions,
  Listening,
  ToolConfig,
  ToolExtra,
  ToolHandler,
  ToolVisibility,
} from './app-server.js'
export type { ViewConfig, ViewCsp, ViewPermissions, ViewUiMeta } from './app-tool.js'
export type { HttpListenOptions } from './http.js'
export { AppServerError } from './errors.js'
export type { AppServerErrorCode } from './errors.js'
export { RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server'
export { createAgentAppsServer } from './agent-apps.js'
export type { AgentAppsOptions } from './agent-apps.js'
// Channels (store, backends, channel tools) ship from here too, so users need one import.
export * from '../channel/index.js'
// Saved apps, app data, logs and recipes for apps the agent builds (src/apps).
export * from '../apps/index.js'
