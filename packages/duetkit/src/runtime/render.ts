import type { VNode } from 'snabbdom'
import type { AnyComponent, ViewArgs } from './types.js'
import { DuetError, logFailure } from './errors.js'
import { componentName, type Instance } from './instance.js'
import { markerOf, type Lens, type MarkerData } from './markers.js'
import { HAS_DOM_EVENTS, HAS_SVG } from './omitted.js'

/** What rendering needs from the runtime (making and retiring child instances) and from the backend. */
export interface RenderContext {
  spawn(spec: SpawnSpec): Instance
  retire(inst: Instance): void
  /** The backend's `adopt`, for what components render inside `<svg>`. */
  adopt?(vnode: VNode): VNode
}

export interface SpawnSpec {
  component: AnyComponent
  key?: string
  get(): unknown
  set(state: unknown): void
  props: Record<string, unknown>
  children: VNode[]
}

/** One instance's render pass, as a tag that expands in place (`Collection`) sees it. */
export interface Walk {
  ctx: RenderContext
  inst: Instance
  state: unknown
  order: Instance[]
  counts: Map<string, number>
}

/**
 * Renders an instance and, recursively, the child components and Collections in its view. An
 * instance whose state (by reference) and props (shallowly) are unchanged, and that got no
 * children, returns its previous vnode: the patcher skips an identical vnode without diffing it, so a
 * long Collection where one item changed costs one item's render and patch.
 */
export function renderInstance(ctx: RenderContext, inst: Instance, state: unknown): VNode {
  if (inst.vnode && state === inst.lastState && !inst.children.length && sameProps(inst.props, inst.lastProps)) return inst.vnode
  const gen = ++inst.gen
  const walk: Walk = { ctx, inst, state, order: [], counts: new Map() }
  let root: VNode
  try {
    // The component's types are erased here: its view takes whatever state and props it declared.
    const out = inst.component({ state, props: inst.props, children: inst.children } as ViewArgs<never, never>) as unknown
    const list = expand(walk, Array.isArray(out) ? out : [out ?? { sel: '!', text: '' }])
    root = list.length === 1 ? list[0] : element('div', list)
  } catch (error) {
    logFailure(`${inst.name}: view threw; fallback shown`, error)
    root = {
      sel: 'div',
      data: { attrs: { role: 'alert', 'data-duet-error': inst.name } },
      text: `${inst.name} failed to render`,
      children: undefined,
      elm: undefined,
      key: undefined,
    }
  }
  // A view that returns a child component shares its root element; the scope lists both, inner first.
  // Only DOM events read the scope, so a build without them does not stamp it.
  if (HAS_DOM_EVENTS) {
    const data = (root.data ??= {})
    if (!data.scope?.includes(inst.id)) data.scope = data.scope ? [...data.scope, inst.id] : [inst.id]
  }
  for (const [slot, kid] of inst.kids) {
    if (kid.seen === gen) continue
    inst.kids.delete(slot)
    ctx.retire(kid)
  }
  inst.order = walk.order
  inst.vnode = root
  inst.lastState = state
  inst.lastProps = inst.props
  return root
}

// `svg`: the kids are inside an <svg>, so what components render there is adopted into SVG too.
function expand(walk: Walk, kids: VNode[], svg?: boolean): VNode[] {
  let out: VNode[] | undefined
  for (let i = 0; i < kids.length; i++) {
    const kid = kids[i]
    const marker = kid && markerOf(kid)
    if (!marker) {
      if (kid?.children) kid.children = expand(walk, kid.children as VNode[], HAS_SVG && !!kid.data?.ns && kid.sel !== 'foreignObject')
      out?.push(kid)
      continue
    }
    out ??= kids.slice(0, i)
    // A tag that expands itself (Collection) carries its code, so apps that never use it don't ship it.
    const expandTag = (marker.c as Partial<ExpandingTag>).duetExpand
    if (expandTag) expandTag(walk, marker.p, out)
    else {
      const v = renderChild(walk, marker, kid)
      if (v) out.push(v)
    }
  }
  const adopt = walk.ctx.adopt
  if (svg && out && adopt) for (let i = 0; i < out.length; i++) out[i] = adopt(out[i])
  return out ?? kids
}

function renderChild(walk: Walk, marker: MarkerData, vnode: VNode): VNode | undefined {
  const c = marker.c
  const name = componentName(c)
  const { state: spec, ...props } = marker.p
  const slot = vnode.key != null ? `${name}:k:${String(vnode.key)}` : `${name}#${bump(walk.counts, name)}`
  const lens = toLens(spec, name)
  const parent = walk.inst
  const read = (s: unknown) => lens.get(s) ?? c.initialState
  const kid = claim(walk, slot, c, () => ({
    component: c,
    get: () => read(parent.get()),
    set: (v) => parent.set(lens.set(parent.get(), v)),
    props,
    children: (vnode.children ?? []) as VNode[],
  }))
  if (!kid) return undefined
  kid.props = props
  kid.children = (vnode.children ?? []) as VNode[]
  const v = renderInstance(walk.ctx, kid, read(walk.state))
  if (vnode.key != null && v.key === undefined) v.key = vnode.key
  return v
}

/** A component tag the renderer replaces with the vnodes `duetExpand` appends to `out`. */
export interface ExpandingTag {
  duetExpand(walk: Walk, props: Record<string, unknown>, out: VNode[]): void
}

/** Finds or makes the child instance for a place in the view; undefined for a duplicate place. */
export function claim(walk: Walk, slot: string, c: AnyComponent, spec: () => SpawnSpec): Instance | undefined {
  const parent = walk.inst
  let kid = parent.kids.get(slot)
  if (kid && kid.seen === parent.gen) {
    logFailure(`${parent.name}: key ${slot} used twice; the second is not rendered`)
    return undefined
  }
  if (kid && kid.component !== c) {
    parent.kids.delete(slot)
    walk.ctx.retire(kid)
    kid = undefined
  }
  if (!kid) parent.kids.set(slot, (kid = walk.ctx.spawn(spec())))
  kid.seen = parent.gen
  walk.order.push(kid)
  return kid
}

function toLens(spec: unknown, name: string): Lens {
  if (spec === undefined) return { get: (s) => s, set: (_s, v) => v }
  if (typeof spec === 'string') return { get: (s) => (s as Record<string, unknown> | undefined)?.[spec], set: (s, v) => ({ ...(s as object), [spec]: v }) }
  if (spec && typeof (spec as Lens).get === 'function' && typeof (spec as Lens).set === 'function') return spec as Lens
  throw new DuetError('INVALID_OPTION', `<${name} state=…>: state must be a field name or a { get, set } lens`)
}

export function bump(counts: Map<string, number>, name: string): number {
  const n = counts.get(name) ?? 0
  counts.set(name, n + 1)
  return n
}

function element(sel: string, children: VNode[]): VNode {
  return { sel, data: {}, children, elm: undefined, text: undefined, key: undefined }
}

function sameProps(a: Record<string, unknown>, b: Record<string, unknown> | undefined): boolean {
  if (a === b) return true
  if (!b) return false
  let n = 0
  for (const k in a) {
    if (a[k] !== b[k]) return false
    n++
  }
  for (const _k in b) n--
  return n === 0
}
