import type { VNode } from 'snabbdom'
import type { AnyComponent } from './types.js'

/** A `get`/`set` pair that maps a parent's state to a child's. */
export interface Lens<P = unknown, C = unknown> {
  get(parent: P): C
  set(parent: P, child: C): P
}

/** What a component tag leaves in the vnode tree until the renderer instantiates it. */
export interface MarkerData {
  /** A component, or a tag that expands in place (`Collection`). */
  c: AnyComponent
  p: Record<string, unknown>
}

const MARKER = 'duet:component'

/** Builds the placeholder vnode for a component tag. */
export function componentMarker(c: AnyComponent, props: Record<string, unknown>, children: VNode[], key: unknown): VNode {
  const { key: _k, ...p } = props
  return { sel: MARKER, data: { duet: { c, p } satisfies MarkerData }, children, elm: undefined, text: undefined, key: key as VNode['key'] }
}

/** The marker data when `vnode` is a component tag. */
export function markerOf(vnode: VNode): MarkerData | undefined {
  return vnode.sel === MARKER ? (vnode.data as { duet: MarkerData }).duet : undefined
}
