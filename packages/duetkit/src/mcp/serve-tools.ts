import type { AgentToolsFactory, ConfirmFn } from './agent-tools.js'
import type { McpFeature } from './feature.js'
import { INVALID_PARAMS, RpcError } from './json-rpc.js'

/**
 * Serves the components' `agent` declarations as the view's own tools (`tools/list`, `tools/call`,
 * `notifications/tools/list_changed`), announced as `appCapabilities.tools`. Part of `makeMcpAppDriver`
 * (its `tools` and `confirm` options); pass it to `makeLeanMcpAppDriver` for a view the agent drives.
 *
 * @example makeLeanMcpAppDriver({ features: [serveAgentTools(agentTools, { confirm })] })
 */
export function serveAgentTools(factory: AgentToolsFactory, options: { confirm?: ConfirmFn } = {}): McpFeature {
  return (ctx) => {
    const tools = factory(ctx.app, { confirm: options.confirm })
    // The host lists tools after the handshake; only later changes are worth a notification.
    let listed: string | undefined
    const unsubscribe = ctx.app.onFlush(() => {
      if (!ctx.connected() || listed === undefined) return
      const now = JSON.stringify(tools.list())
      if (now === listed) return
      listed = now
      ctx.notify('notifications/tools/list_changed', {}).catch(() => {})
    })
    return {
      appCapabilities: { tools: { listChanged: true } },
      onConnected() {
        listed = JSON.stringify(tools.list())
      },
      onRequest(method, params) {
        if (method === 'tools/list') return Promise.resolve({ tools: tools.list() })
        if (method !== 'tools/call') return undefined
        if (typeof params.name !== 'string') return Promise.reject(new RpcError(INVALID_PARAMS, 'tools/call needs a tool name'))
        return tools.call(params.name, params.arguments)
      },
      dispose: unsubscribe,
    }
  }
}
