import { Stream, type Driver, type Drivers } from 'duetkit'
import type { ChatEvent } from '../../model/chat-events.js'

/** What the chat's intent reads from the CHAT driver. */
export interface ChatSource {
  /** The conversation's events, as duet dev sends them (and the page's own failures to reach it, as `error`). */
  select(name: 'event'): Stream<ChatEvent>
}

/** What the chat's model sends to the CHAT driver. */
export type ChatCommand = { send: string } | { stop: true }

/** The drivers the chat's components see. */
export type ChatDrivers = Drivers & { CHAT: { source: ChatSource; sink: ChatCommand } }

/** A tool call whose view the driver renders, under the call, once the transcript shows its place. */
export interface ViewCall {
  callId: string
  server: string
  tool: string
  uri: string
  input: Record<string, unknown>
}

/** A rendered view, as the driver hands it the call's outcome. */
export interface MountedView {
  result(result: unknown): void
  cancelled(reason: string): void
  destroy(): void
}

/** What the driver needs from the page: the HTTP API, the event stream, and a way to render a view. */
export interface ChatDriverDeps {
  post(path: '/api/chat' | '/api/chat/stop', body: unknown): Promise<void>
  onEvent(listener: (event: ChatEvent) => void): void
  /** The element the transcript rendered for a call's view, if it is in the page yet. */
  placeOf(callId: string): HTMLElement | null
  mountView(call: ViewCall, container: HTMLElement): Promise<MountedView>
}

type Outcome = { kind: 'result'; value: unknown } | { kind: 'cancelled'; reason: string }

/**
 * The chat's one driver: events in, commands out, and the views. A view is an iframe the runtime must
 * not own (snabbdom would recreate it, and the app with it), so the transcript renders an empty
 * placeholder and the driver mounts the view into it after the flush that rendered it.
 */
export function makeChatDriver(deps: ChatDriverDeps): Driver<ChatSource, ChatCommand> {
  return (sink$, { app }) => {
    let emit: (event: ChatEvent) => void = () => {}
    const events = Stream.create<ChatEvent>({
      start: (l) => {
        emit = (e) => l.next(e)
      },
      stop: () => {
        emit = () => {}
      },
    })
    const waiting = new Map<string, ViewCall>()
    const views = new Map<string, { mounted?: MountedView; outcome?: Outcome }>()
    const deliver = (callId: string, outcome: Outcome) => {
      const v = views.get(callId)
      if (!v) return
      v.outcome = outcome
      if (!v.mounted) return
      if (outcome.kind === 'result') v.mounted.result(outcome.value)
      else v.mounted.cancelled(outcome.reason)
    }
    deps.onEvent((event) => {
      if (event.kind === 'tool-call' && event.uri) {
        const { callId, server, tool, uri, input } = event
        waiting.set(callId, { callId, server, tool, uri, input })
        views.set(callId, {})
      } else if (event.kind === 'tool-result') deliver(event.callId, { kind: 'result', value: event.result })
      else if (event.kind === 'tool-error') deliver(event.callId, { kind: 'cancelled', reason: event.error })
      emit(event)
    })
    const off = app.onFlush(() => {
      for (const [callId, call] of waiting) {
        const place = deps.placeOf(callId)
        if (!place) continue
        waiting.delete(callId)
        deps.mountView(call, place).then(
          (mounted) => {
            const v = views.get(callId)
            if (!v) return mounted.destroy()
            v.mounted = mounted
            if (v.outcome) deliver(callId, v.outcome)
          },
          (err: Error) => emit({ kind: 'error', turn: 0, message: `Could not render the view of ${call.tool}: ${err.message}` }),
        )
      }
    })
    const failed = (what: string) => (err: Error) => emit({ kind: 'error', turn: 0, message: `${what}: ${err.message}` })
    sink$.subscribe({
      next: (command) => {
        if ('send' in command) deps.post('/api/chat', { text: command.send }).catch(failed('The message was not sent'))
        else deps.post('/api/chat/stop', {}).catch(failed('Stop did not reach duet dev'))
      },
      complete: () => {
        off()
        for (const v of views.values()) v.mounted?.destroy()
        views.clear()
      },
    })
    return { select: () => events }
  }
}
