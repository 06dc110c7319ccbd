import type { Driver } from '../runtime/driver.js'
import { checkCoreOptions, createMcpDriver, failOption, type McpCoreOptions } from './driver-core.js'
import type { McpFeature } from './feature.js'
import type { McpSource } from './sources.js'

export interface LeanMcpAppDriverOptions extends McpCoreOptions {
  /**
   * The features beyond the core, and only these end up in the view's bundle: `withViewState()`,
   * `withCapabilityChecks()`, `withDisplayModes(modes)`, `withDownloads()`, `withServerRequests()`,
   * `serveAgentTools(agentTools)`, `withAgentChannel(agentChannel())`, `withOpenAiExtras()`.
   */
  features?: McpFeature[]
}

/**
 * The MCP Apps driver with only the features the view names: the core (handshake, sources, theme,
 * size, teardown, and the `callTool`, `message`, `updateModelContext`, `openLink` and `requestTeardown`
 * sinks) plus `features`. `makeMcpAppDriver` is this with all of them. A view that sends nothing or
 * ignores the host's theme can leave those parts of the core out too, with `duet({ omit })`.
 *
 * @example run(App, { MCP: makeLeanMcpAppDriver({ features: [withViewState(), withDisplayModes(['inline', 'fullscreen'])] }) })
 */
export function makeLeanMcpAppDriver(options: LeanMcpAppDriverOptions = {}): Driver<McpSource> {
  checkCoreOptions(options)
  const { features = [] } = options
  if (!Array.isArray(features) || !features.every((f) => typeof f === 'function'))
    failOption('features', 'must be an array of features such as withViewState() (import them from duetkit/mcp)')
  return createMcpDriver(options, features)
}
