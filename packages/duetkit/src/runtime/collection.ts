import type { VNode } from 'snabbdom'
import type { Component } from './types.js'
import { DuetError, logFailure } from './errors.js'
import { bump, claim, renderInstance, type ExpandingTag, type Walk } from './render.js'

/** Props of `<Collection of={Item} from="items" />`; any other prop is passed to every item. */
export interface CollectionProps {
  of: Component
  /** The parent state field holding the items array; each item needs a unique `id`. */
  from: string
  [prop: string]: unknown
}

function expandCollection(walk: Walk, { of: Item, from, state: _ignored, ...props }: Record<string, any>, out: VNode[]): void {
  if (typeof Item !== 'function' || typeof from !== 'string') {
    throw new DuetError('DUET_BAD_OPTION', '<Collection> needs of={Component} and from="<state field holding the items>"')
  }
  const list = bump(walk.counts, '\0collection')
  const items = walk.state?.[from]
  if (!Array.isArray(items)) return
  const parent = walk.inst
  const field = (): any[] => parent.get()?.[from] ?? []
  for (const item of items) {
    const id = item?.id
    if (id == null) {
      logFailure(`${parent.name}: <Collection from="${from}">: item without id skipped`, item)
      continue
    }
    const kid = claim(walk, `${list}:${String(id)}`, Item, () => ({
      component: Item,
      key: String(id),
      get: () => field().find((i) => i?.id === id),
      set: (v) => parent.set({ ...parent.get(), [from]: v === undefined ? field().filter((i) => i?.id !== id) : field().map((i) => (i?.id === id ? v : i)) }),
      props,
      children: [],
    }))
    if (!kid) continue
    kid.props = props
    const v = renderInstance(walk.ctx, kid, item)
    if (v.key === undefined) v.key = id
    out.push(v)
  }
}

/**
 * Renders one instance of `of` per element of the parent's `from` array, keyed by the element's
 * `id`. An item whose reducer returns `undefined` is removed from the array.
 */
export const Collection: ((props: CollectionProps) => VNode | null) & ExpandingTag = Object.assign(
  // Never called: the renderer sees `duetExpand` and expands the tag in place.
  function Collection(_props: CollectionProps): VNode | null { return null },
  { duetExpand: expandCollection },
)
