import { APPS_SDK_HOST_GLOBAL, type AppsSdkHost } from '../protocol/apps-sdk-adapter.js'

/**
 * The Apps SDK host the page offers, when it is the server's Apps SDK twin of a view running under
 * `window.openai`: the twin's script (protocol/apps-sdk-adapter.ts) defines the global this calls.
 * Undefined everywhere else, where the driver talks MCP Apps over postMessage.
 */
export const appsSdkHost = (win: object | undefined): AppsSdkHost | undefined =>
  (win as { [APPS_SDK_HOST_GLOBAL]?: () => AppsSdkHost | undefined } | undefined)?.[APPS_SDK_HOST_GLOBAL]?.()
