// The server core: MCP servers whose tools come with interactive views, served over stdio and HTTP.
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
