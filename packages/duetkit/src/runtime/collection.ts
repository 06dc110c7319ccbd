import type { VNode } from 'snabbdom'
import type { AnyComponent, NoProps, PropsOf } from './types.js'
import { DuetError, logFailure } from './errors.js'
import { bump, claim, renderInstance, type Walk } from './render.js'

/** Props of `<Collection of={Item} from="items" />`: `of`, `from`, and `Item`'s own props, passed to every item. */
export type CollectionProps<C extends AnyComponent = AnyComponent> = {
  of: C
  /** The parent state field holding the items array; each item needs a unique `id`. */
  from: string
  key?: string | number
} & ItemProps<C>

type ItemProps<C> = [PropsOf<C>] extends [never] ? NoProps : PropsOf<C>

// An element of the `from` array, as far as the Collection reads it.
type Element = { id?: unknown } | null | undefined

function expandCollection(walk: Walk, { of: Item, from, state: _ignored, ...props }: Record<string, unknown>, out: VNode[]): void {
  if (typeof Item !== 'function' || typeof from !== 'string') {
    throw new DuetError('INVALID_OPTION', '<Collection> needs of={Component} and from="<state field holding the items>"')
  }
  const list = bump(walk.counts, '\0collection')
  const items = (walk.state as Record<string, unknown> | undefined)?.[from]
  if (!Array.isArray(items)) return
  const parent = walk.inst
  const field = (): Element[] => (parent.get() as Record<string, Element[] | undefined> | undefined)?.[from] ?? []
  for (const item of items) {
    const id = item?.id
    if (id == null) {
      logFailure(`${parent.name}: <Collection from="${from}">: item without id skipped`, item)
      continue
    }
    // `of` is erased to any component: the tag's props were checked where it was written.
    const kid = claim(walk, `${list}:${String(id)}`, Item as AnyComponent, () => ({
      component: Item as AnyComponent,
      key: String(id),
      get: () => field().find((i) => i?.id === id),
      set: (v) =>
        parent.set({ ...(parent.get() as object), [from]: v === undefined ? field().filter((i) => i?.id !== id) : field().map((i) => (i?.id === id ? v : i)) }),
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
export const Collection: <C extends AnyComponent>(props: CollectionProps<C>) => VNode | null = Object.assign(
  // Never called: the renderer sees `duetExpand` and expands the tag in place.
  function Collection(_props: unknown): VNode | null {
    return null
  },
  { duetExpand: expandCollection },
)
