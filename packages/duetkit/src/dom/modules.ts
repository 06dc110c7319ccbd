import type { Module, VNode } from 'snabbdom'

/** Records the owning component instance on its root element, for scoped event delegation. */
export const scopeModule: Module = {
  create: setScope,
  update: setScope,
}

function setScope(_old: VNode, vnode: VNode): void {
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
export const propsModule: Module = {
  create: updateProps,
  update: updateProps,
}

const pristine = new Map<string, any>()

function updateProps(old: VNode, vnode: VNode): void {
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

/**
 * Inline styles. snabbdom's own style module reads `window` when it loads, which breaks Node
 * (renderComponent, server rendering), and its transition hooks are not needed here.
 */
export const styleModule: Module = {
  create: updateStyle,
  update: updateStyle,
}

function updateStyle(old: VNode, vnode: VNode): void {
  const prev = (old.data?.style ?? {}) as Record<string, string>
  const next = (vnode.data?.style ?? {}) as Record<string, string>
  if (prev === next) return
  const style = (vnode.elm as HTMLElement).style
  for (const name in prev) if (!(name in next)) name.startsWith('--') ? style.removeProperty(name) : ((style as any)[name] = '')
  for (const name in next) {
    if (prev[name] === next[name]) continue
    if (name.startsWith('--')) style.setProperty(name, next[name])
    else (style as any)[name] = next[name]
  }
}
