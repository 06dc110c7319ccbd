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
export type {
  NoArgs,
  NoTools,
  SchemaInput,
  SchemaOutput,
  StructuredOf,
  ToolArgs,
  ToolResult,
  ToolSchema,
  ToolSignatureOf,
  WithTool,
  ZodRawShape,
} from './tool-types.js'
export type { ViewConfig, ViewCsp, ViewPermissions, ViewUiMeta } from './app-tool.js'
export type { HttpListenOptions } from './http.js'
export type { TaskOptions, TaskSupport } from './tasks.js'
// Authorization: the resource server's options, and whose request a handler serves.
export type { AuthOptions, IntrospectionOptions, IssuerAuthOptions, VerifierAuthOptions } from './auth-options.js'
export type { BucketRate, RateLimitOptions, RateLimitStore } from './rate-limit.js'
export type { RequestLineLimits } from './request-line.js'
export { callerOf, SUBJECT_ENV, subjectOf } from './subject.js'
export type { SubjectContext } from './subject.js'
// Errors: the same class and codes as the view side, and the one tool-error shape.
export { DuetError, ErrorCodes, isDuetError } from 'duetkit/protocol'
export type { ErrorCode, ErrorData } from 'duetkit/protocol'
export { guarded, toolError } from './tool-error.js'
// Asking the client back (elicitation, sampling) the way both protocol eras understand.
export { acceptedContent, inputRequired, inputResponse } from '@modelcontextprotocol/server'
export type { InputRequiredResult, InputResponseView } from '@modelcontextprotocol/server'
export type { ErrorBody } from './error-body.js'
export { RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server'
