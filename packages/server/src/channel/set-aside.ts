import { DuetError } from 'duetkit/protocol'
import type { SetAsideEvent } from './store.js'

/**
 * The listeners of a store's set-aside rows. A listener (the agent-apps server writes the server log) must
 * never break the read that found the bad row, so its errors are swallowed here.
 */
export class SetAsideListeners {
  private readonly listeners = new Set<(event: SetAsideEvent) => void>()

  add(listener: (event: SetAsideEvent) => void): () => void {
    if (typeof listener !== 'function') throw new DuetError('INVALID_OPTION', 'onSetAside: listener must be a function.', { option: 'listener' })
    this.listeners.add(listener)
    return () => {
      this.listeners.delete(listener)
    }
  }

  emit(event: SetAsideEvent): void {
    if (event.count <= 0) return
    for (const listener of [...this.listeners]) {
      try {
        listener(event)
      } catch {
        // A failing log write must not cost the reader its neighbours' messages.
      }
    }
  }
}
