import { describe, expect, it } from 'vitest'
import { capabilityFor, METHOD_CAPABILITY } from 'duetkit/protocol'

describe('the host capability each view request needs', () => {
  it('names the capability of each gated method', () => {
    expect(capabilityFor('tools/call')).toBe('serverTools')
    expect(capabilityFor('resources/templates/list')).toBe('serverResources')
    expect(capabilityFor('ui/update-model-context')).toBe('updateModelContext')
    expect(capabilityFor('sampling/createMessage')).toBe('sampling')
  })

  it('needs none for the handshake, size changes, pings and unknown methods, prototype names included', () => {
    for (const method of ['ui/initialize', 'ui/notifications/size-changed', 'ping', 'prompts/list', 'constructor', 'toString', '__proto__'])
      expect(capabilityFor(method), method).toBeUndefined()
  })

  it('answers for every method of the table, each named as a JSON-RPC method', () => {
    for (const [method, key] of Object.entries(METHOD_CAPABILITY)) {
      expect(method).toMatch(/^[a-z]+(\/[a-zA-Z-]+)+$/)
      expect(capabilityFor(method)).toBe(key)
    }
  })
})
