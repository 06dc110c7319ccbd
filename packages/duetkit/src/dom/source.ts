import { createStream, type Stream } from '../runtime/stream.js'
import type { Delegator } from './delegate.js'

/** Options of `DOM.select(sel).events(type, options)`. */
export interface EventsOptions {
  /** Also hear events from elements that belong to child components. */
  deep?: boolean
  /**
   * Call `preventDefault()` on each event this stream carries: a form's `submit` that must not load a
   * page, a key whose browser default the view replaces. Declared here, so no intent maps for a side effect.
   */
  preventDefault?: boolean
}

/** A form control's state as `control()` reads it, with its `data-*` attributes. */
export interface ControlState {
  /** `value` (`''` for an element without one). */
  value: string
  checked: boolean
  /** Every `data-*` from the target up to the matched element, camel-cased, the nearest winning. */
  data: Record<string, string>
}

/** A stream of DOM events with shortcuts to what intents usually want from them. */
export interface DomEventStream<E = Event> extends Stream<E> {
  /** The matched element's `value`. */
  value(): Stream<string>
  /** The matched element's `checked`, as a boolean. */
  checked(): Stream<boolean>
  /** `data-<name>` of the nearest element from the target up to the matched one (a string). */
  data(name: string): Stream<string>
  /** The same, mapped by `fn`. */
  data<T>(name: string, fn: (value: string | undefined) => T): Stream<T>
  /** Every `data-*` from the target up to the matched element (camel-cased names, the nearest winning). */
  dataset(): Stream<Record<string, string>>
  /** The matched control's value, checked state and `data-*` at once: one stream for many fields, each naming itself. */
  control(): Stream<ControlState>
  /** The event's target. */
  target(): Stream<EventTarget>
}

/** The DOM event types and the event each carries (`click` → `MouseEvent`). */
export type DomEventMap = HTMLElementEventMap

export interface DomSelection {
  /** The events of a known type, typed (`'keydown'` → `KeyboardEvent`). */
  events<K extends keyof DomEventMap>(type: K, options?: EventsOptions): DomEventStream<DomEventMap[K]>
  /** The events of any other type (custom events), as plain `Event`s. */
  events(type: string, options?: EventsOptions): DomEventStream<Event>
}

/** `DOM.<type>(selector)`: one shorthand per known DOM event type, so a misspelled one fails to type-check. */
export type DomShorthands = {
  // `select` is both an event type and `DOM.select`; the method wins, as it does at run time.
  readonly [K in Exclude<keyof DomEventMap, 'select'>]: (selector: string, options?: EventsOptions) => DomEventStream<DomEventMap[K]>
}

/**
 * The `DOM` source a component's intent receives: `DOM.select(sel).events(type)`, or the shorthand
 * `DOM.<type>(sel)` for any DOM event type (`DOM.click('.x')`, `DOM.input('input')`).
 */
export interface DomSource extends DomShorthands {
  select(selector: string): DomSelection
}

// The DOM source is every component's, whichever drivers run: it joins the driver registry with no sink.
declare module '../runtime/types.js' {
  interface Drivers {
    DOM: { source: DomSource; sink: never }
  }
}

/** Builds the DOM source of one component instance; `check` rejects selectors the backend can't match. */
export function createDomSource(delegator: Delegator, scope: string, check?: (selector: string) => void): DomSource {
  const base = {
    select(selector: string): DomSelection {
      check?.(selector)
      // One implementation behind both overloads: the event type only narrows what the stream is typed to carry.
      return {
        events(type: string, options?: EventsOptions) {
          let remove: (() => void) | undefined
          const stream = createStream<any>({
            start(l: { next(v: any): void }) {
              remove = delegator.add({
                scope,
                selector,
                type,
                deep: !!options?.deep,
                emit(event, owner) {
                  ;(event as { ownerTarget?: unknown }).ownerTarget = owner
                  if (options?.preventDefault) (event as { preventDefault?(): void }).preventDefault?.()
                  l.next(event)
                },
              })
            },
            stop() {
              remove?.()
            },
          })
          return enrich(stream)
        },
      } as DomSelection
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
  s.data = <T>(name: string, fn?: (v: string | undefined) => T) =>
    stream.map((e) => {
      const found = datasetOf(e)
      const v = Object.hasOwn(found, name) ? found[name] : undefined
      return (fn ? fn(v) : v) as T
    })
  s.dataset = () => stream.map((e) => datasetOf(e))
  s.control = () =>
    stream.map((e) => {
      const el = e.ownerTarget ?? e.target
      return { value: typeof el?.value === 'string' ? el.value : String(el?.value ?? ''), checked: !!el?.checked, data: datasetOf(e) }
    })
  s.target = () => stream.map((e) => e.target)
  return s
}

function datasetOf(event: any): Record<string, string> {
  const out: Record<string, string> = {}
  for (let el = event.target; el; el = el.parentElement) {
    // Own keys only: `in` would count `constructor` or `toString` as found already, and skip them.
    for (const k in el.dataset ?? {}) if (!Object.hasOwn(out, k)) out[k] = el.dataset[k]
    if (el === event.ownerTarget) break
  }
  return out
}
