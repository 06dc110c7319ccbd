import type { AppHandle, PersistHandle } from './driver.js'
import { DuetError } from './errors.js'
import { isObject } from '../protocol/json.js'

/**
 * The root component's kept state (`App.persist`), for a driver that knows where to keep it (the MCP
 * driver's `withViewState`): undefined when the app keeps nothing. Lives outside the runtime core, so a
 * view whose driver keeps no state carries none of it. Throws `INVALID_OPTION` for a `persist` that is
 * neither `true` nor an array of state keys.
 */
export function persistenceOf(app: AppHandle): PersistHandle | undefined {
  const root = app.root?.()
  const choice: unknown = root?.component.persist
  if (!root || choice === undefined || choice === false) return undefined
  if (choice !== true && !(Array.isArray(choice) && choice.every((k) => typeof k === 'string' && k !== '')))
    throw new DuetError('INVALID_OPTION', `App.persist must be true or an array of state keys, got ${JSON.stringify(choice)}`, { option: 'persist' })
  const keys: true | readonly string[] = choice === true ? true : [...(choice as string[])]
  const pick = (state: unknown) => {
    if (keys === true || !isObject(state)) return state
    const out: Record<string, unknown> = {}
    for (const k of keys) if (k in state) out[k] = state[k]
    return out
  }
  return {
    keys,
    snapshot: () => pick(root.state()),
    restore(saved) {
      if (keys !== true && !isObject(saved))
        return Promise.reject(new DuetError('INVALID_ARGUMENT', `restore: a kept state must be an object of ${keys.join(', ')}, got ${typeof saved}`))
      // Only the kept keys come back: a stale or foreign snapshot cannot add fields the app never kept.
      return root.replace((now) => (keys === true ? saved : { ...(isObject(now) ? now : {}), ...(pick(saved) as Record<string, unknown>) }))
    },
  }
}
