import type { Driver } from '../runtime/driver.js'
import type { AgentToolsFactory, ConfirmFn } from './agent-tools.js'
import { withCapabilityChecks } from './capabilities.js'
import { withAgentChannel, type AgentChannelFactory } from './channel.js'
import { isDisplayModes, withDisplayModes } from './display-mode.js'
import { withDownloads } from './download.js'
import { withOpenAiExtras } from './openai-extras.js'
import { checkCoreOptions, createMcpDriver, failOption, type McpCoreOptions, type McpErrorReply } from './driver-core.js'
import type { McpFeature } from './feature.js'
import { DuetError } from '../protocol/errors.js'
import { serveAgentTools } from './serve-tools.js'
import { withServerRequests } from './server-requests.js'
import type { McpSource } from './sources.js'
import { withViewState } from './view-state.js'

import type { DisplayMode } from './host-types.js'

export type { DisplayMode, McpErrorReply }

export interface McpAppDriverOptions extends McpCoreOptions {
  /** The display modes the view supports, announced in `appCapabilities`. */
  availableDisplayModes?: DisplayMode[]
  /** `agentTools`: serve the components' `agent` declarations as the view's own tools. */
  tools?: AgentToolsFactory
  /** With `tools`: consequential calls run only when this resolves true. Default: declined. */
  confirm?: ConfirmFn
  /**
   * `agentChannel()`: the Duet channel the view talks to the agent on (`notifyAgent` sink,
   * `agent-message` source). A view without it carries no channel code; `notifyAgent` then fails with `NO_CHANNEL`.
   */
  channel?: AgentChannelFactory
  /**
   * Where an `App.persist` state is kept: `'auto'` (default) uses `localStorage` and, where the sandbox
   * has none, the server's app-only `duet_view_state` tool; `'server'` always the tool; `false` keeps nothing.
   */
  viewState?: 'auto' | 'server' | false
}

function checkOptions(o: McpAppDriverOptions): void {
  checkCoreOptions(o)
  if (o.availableDisplayModes !== undefined && !isDisplayModes(o.availableDisplayModes))
    failOption('availableDisplayModes', "must be an array of 'inline', 'fullscreen', 'pip'")
  if (o.tools !== undefined && typeof o.tools !== 'function') failOption('tools', 'must be agentTools (import it from duetkit/mcp)')
  if (o.confirm !== undefined && typeof o.confirm !== 'function') failOption('confirm', 'must be a function returning a boolean or a promise of one')
  if (o.viewState !== undefined && o.viewState !== 'auto' && o.viewState !== 'server' && o.viewState !== false)
    failOption('viewState', "must be 'auto', 'server' or false")
  if (o.channel !== undefined && typeof o.channel !== 'function')
    failOption('channel', "must be agentChannel() or agentChannel('<channel id>') (import it from duetkit/mcp)")
}

// Without a channel, `notifyAgent` says how to get one instead of "names none of".
const noChannel: McpFeature = () => ({
  handlers: {
    notifyAgent: () =>
      Promise.reject(
        new DuetError(
          'NO_CHANNEL',
          'notifyAgent: this view has no agent channel; make its driver with makeMcpAppDriver({ channel: agentChannel() }) (import agentChannel from duetkit/mcp)',
        ),
      ),
  },
})

/**
 * The MCP Apps driver with every feature: speaks the view side of MCP Apps (JSON-RPC 2.0 over
 * postMessage) to the host that framed the view. Its source is `MCP.select(…)`; its sink takes
 * `{ callTool }`, `{ message }`, `{ updateModelContext }`, … with `ok`/`error` reply actions. A view
 * that wants only the features it uses in its bundle builds its driver with `makeLeanMcpAppDriver`.
 *
 * @example run(App, { MCP: makeMcpAppDriver({ appInfo: { name: 'forecast', version: '1.0.0' } }) })
 */
export function makeMcpAppDriver(options: McpAppDriverOptions = {}): Driver<McpSource> {
  checkOptions(options)
  const features: McpFeature[] = [
    withCapabilityChecks(),
    withDisplayModes(options.availableDisplayModes),
    withDownloads(),
    withServerRequests(),
    withOpenAiExtras(),
  ]
  if (options.viewState !== false) features.push(withViewState(options.viewState))
  if (options.tools) features.push(serveAgentTools(options.tools, { confirm: options.confirm }))
  features.push(options.channel ? withAgentChannel(options.channel) : noChannel)
  return createMcpDriver(options, features)
}
