import type { VNode } from 'snabbdom'
import type { DomBackend } from '../runtime/core.js'
import { DuetError } from '../runtime/errors.js'
import { HAS_DOM_EVENTS, HAS_SVG, omittedError } from '../runtime/omitted.js'
import { adoptSvg } from '../jsx/svg.js'
import { createDelegator, type PathNode } from './delegate.js'
import { ELEMENT_UPDATES } from './modules.js'
import { createPatcher } from './patch.js'
import { createDomSource } from './source.js'

const patch = createPatcher(ELEMENT_UPDATES)

/**
 * Renders into `container` (its children are replaced) and delegates events from it: one capture
 * listener per event type in use, so non-bubbling events (focus, blur) are heard too. Without DOM
 * events (`duet({ omit: ['dom-events'] })`) nothing listens, and an intent reading `DOM` is told why.
 */
export function createDomBackend(container: Element): DomBackend {
  const handler = (event: Event) => {
    const path: PathNode[] = []
    for (let el = event.target as Element | null; el && el !== container; el = el.parentElement) {
      const node = el
      path.push({ el: node, scope: (node as any).__duetScope, matches: (sel) => typeof node.matches === 'function' && node.matches(sel) })
    }
    delegator!.dispatch(event.type, path, event)
  }
  const delegator = HAS_DOM_EVENTS
    ? createDelegator((type, listening) => {
        if (listening) container.addEventListener(type, handler, true)
        else container.removeEventListener(type, handler, true)
      })
    : undefined
  const placeholder = container.ownerDocument.createElement('div')
  container.replaceChildren(placeholder)
  let current: VNode | Element = placeholder
  const check = (selector: string) => {
    // Fail when the intent is set up, not silently on every event.
    try {
      container.ownerDocument.createDocumentFragment().querySelector(selector)
    } catch {
      throw new DuetError('BAD_SELECTOR', `DOM.select(${JSON.stringify(selector)}): invalid CSS selector`)
    }
  }
  return {
    // Chosen by the flag itself, so a build drops the branch it does not take.
    source: HAS_DOM_EVENTS
      ? (scope) => createDomSource(delegator!, scope, check)
      : () => {
          throw omittedError('dom-events')
        },
    adopt: HAS_SVG ? adoptSvg : undefined,
    commit(vnode) {
      current = patch(current, vnode)
    },
    dispose() {
      if (HAS_DOM_EVENTS) for (const type of delegator!.types()) container.removeEventListener(type, handler, true)
      const elm = current instanceof Element ? current : current.elm
      elm?.parentNode?.removeChild(elm)
    },
  }
}
