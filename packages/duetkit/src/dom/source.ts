import { Stream } from 'xstream'
import type { Delegator } from './delegate.js'

/** Options of `DOM.select(sel).events(type, options)`. */
export interface EventsOptions {
  /** Also hear events from elements that belong to child components. */
  deep?: boolean
}

/** A stream of DOM events with shortcuts to what intents usually want from them. */
export interface DomEventStream<E = any> extends Stream<E> {
  /** The matched element's `value`. */
  value(): Stream<string>
  /** The matched element's `checked`, as a boolean. */
  checked(): Stream<boolean>
  /** `data-<name>` of the nearest element from the target up to the matched one (a string), mapped by `fn`. */
  data<T = string>(name: string, fn?: (value: string | undefined) => T): Stream<T>
  /** The event's target. */
  target(): Stream<EventTarget>
}

export interface DomSelection {
  events<E = any>(type: string, options?: EventsOptions): DomEventStream<E>
}

/**
 * The `DOM` source a component's intent receives: `DOM.select(sel).events(type)`, or the shorthand
 * `DOM.<type>(sel)` for any event type (`DOM.click('.x')`, `DOM.input('input')`).
 */
export interface DomSource {
  select(selector: string): DomSelection
  [eventType: string]: any
}

/** Builds the DOM source of one component instance; `check` rejects selectors the backend can't match. */
export function createDomSource(delegator: Delegator, scope: string, check?: (selector: string) => void): DomSource {
  const base = {
    select(selector: string): DomSelection {
      check?.(selector)
      return {
        events(type, options) {
          let remove: (() => void) | undefined
          const stream = Stream.create<any>({
            start(l: { next(v: any): void }) {
              remove = delegator.add({ scope, selector, type, deep: !!options?.deep, emit(event, owner) { event.ownerTarget = owner; l.next(event) } })
            },
            stop() { remove?.() },
          })
          return enrich(stream)
        },
      }
    },
  }
  return new Proxy(base, {
    get(target, prop) {
      if (prop in target) return (target as any)[prop]
      // `then` must stay undefined, or the source would look like a promise to `await`.
      if (typeof prop !== 'string' || prop === 'then') return undefined
      return (selector: string, options?: EventsOptions) => base.select(selector).events(prop, options)
    },
  }) as DomSource
}

function enrich<E>(stream: Stream<any>): DomEventStream<E> {
  const s = stream as DomEventStream<E>
  s.value = () => stream.map((e) => (e.ownerTarget ?? e.target)?.value)
  s.checked = () => stream.map((e) => !!(e.ownerTarget ?? e.target)?.checked)
  s.data = <T>(name: string, fn?: (v: string | undefined) => T) => stream.map((e) => {
    const v = dataOf(e, name)
    return (fn ? fn(v) : v) as T
  })
  s.target = () => stream.map((e) => e.target)
  return s
}

function dataOf(event: any, name: string): string | undefined {
  for (let el = event.target; el; el = el.parentElement) {
    const v = el.dataset?.[name]
    if (v !== undefined) return v
    if (el === event.ownerTarget) break
  }
  return undefined
}
