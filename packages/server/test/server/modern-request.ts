// One 2026-07-28 (per-request) JSON-RPC request over HTTP, as a modern client sends it: the protocol
// headers and the `_meta` every such request carries. Tests of the HTTP listener's limits share it.

export const MODERN = '2026-07-28'
export const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
}

/** Sends `method` with `params` (a `name` in them is sent as `Mcp-Name` too), as the holder of `token` if given. */
export function modernRequest(
  url: string,
  method: string,
  params: Record<string, unknown> = {},
  options: { token?: string; signal?: AbortSignal } = {},
): Promise<Response> {
  const name = typeof params.name === 'string' ? params.name : undefined
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN,
      'mcp-method': method,
      ...(name && { 'mcp-name': name }),
      ...(options.token && { authorization: `Bearer ${options.token}` }),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: MODERN_META } }),
    ...(options.signal && { signal: options.signal }),
  })
}
