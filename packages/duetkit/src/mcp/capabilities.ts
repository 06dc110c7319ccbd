import { DuetError } from '../protocol/errors.js'
import { capabilityFor } from '../protocol/host-capabilities.js'
import type { McpFeature } from './feature.js'
import { isObject, type JsonObject } from './json-rpc.js'

/**
 * Refuses, before anything is posted, a message the host did not advertise in its `ui/initialize`
 * answer: a host that lacks a feature answers -32601 after a round trip (and logs it), while the
 * capabilities already say so. Returns an `UNSUPPORTED` error naming the method, or undefined.
 */
export function unsupported(method: string, params: JsonObject, hostCapabilities: JsonObject, hostContext: JsonObject): DuetError | undefined {
  const key = capabilityFor(method)
  if (key !== undefined && !isObject(hostCapabilities[key]))
    return new DuetError(
      'UNSUPPORTED',
      `${method}: the host does not offer it (hostCapabilities.${key} is absent); check the 'host' source's hostCapabilities before asking`,
      { method, capability: key },
    )
  if (method === 'ui/request-display-mode') {
    // A host that lists its modes has said which it can show; one that lists none decides itself.
    const modes = hostContext.availableDisplayModes
    if (Array.isArray(modes) && !modes.includes(params.mode))
      return new DuetError(
        'UNSUPPORTED',
        `${method}: the host does not offer display mode ${JSON.stringify(params.mode)} (its availableDisplayModes are ${JSON.stringify(modes)})`,
        { method, mode: params.mode },
      )
  }
  return undefined
}

/**
 * Capability checks: every outgoing message is first held against the handshake's `hostCapabilities`
 * (and a display mode against the host's `availableDisplayModes`), and refused with `UNSUPPORTED`
 * without a round trip. Part of `makeMcpAppDriver`; without it a host that lacks a feature answers the
 * request with its own error (-32601), which reaches the same `error` action.
 */
export function withCapabilityChecks(): McpFeature {
  return (ctx) => ({ check: (out) => unsupported(out.method, out.params, ctx.hostCapabilities() ?? {}, ctx.hostContext()) })
}
