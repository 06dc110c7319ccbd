import type { ChatEvent, TurnSource, TurnUsage } from '../../model/chat-events.js'

/** One tool call in the transcript; one with `uri` gets its view rendered under it. */
export interface ToolItem {
  kind: 'tool'
  id: string
  callId: string
  server: string
  tool: string
  input: Record<string, unknown>
  uri?: string
  status: 'running' | 'done' | 'failed'
  /** The tool's error, or the text of a result with isError. */
  error?: string
}

export interface TextItem {
  kind: 'text'
  id: string
  text: string
}

export type TurnItem = TextItem | ToolItem

/** One user turn and everything the model did for it. */
export interface TurnState {
  id: number
  text: string
  from?: TurnSource
  items: TurnItem[]
  usage?: TurnUsage
  finish?: string
  error?: string
  done: boolean
}

export interface ChatState {
  model: string
  draft: string
  turns: TurnState[]
  /** An error that belongs to no turn (the page could not reach duet dev). */
  notice?: string
}

export const initialChatState: ChatState = { model: '', draft: '', turns: [] }

/** Whether the model is working on a turn (the stop button shows). */
export const isBusy = (state: ChatState): boolean => state.turns.some((t) => !t.done)

const resultText = (result: unknown): string =>
  ((result as { content?: { type: string; text?: string }[] } | undefined)?.content ?? [])
    .filter((c) => c.type === 'text')
    .map((c) => c.text ?? '')
    .join(' ')

/** Folds one event of the conversation into the transcript. Events of a turn the page never saw start are dropped. */
export function applyChatEvent(state: ChatState, event: ChatEvent): ChatState {
  if (event.kind === 'turn-start') {
    const turn: TurnState = { id: event.turn, text: event.text, ...(event.from && { from: event.from }), items: [], done: false }
    return { ...state, turns: [...state.turns, turn] }
  }
  const index = state.turns.findIndex((t) => t.id === event.turn)
  if (index < 0) return event.kind === 'error' ? { ...state, notice: event.message } : state
  const turn = state.turns[index]
  const next = ((): TurnState => {
    switch (event.kind) {
      case 'text': {
        const last = turn.items.at(-1)
        if (last?.kind === 'text') return { ...turn, items: [...turn.items.slice(0, -1), { ...last, text: last.text + event.delta }] }
        return { ...turn, items: [...turn.items, { kind: 'text', id: `text-${turn.items.length}`, text: event.delta }] }
      }
      case 'tool-call': {
        const { callId, server, tool, input, uri } = event
        const item: ToolItem = { kind: 'tool', id: `tool-${callId}`, callId, server, tool, input, ...(uri && { uri }), status: 'running' }
        return { ...turn, items: [...turn.items, item] }
      }
      case 'tool-result':
      case 'tool-error': {
        const failed = event.kind === 'tool-error' || (event.result as { isError?: unknown } | undefined)?.isError === true
        const error = event.kind === 'tool-error' ? event.error : failed ? resultText(event.result) : undefined
        const items = turn.items.map((i) =>
          i.kind === 'tool' && i.callId === event.callId ? { ...i, status: failed ? ('failed' as const) : ('done' as const), ...(error && { error }) } : i,
        )
        return { ...turn, items }
      }
      case 'turn-end':
        return { ...turn, usage: event.usage, finish: event.finish, done: true }
      case 'error':
        return { ...turn, error: turn.error ? `${turn.error}\n${event.message}` : event.message }
    }
  })()
  const turns = state.turns.slice()
  turns[index] = next
  return { ...state, turns }
}

/** The token line under a turn: what the provider counted, or that it did not say. */
export function usageLine(usage: TurnUsage | undefined): string {
  if (!usage || (usage.input === undefined && usage.output === undefined)) return 'tokens: not reported'
  const total = usage.total ?? (usage.input ?? 0) + (usage.output ?? 0)
  return `tokens: ${usage.input ?? '?'} in, ${usage.output ?? '?'} out, ${total} total`
}
