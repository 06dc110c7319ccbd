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
