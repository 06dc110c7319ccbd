import type { VNode } from 'snabbdom'
import type { Component } from './types.js'

/** A `get`/`set` pair that maps a parent's state to a child's. */
export interface Lens<P = any, C = any> {
  get(parent: P): C
  set(parent: P, child: C): P
}

/** Props of `<Collection of={Item} from="items" />`; any other prop is passed to every item. */
export interface CollectionProps {
  of: Component
  /** The parent state field holding the items array; each item needs a unique `id`. */
  from: string
  [prop: string]: unknown
}

/** What a component tag leaves in the vnode tree until the renderer instantiates it. */
export interface MarkerData {
  c: Component | typeof Collection
  p: Record<string, any>
}

const MARKER = 'duet:component'

/**
 * Renders one instance of `of` per element of the parent's `from` array, keyed by the element's
 * `id`. An item whose reducer returns `undefined` is removed from the array.
 */
export function Collection(_props: CollectionProps): VNode | null {
  // Never called: the renderer recognises the tag and expands it in place.
  return null
}

/** Builds the placeholder vnode for a component tag. */
export function componentMarker(c: Component, props: Record<string, any>, children: VNode[], key: unknown): VNode {
  const { key: _k, ...p } = props
  return { sel: MARKER, data: { duet: { c, p } satisfies MarkerData }, children, elm: undefined, text: undefined, key: key as any }
}

/** The marker data when `vnode` is a component tag. */
export function markerOf(vnode: VNode): MarkerData | undefined {
  return vnode.sel === MARKER ? (vnode.data as any).duet : undefined
}
