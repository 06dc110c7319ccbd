import { dynamicTool, isStepCount, jsonSchema, streamText, type LanguageModel, type ModelMessage, type ToolSet } from 'ai'
import type { ChatEvent, TurnSource, TurnUsage } from './chat-events.js'
import { describeProviderError } from './provider-error.js'
import { modelTools, toolOutputForModel, type ToolServer } from './model-tools.js'

/** Options of {@link ChatSession}. */
export interface ChatSessionOptions {
  model: LanguageModel
  /** The servers whose tools the model sees, read afresh at every turn. */
  servers(): readonly ToolServer[]
  /** Hears the conversation (the page's transcript) … */
  emit(event: ChatEvent): void
  /** … and the whole exchange with the provider, for the trace. */
  trace(dir: 'host->model' | 'model->host', message: unknown): void
  /** Model calls (steps) in one turn, tool calls included. Default 12. */
  maxSteps?: number
}

const INSTRUCTIONS =
  'You are the model in duet dev, a local host for MCP Apps. Your tools come from MCP servers. When a tool has a view ' +
  '(an interactive app), the user sees it in the chat under your tool call and can use it; what they do there may come back to you ' +
  'as their next message or as context below. Answer briefly.'

interface Turn {
  n: number
  text: string
  from?: TurnSource
}

/**
 * The conversation of `duet dev --model`: one turn at a time (a turn is the model's steps and tool
 * calls after one user message), the rest queued in order. Lives in the `duet dev` process, so the
 * provider key never reaches the page.
 */
export class ChatSession {
  private readonly history: ModelMessage[] = []
  private readonly queue: Turn[] = []
  // What views said with ui/update-model-context, by tool call: each view's newest replaces its last.
  private readonly context = new Map<string, { tool: string; params: unknown }>()
  private running: AbortController | null = null
  private turns = 0
  private closed = false

  constructor(private readonly options: ChatSessionOptions) {}

  /** Queues a user turn; returns its number. */
  send(text: string, from?: TurnSource): number {
    const turn: Turn = { n: ++this.turns, text, ...(from && { from }) }
    this.queue.push(turn)
    if (!this.running) void this.drain()
    return turn.n
  }

  /** Stops the running turn (its tool calls are cancelled); false when none runs. */
  stop(): boolean {
    if (!this.running) return false
    this.running.abort(new Error('stopped by the user'))
    return true
  }

  /** Records a view's `ui/update-model-context`; the model sees it from its next step on. */
  setContext(callId: string, tool: string, params: unknown): void {
    this.context.set(callId, { tool, params })
  }

  close(): void {
    this.closed = true
    this.queue.length = 0
    this.stop()
  }

  /** Whether a turn is running or waiting. */
  get busy(): boolean {
    return this.running !== null || this.queue.length > 0
  }

  private instructions(): string {
    if (this.context.size === 0) return INSTRUCTIONS
    const lines = [...this.context].map(([callId, c]) => `- the view of ${c.tool} (call ${callId}): ${JSON.stringify(c.params)}`)
    return `${INSTRUCTIONS}\n\nContext the views on screen gave you (ui/update-model-context), newest per view:\n${lines.join('\n')}`
  }

  private async drain(): Promise<void> {
    while (!this.closed && this.queue.length > 0) {
      const turn = this.queue.shift()!
      this.running = new AbortController()
      try {
        await this.run(turn, this.running.signal)
      } finally {
        this.running = null
      }
    }
  }

