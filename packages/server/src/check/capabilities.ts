import type { McpUiHostCapabilities } from '@modelcontextprotocol/ext-apps/app-bridge'
import { capabilityFor } from 'duetkit/protocol'

// What a view may send whatever the host advertised: the handshake, its own notifications, pings,
// and the display-mode request (checked against the modes the host offered instead).
const ALWAYS = new Set([
  'ui/initialize',
  'ui/notifications/initialized',
  'ui/notifications/size-changed',
  'ui/notifications/request-teardown',
  'ui/request-display-mode',
  'ping',
  'notifications/cancelled',
  'notifications/progress',
  // Sent by the sandbox proxy, not the view.
  'ui/notifications/sandbox-proxy-ready',
])

/**
 * Why a view→host message is one the host did not invite, or `undefined` when it may be sent: a
 * method needing a capability the host left out, a display mode it does not offer, or a method no
 * MCP Apps host answers.
 */
export function capabilityFault(
  method: string,
  params: unknown,
  capabilities: McpUiHostCapabilities,
  availableDisplayModes: readonly string[],
): string | undefined {
  // The same table the view's driver checks its own requests against (duetkit/protocol).
  const needed = capabilityFor(method)
  if (needed) return capabilities[needed] ? undefined : `${method} needs hostCapabilities.${needed}, which this host did not advertise`
  if (method === 'ui/request-display-mode') {
    const mode = (params as { mode?: unknown } | undefined)?.mode
    return typeof mode === 'string' && availableDisplayModes.includes(mode)
      ? undefined
      : `ui/request-display-mode asks for ${JSON.stringify(mode)}; this host offers ${availableDisplayModes.join(', ')}`
  }
  return ALWAYS.has(method) ? undefined : `${method} is not a method MCP Apps hosts answer`
}
