/**
 * Event delegation shared by the real DOM and renderComponent's vnode tree: one registry of
 * listeners, and one rule for which listener an event reaches.
 *
 * The rule: a listener of component instance I with selector S gets an event when, walking from
 * the event's target up to I's root element, some element matches S and belongs to I itself
 * (not to a child component inside I). `deep: true` lifts the second condition, for a parent that
 * wants its children's events.
 */

/** One element on an event's path, from the target upwards. */
export interface PathNode {
  /** The ids of the instances whose root element this is, innermost first (a view may return a child component). */
  scope: readonly string[] | undefined
  matches(selector: string): boolean
  el: unknown
}

/** An event as delegation passes it on: a DOM `Event`, or renderComponent's plain stand-in for one. */
export type DelegatedEvent = object

/** A listener registered by a component's `DOM.select(selector).events(type)`. */
export interface DomListener {
  scope: string
  selector: string
  type: string
  deep: boolean
  /** `owner` is the element that matched `selector`; the source records it on the event as `ownerTarget`. */
  emit(event: DelegatedEvent, owner: unknown): void
}

export interface Delegator {
  add(listener: DomListener): () => void
  /** Delivers `event` to every listener the rule above lets through. */
  dispatch(type: string, path: PathNode[], event: DelegatedEvent): void
  types(): string[]
}

/** Creates a listener registry; `onType` hears when a type gets its first or loses its last listener. */
export function createDelegator(onType?: (type: string, listening: boolean) => void): Delegator {
  const byType = new Map<string, Set<DomListener>>()
  return {
    add(listener) {
      let set = byType.get(listener.type)
      if (!set) {
        byType.set(listener.type, (set = new Set()))
        onType?.(listener.type, true)
      }
      set.add(listener)
      return () => {
        if (!set.delete(listener) || set.size > 0) return
        byType.delete(listener.type)
        onType?.(listener.type, false)
      }
    },
    dispatch(type, path, event) {
      const set = byType.get(type)
      if (!set) return
      const owners: (string | undefined)[] = new Array(path.length)
      let owner: string | undefined
      for (let i = path.length - 1; i >= 0; i--) owners[i] = owner = path[i].scope?.[0] ?? owner
      for (const l of [...set]) {
        let found = -1
        for (let i = 0; i < path.length; i++) {
          if (found < 0 && (l.deep || owners[i] === l.scope) && path[i].matches(l.selector)) found = i
          if (path[i].scope?.includes(l.scope)) {
            if (found >= 0) l.emit(event, path[found].el)
            break
          }
        }
      }
    },
    types: () => [...byType.keys()],
  }
}
