import { Stream } from 'xstream'

/** The names `MCP.select(…)` accepts. */
export type McpSourceName =
  | 'tool-input'
  | 'tool-input-partial'
  | 'tool-result'
  | 'tool-cancelled'
  | 'host-context-changed'
  | 'teardown'
  | 'host'
  /** Messages the agent sent the view's channel with `notify_ui`: `{ id, event, data }` (served by the driver's channel link). */
  | 'agent-message'

// Each name, and whether it is replayed: tool input and result, host context and host describe
// the view's current situation, so a component mounted later still needs them.
const NAMES: Record<McpSourceName, boolean> = {
  'tool-input': true,
  'tool-input-partial': false,
  'tool-result': true,
  'tool-cancelled': false,
  'host-context-changed': true,
  teardown: false,
  host: true,
  'agent-message': false,
}

/** The `MCP` source intents receive. */
export interface McpSource {
  /** A stream of one kind of host event; the latest tool input, tool result, host context and host are replayed on subscribe. */
  select(name: McpSourceName): Stream<any>
}

export interface SourceHub {
  source: McpSource
  /** Emits to current listeners; returns how many there were. */
  emit(name: McpSourceName, value: unknown): number
  dispose(): void
}

/** One listener set per source name, with the latest replayable value kept for late subscribers. */
export function createSourceHub(): SourceHub {
  const listeners = new Map<McpSourceName, Set<(value: unknown) => void>>()
  const latest = new Map<McpSourceName, unknown>()
  let disposed = false

  const setOf = (name: McpSourceName) => {
    let set = listeners.get(name)
    if (!set) listeners.set(name, (set = new Set()))
    return set
  }

  const source: McpSource = {
    select(name) {
      if (!Object.hasOwn(NAMES, name)) {
        throw new TypeError(`MCP.select: unknown source "${String(name)}"; expected one of ${Object.keys(NAMES).join(', ')}`)
      }
      let push: ((value: unknown) => void) | undefined
      return Stream.create<any>({
        start(listener) {
          if (disposed) return listener.complete()
          push = (value) => listener.next(value)
          setOf(name).add(push)
          if (latest.has(name)) listener.next(latest.get(name))
        },
        stop() {
          if (push) setOf(name).delete(push)
          push = undefined
        },
      })
    },
  }

  return {
    source,
    emit(name, value) {
      if (disposed) return 0
      if (NAMES[name]) latest.set(name, value)
      const set = [...setOf(name)]
      for (const push of set) push(value)
      return set.length
    },
    dispose() {
      disposed = true
      listeners.clear()
      latest.clear()
    },
  }
}
