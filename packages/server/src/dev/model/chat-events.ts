// What the chat in `duet dev --model` tells the page, as `chat` events on /api/events. Type-only, so
// the page imports it without any Node code.

/** Token counts of a turn (all its steps), as the provider reported them; a count it did not report is absent. */
export interface TurnUsage {
  input?: number
  output?: number
  total?: number
}

/** Where a user turn came from: typed in the chat, or a view's `ui/message`. */
export interface TurnSource {
  /** The tool call whose view sent the message. */
  callId: string
  tool: string
}

/** One event of the conversation; `turn` numbers the user turn it belongs to, from 1. */
export type ChatEvent =
  | { kind: 'turn-start'; turn: number; text: string; from?: TurnSource }
  | { kind: 'text'; turn: number; delta: string }
  | {
      kind: 'tool-call'
      turn: number
      callId: string
      /** The server's id (`s1`, …) and the MCP tool name, as the page knows them. */
      server: string
      tool: string
      input: Record<string, unknown>
      /** The tool's `ui://` resource, when it has a view. */
      uri?: string
    }
  | { kind: 'tool-result'; turn: number; callId: string; result: unknown }
  | { kind: 'tool-error'; turn: number; callId: string; error: string }
  | { kind: 'turn-end'; turn: number; usage: TurnUsage; finish: string; stopped: boolean }
  | { kind: 'error'; turn: number; message: string }

/** What `/api/state` says about the chat: which model (never its key). */
export interface ChatInfo {
  model: string
}
