/** Local error codes of the MCP Apps driver (errors that never cross the wire). */
export const McpAppErrorCode = {
  /** The page has no MCP Apps host (opened directly, no parent window, or server rendering). */
  NoHost: 'NO_HOST',
  /** The `ui/initialize` handshake failed, so nothing else can be sent. */
  HandshakeFailed: 'HANDSHAKE_FAILED',
  /** The app was disposed while the request was in flight. */
  Disposed: 'DISPOSED',
  /** A sink value named no known request (`callTool`, `message`, …) or had a malformed field. */
  InvalidSink: 'INVALID_SINK',
  /** `makeMcpAppDriver` was given an invalid option. */
  InvalidOption: 'INVALID_OPTION',
  /** `notifyAgent` had no channel: the driver was made without `agentChannel()`, or the view's tool result named none. */
  NoChannel: 'NO_CHANNEL',
  /** A channel tool (`notify_agent`) answered with an error result. */
  ToolFailed: 'TOOL_FAILED',
} as const

export type McpAppErrorCode = (typeof McpAppErrorCode)[keyof typeof McpAppErrorCode]

/** An error raised by the driver itself, with a string code to branch on. */
export class McpAppError extends Error {
  constructor(readonly code: McpAppErrorCode, message: string, readonly data?: unknown) {
    super(message)
    this.name = 'McpAppError'
  }
}
