import type { VNode } from 'snabbdom'
import { HAS_DOM_EVENTS } from '../runtime/omitted.js'
import type { ElementUpdate } from './patch.js'

/** Records the owning component instance on its root element, for scoped event delegation. */
export function setScope(_old: VNode, vnode: VNode): void {
  const scope = vnode.data?.scope
  const elm = vnode.elm as any
  if (scope !== undefined) elm.__duetScope = scope
  else if (elm && elm.__duetScope !== undefined) delete elm.__duetScope
}

/**
 * DOM properties. Unlike snabbdom's props module, a prop that disappears from the JSX is reset to
 * the value a fresh element of the same tag has (`disabled` → false, `className` → ''), so the
 * DOM never keeps a value the view no longer asks for.
 */
const pristine = new Map<string, any>()

export function updateProps(old: VNode, vnode: VNode): void {
  const prev = old.data?.props
  const next = vnode.data?.props
  if (prev === next) return
  const elm = vnode.elm as any
  for (const key in prev) {
    if (next && key in next) continue
    const tag = elm.localName
    let fresh = pristine.get(tag)
    if (!fresh) pristine.set(tag, (fresh = elm.ownerDocument.createElement(tag)))
    // An expando the element does not know is deleted; a real property goes back to its default.
    if (fresh[key] === undefined) delete elm[key]
    else elm[key] = fresh[key]
  }
  for (const key in next) {
    const cur = next[key]
    // An unchanged `value` is left alone, and a changed one is not written over an equal live value
    // (it would move the caret). A new element's is always written: an <option>'s live value is its
    // text until set, and its text is not there yet, so `value=""` would compare equal and be lost.
    if (cur !== prev?.[key] && (key !== 'value' || !prev || !('value' in prev) || elm.value !== cur)) elm[key] = cur
  }
}

// What an absent class, attrs or style object reads as: one shared empty object, so an element
// without them costs no allocation on each patch and returns at the first check.
const NONE: Record<string, never> = Object.freeze({})

/** Inline styles: camelCase names as properties, `--custom` ones through setProperty. */
export function updateStyle(old: VNode, vnode: VNode): void {
  const prev = (old.data?.style ?? NONE) as Record<string, string>
  const next = (vnode.data?.style ?? NONE) as Record<string, string>
  if (prev === next) return
  const style = (vnode.elm as HTMLElement).style
  for (const name in prev) if (!(name in next)) name.startsWith('--') ? style.removeProperty(name) : ((style as any)[name] = '')
  for (const name in next) {
    if (prev[name] === next[name]) continue
    if (name.startsWith('--')) style.setProperty(name, next[name])
    else (style as any)[name] = next[name]
  }
}

/** `class={{ name: on }}` toggles: a name that was on and is gone from the object is taken off. */
export function updateClass(old: VNode, vnode: VNode): void {
  const prev = old.data?.class ?? NONE
  const next = vnode.data?.class ?? NONE
  if (prev === next) return
  const list = (vnode.elm as Element).classList
  for (const name in prev) if (prev[name] && !Object.hasOwn(next, name)) list.remove(name)
  for (const name in next) if (next[name] !== prev[name]) list.toggle(name, !!next[name])
}

// Attributes whose prefix names a namespace: `xlink:href` on SVG, `xml:lang`, `xmlns:xlink`.
const NAMESPACES: Record<string, string> = {
  xlink: 'http://www.w3.org/1999/xlink',
  xml: 'http://www.w3.org/XML/1998/namespace',
  xmlns: 'http://www.w3.org/2000/xmlns/',
}

/** Attributes: `true` is the empty attribute, `false` removes it, anything else is written as text. */
export function updateAttrs(old: VNode, vnode: VNode): void {
  const prev = old.data?.attrs ?? NONE
  const next = vnode.data?.attrs ?? NONE
  if (prev === next) return
  const elm = vnode.elm as Element
  for (const name in next) {
    const value = next[name]
    if (value === prev[name]) continue
    if (value === false) {
      elm.removeAttribute(name)
      continue
    }
    const text = value === true ? '' : (value as string)
    const prefix = name.slice(0, name.indexOf(':'))
    if (Object.hasOwn(NAMESPACES, prefix)) elm.setAttributeNS(NAMESPACES[prefix]!, name, text)
    else elm.setAttribute(name, text)
  }
  for (const name in prev) if (!(name in next)) elm.removeAttribute(name)
}

/** What every element gets on creation and on each patch, in this order (the scope only where there are DOM events to scope). */
export const ELEMENT_UPDATES: readonly ElementUpdate[] = HAS_DOM_EVENTS
  ? [updateClass, updateProps, updateAttrs, updateStyle, setScope]
  : [updateClass, updateProps, updateAttrs, updateStyle]
