import type { VNode } from 'snabbdom'
import type { DomBackend } from '../runtime/core.js'
import { createDelegator, type PathNode } from '../dom/delegate.js'
import { createDomSource } from '../dom/source.js'
import { adoptSvg } from '../jsx/svg.js'
import { attributeOf, classesOf, compileSelector, idOf, matchesSelector, tagOf, type VElement } from './vnode-query.js'

/**
 * What a simulated event may set: `data` merges into the target's dataset, `value` and `checked` are the
 * target's, `target` sets any other property of it (a `<details>`'s `open`); the rest goes on the event.
 */
export interface EventInit {
  data?: Record<string, unknown>
  value?: unknown
  checked?: boolean
  target?: Record<string, unknown>
  [field: string]: unknown
}

/** The DOM backend of renderComponent: it keeps the rendered tree and delivers simulated events. */
export interface FakeDom extends DomBackend {
  tree(): VNode | undefined
  /** Dispatches `type` at `el` through the same delegation as the real DOM. */
  dispatch(el: VElement, type: string, init: EventInit): void
}

/** Creates the vnode-tree DOM backend. */
export function createFakeDom(): FakeDom {
  let tree: VNode | undefined
  const delegator = createDelegator()
  return {
    source: (scope) => createDomSource(delegator, scope, (selector) => void compileSelector(selector)),
    adopt: adoptSvg,
    commit: (vnode) => {
      tree = vnode
    },
    dispose: () => {
      tree = undefined
    },
    tree: () => tree,
    dispatch(el, type, init) {
      const { data, value, checked, target: props, ...rest } = init
      const target = Object.assign(fakeElement(el, { data, value, checked }), props)
      const path: PathNode[] = []
      for (let cur: any = target; cur; cur = cur.parentElement) {
        const node = cur
        path.push({ el: node, scope: node.__duetScope, matches: (sel) => node.matches(sel) })
      }
      let defaultPrevented = false
      const event = {
        type,
        bubbles: true,
        target,
        currentTarget: target,
        get defaultPrevented() {
          return defaultPrevented
        },
        preventDefault() {
          defaultPrevented = true
        },
        stopPropagation() {},
        ...rest,
      }
      delegator.dispatch(type, path, event)
    },
  }
}

interface Overrides {
  data?: Record<string, unknown>
  value?: unknown
  checked?: boolean
}

/** A plain object that answers what intents read from `event.target` in the browser. */
function fakeElement(el: VElement, o: Overrides = {}): any {
  const v = el.vnode
  const props = v.data?.props ?? {}
  const dataset: Record<string, string> = {}
  // The JSX runtime writes `data` as `data-*` attributes; the DOM reads them back camel-cased.
  for (const name in v.data?.attrs) {
    if (name.startsWith('data-')) dataset[name.slice(5).replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase())] = String(v.data!.attrs![name])
  }
  Object.assign(dataset, v.data?.dataset)
  for (const k in o.data ?? {}) dataset[k] = String(o.data![k])
  let parent: any
  return {
    __duetScope: v.data?.scope,
    tagName: tagOf(v).toUpperCase(),
    id: idOf(v) ?? '',
    className: classesOf(v).join(' '),
    dataset,
    value: o.value !== undefined ? o.value : props.value,
    checked: o.checked !== undefined ? o.checked : props.checked,
    disabled: !!props.disabled,
    textContent: textOf(v),
    get parentElement() {
      return el.parent ? (parent ??= fakeElement(el.parent)) : null
    },
    getAttribute: (name: string) => attributeOf(v, name) ?? null,
    matches: (sel: string) => matchesSelector(el, compileSelector(sel)),
    closest(sel: string) {
      for (let cur: any = this; cur; cur = cur.parentElement) if (cur.matches(sel)) return cur
      return null
    },
  }
}

function textOf(v: VNode): string {
  if (v.text !== undefined) return v.text
  return (v.children ?? []).map((c) => (typeof c === 'string' ? c : textOf(c))).join('')
}
