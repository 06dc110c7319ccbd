/**
 * The `hostCapabilities` key (MCP Apps `ui/initialize` answer) a host must advertise before a view may
 * send each method. Methods not listed (the handshake, size changes, teardown requests, pings,
 * `prompts/list`, which has no flag) need none. The view's driver refuses unadvertised requests with
 * this table and `duet check` judges views by it, so both read the same one.
 */
export const METHOD_CAPABILITY = {
  'tools/call': 'serverTools',
  'resources/read': 'serverResources',
  'resources/list': 'serverResources',
  'resources/templates/list': 'serverResources',
  'ui/open-link': 'openLinks',
  'ui/download-file': 'downloadFile',
  'ui/message': 'message',
  'ui/update-model-context': 'updateModelContext',
  'sampling/createMessage': 'sampling',
  'notifications/message': 'logging',
} as const satisfies Readonly<Record<string, string>>

/** A host capability key some view→host method needs. */
export type HostCapabilityKey = (typeof METHOD_CAPABILITY)[keyof typeof METHOD_CAPABILITY]

/** The capability `method` needs, or undefined when it needs none. */
export function capabilityFor(method: string): HostCapabilityKey | undefined {
  return Object.hasOwn(METHOD_CAPABILITY, method) ? METHOD_CAPABILITY[method as keyof typeof METHOD_CAPABILITY] : undefined
}
