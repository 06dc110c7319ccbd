/**
 * What the view and the server share, with no dependencies: channel ids and keys, JSON helpers, the error base and its codes, the host capability each
 * view request needs, log levels, the view-state tool's names, and the script that presents an Apps SDK host (`window.openai`) to a view.
 *
 * @module duetkit/protocol
 */
export { CHANNEL_META_KEY, CHANNEL_ID_PATTERN, MINTED_CHANNEL_PREFIX, isChannelId } from './channel.js'
export { isObject } from './json.js'
export type { JsonObject } from './json.js'
export { DuetError, ErrorCodes, isDuetError } from './errors.js'
export type { ErrorCode, ErrorData } from './errors.js'
export { METHOD_CAPABILITY, capabilityFor } from './host-capabilities.js'
export type { HostCapabilityKey } from './host-capabilities.js'
export { LOG_LEVELS, isLogLevel } from './log-level.js'
export type { LogLevel } from './log-level.js'
export type { ToolSignature, ToolSignatures, TypedTools, ToolsOf } from './tools.js'
export { APPS_SDK_HOST_GLOBAL, appsSdkAdapterScript } from './apps-sdk-adapter.js'
export { VIEW_STATE_TOOL, VIEW_UUID_META_KEY } from './view-state.js'
export type { AppsSdkHost, OpenAiBridge, OpenAiExtra } from './apps-sdk-adapter.js'