  private async run(turn: Turn, signal: AbortSignal): Promise<void> {
    const { emit, trace } = this.options
    emit({ kind: 'turn-start', turn: turn.n, text: turn.text, ...(turn.from && { from: turn.from }) })
    const prefix = turn.from ? `[The view of ${turn.from.tool} sent this message for the user (ui/message)]\n` : ''
    this.history.push({ role: 'user', content: prefix + turn.text })
    const tools: ToolSet = {}
    // Tool results as the server sent them, `_meta` (the view's UUID) included, for the page; the model gets less.
    const raw = new Map<string, unknown>()
    const calls = new Map<string, { server: string; tool: string; uri?: string }>()
    for (const t of modelTools(this.options.servers())) {
      calls.set(t.name, { server: t.server.id, tool: t.tool.name, ...(t.uri && { uri: t.uri }) })
      tools[t.name] = dynamicTool({
        description: t.tool.description ?? t.tool.title ?? t.tool.name,
        inputSchema: jsonSchema(t.tool.inputSchema as Parameters<typeof jsonSchema>[0]),
        // The call goes to the server as the person's host would send it; a JSON-RPC error becomes a tool error the model reads.
        execute: async (input, { abortSignal, toolCallId }) => {
          const result = await t.server.request('tools/call', { name: t.tool.name, arguments: input }, abortSignal)
          raw.set(toolCallId, result)
          return toolOutputForModel(result)
        },
      })
    }
    let text = ''
    let usage: TurnUsage = {}
    let finish = 'stop'
    let failed = false
    const result = streamText({
      model: this.options.model,
      instructions: this.instructions(),
      messages: this.history,
      tools,
      stopWhen: isStepCount(this.options.maxSteps ?? 12),
      abortSignal: signal,
      // A provider error arrives as an `error` part below and is shown in the chat; the SDK's default would log it to the terminal too.
      onError: () => {},
      include: { requestBody: true },
      // A view may update its context while the model works (a click during a long poll): every step reads it anew.
      prepareStep: () => ({ instructions: this.instructions() }),
      onStepEnd: (step) => {
        trace('host->model', step.request.body ?? { messages: step.request.messages })
        trace('model->host', {
          text: step.text,
          toolCalls: step.toolCalls.map((c) => ({ id: c.toolCallId, name: c.toolName, input: c.input })),
          finishReason: step.finishReason,
          usage: step.usage,
        })
      },
    })
    try {
      for await (const part of result.fullStream) {
        if (part.type === 'text-delta') {
          text += part.text
          emit({ kind: 'text', turn: turn.n, delta: part.text })
        } else if (part.type === 'tool-call') {
          const known = calls.get(part.toolName)
          emit({
            kind: 'tool-call',
            turn: turn.n,
            callId: part.toolCallId,
            server: known?.server ?? '',
            tool: known?.tool ?? part.toolName,
            input: (part.input ?? {}) as Record<string, unknown>,
            ...(known?.uri && { uri: known.uri }),
          })
        } else if (part.type === 'tool-result') {
          emit({ kind: 'tool-result', turn: turn.n, callId: part.toolCallId, result: raw.get(part.toolCallId) ?? part.output })
        } else if (part.type === 'tool-error') {
          emit({ kind: 'tool-error', turn: turn.n, callId: part.toolCallId, error: describeProviderError(part.error) })
        } else if (part.type === 'error') {
          failed = true
          emit({ kind: 'error', turn: turn.n, message: describeProviderError(part.error) })
        } else if (part.type === 'finish') {
          finish = part.finishReason
          usage = usageOf(part.totalUsage)
        }
      }
    } catch (err) {
      if (!signal.aborted) {
        failed = true
        emit({ kind: 'error', turn: turn.n, message: describeProviderError(err) })
      }
    }
    const stopped = signal.aborted
    if (stopped || failed) {
      // What the model said before it was cut off stays in the conversation; half-made tool calls do not.
      if (text) this.history.push({ role: 'assistant', content: `${text}${stopped ? '\n[stopped by the user]' : ''}` })
    } else {
      try {
        this.history.push(...(await result.response).messages)
      } catch (err) {
        emit({ kind: 'error', turn: turn.n, message: describeProviderError(err) })
      }
    }
    emit({ kind: 'turn-end', turn: turn.n, usage, finish: stopped ? 'stopped' : failed ? 'error' : finish, stopped })
  }
}

function usageOf(u: { inputTokens?: number; outputTokens?: number; totalTokens?: number } | undefined): TurnUsage {
  return {
    ...(u?.inputTokens !== undefined && { input: u.inputTokens }),
    ...(u?.outputTokens !== undefined && { output: u.outputTokens }),
    ...(u?.totalTokens !== undefined && { total: u.totalTokens }),
  }
}
