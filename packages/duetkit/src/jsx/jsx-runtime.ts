import type { VNode, VNodeData } from 'snabbdom'
import { DuetError } from '../runtime/errors.js'
import { componentMarker } from '../runtime/markers.js'
import { adoptSvg } from './svg.js'
import { HAS_HOOKS, HAS_SVG, omittedError } from '../runtime/omitted.js'
import type { AnyComponent, ViewArgs } from '../runtime/types.js'
import type { Lens } from '../runtime/markers.js'
import type { Child, HtmlElements, Key, SvgElements } from './attributes.js'

export type { Child, DataProps, DomProps, DuetAttributes, HtmlProps, Key, StyleProps, SvgAttributes } from './attributes.js'

/** What a JSX tag may be: an element name, a component, `Collection` or `Fragment`. */
export type JsxTag = string | ((props: never) => VNode | VNode[] | null)

/**
 * The automatic JSX runtime (`jsxImportSource: 'duetkit'`). Elements become snabbdom vnodes:
 * `className`/`class` (string) and `id` → DOM properties, `class` (object) → class module,
 * `style` (object) → style, `data={{ fooBar: 1 }}` and `data-*` → `data-foo-bar` attributes,
 * `aria-*`/`role`/`for`/`tabindex` → attributes (aria booleans written `"true"`/`"false"`),
 * `attrs={{…}}` → attributes, every other prop → a DOM property (`value`, `checked`, `disabled`,
 * `type`, …). Inside `<svg>` every prop is an attribute, in the SVG namespace. `null`,
 * `undefined`, `true` and `false` children are skipped; numbers become text.
 *
 * An `on*` prop throws `INLINE_HANDLER`: events are read in the component's `intent` with
 * `DOM.click(selector)` so that every user action becomes a named, testable action.
 */
export function jsx(type: JsxTag, props: Record<string, unknown> | null, key?: Key): VNode {
  const { children, ...rest }: Record<string, any> = props ?? {}
  const kids = normalizeChildren(children)
  if (type === Fragment) return kids as unknown as VNode
  if (typeof type === 'function') return componentMarker(type as AnyComponent, rest, kids, key ?? rest.key)
  return element(String(type), rest, kids, key ?? rest.key)
}

export const jsxs = jsx

/** Groups children without a wrapping element; a view that returns one is wrapped in a `div`. */
export function Fragment(props: { children?: unknown }): VNode[] {
  return normalizeChildren(props.children)
}

// `onClick`, `onInput`…: a handler prop, which Duet does not have (`one`, `only` are ordinary props).
const INLINE_HANDLER = /^on[A-Z]/

function element(tag: string, props: Record<string, any>, kids: VNode[], key: unknown): VNode {
  const data: VNodeData = {}
  for (const name in props) {
    const value = props[name]
    if (name === 'key') continue
    if (INLINE_HANDLER.test(name)) {
      throw new DuetError('INLINE_HANDLER', `<${tag} ${name}>: no inline handlers; read events in the intent: DOM.${name.slice(2).toLowerCase()}('selector')`)
    }
    if (name === 'className' || (name === 'class' && typeof value === 'string')) {
      if (value != null && value !== false) (data.props ??= {}).className = value
    } else if (name === 'class') {
      data.class = value
    } else if (name === 'style') {
      if (value) data.style = value
    } else if (name === 'data') {
      // Attributes, not snabbdom's dataset module: one module less in every bundle, same DOM.
      for (const k in value) if (value[k] != null) (data.attrs ??= {})[`data-${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`] = String(value[k])
    } else if (name === 'attrs') {
      data.attrs = { ...data.attrs, ...value }
    } else if (name.startsWith('aria-')) {
      if (value != null) (data.attrs ??= {})[name] = typeof value === 'boolean' ? String(value) : value
    } else if (name === 'role' || name === 'for' || name === 'tabindex' || name.startsWith('data-')) {
      if (value != null && value !== false) (data.attrs ??= {})[name] = value
    } else if (name === 'htmlFor') {
      if (value != null) (data.attrs ??= {}).for = value
    } else if (name === 'hook') {
      if (!HAS_HOOKS) throw omittedError('hooks')
      data.hook = value
    } else {
      ;(data.props ??= {})[name] = value
    }
  }
  const vnode: VNode = { sel: tag, data, children: kids, elm: undefined, text: undefined, key: key as any }
  // One text child is stored as `text`, the cheapest form to create and patch (dom/patch.ts).
  if (kids.length === 1 && kids[0].sel === undefined && kids[0].text !== undefined) {
    vnode.text = kids[0].text
    vnode.children = undefined
  }
  if (tag !== 'svg') return vnode
  if (!HAS_SVG) throw omittedError('svg')
  return adoptSvg(vnode)
}

/** Flattens arrays and fragments, drops empty values and turns strings and numbers into text vnodes. */
export function normalizeChildren(children: unknown, out: VNode[] = []): VNode[] {
  if (children == null || typeof children === 'boolean') return out
  if (Array.isArray(children)) {
    for (const child of children) normalizeChildren(child, out)
  } else if (typeof children === 'object') {
    out.push(children as VNode)
  } else {
    out.push({ sel: undefined, data: undefined, children: undefined, elm: undefined, text: String(children), key: undefined })
  }
  return out
}

/**
 * A component tag's props: the component's own, plus where its state lives in the parent's (`state`: a
 * field name or a `{ get, set }` lens; default the parent's whole state), `key`, and children.
 */
export type ComponentTagProps<S, P> = P & {
  state?: string | Lens<unknown, S>
  key?: Key
  children?: Child
}

// A view whose argument is typed `any` declared no props; its tag takes anything.
type IsAny<T> = 0 extends 1 & T ? true : false

export namespace JSX {
  export type Element = VNode
  /** Element names, components (whatever they render, or nothing), `Collection` and `Fragment`. */
  export type ElementType = keyof IntrinsicElements | ((props: never) => VNode | VNode[] | null)
  export interface ElementChildrenAttribute {
    children: unknown
  }
  export interface IntrinsicAttributes {
    key?: Key
  }
  /** HTML elements with their DOM properties, and SVG elements with their attributes; no `on*` handlers. */
  export interface IntrinsicElements extends HtmlElements, SvgElements {}
  /** A component tag takes `ComponentTagProps` of the component's state and props; another function tag takes its own props. */
  export type LibraryManagedAttributes<_C, P> = IsAny<P> extends true ? P : P extends ViewArgs<infer S, infer Props> ? ComponentTagProps<S, Props> : P
}
