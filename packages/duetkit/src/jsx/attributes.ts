// The attributes JSX elements take, as types only. An HTML element's props are its writable DOM
// properties of primitive type, read from TypeScript's own DOM declarations (the JSX runtime sets
// every such prop as a DOM property, so the two agree by construction), plus what the runtime handles
// itself: `class`, `style`, `data`, `aria-*`, `data-*`, `attrs`, `hook`, `key`. No `on*` prop exists:
// events are read in the intent. SVG props are attributes, so they come from a table of their own.
import type { Hooks, VNode } from 'snabbdom'

export type Key = string | number

/** What may stand between tags: elements, text and numbers; `null`, `undefined` and booleans render nothing. */
export type Child = VNode | string | number | bigint | boolean | null | undefined | readonly Child[]

/** A value a DOM property or an attribute takes. */
type Primitive = string | number | boolean | bigint | null | undefined

/** Inline styles as an object: CSS properties in camelCase, and custom properties (`'--accent'`), as strings. */
export type StyleProps = {
  [K in keyof CSSStyleDeclaration as K extends string ? (CSSStyleDeclaration[K] extends string ? K : never) : never]?: string
} & { [custom: `--${string}`]: string | undefined }

/** `data={{ fooBar: 1 }}` becomes `data-foo-bar="1"`; `null` and `undefined` entries are left out. */
export type DataProps = Record<string, string | number | boolean | null | undefined>

/** What every element takes, HTML or SVG: the props the JSX runtime handles itself. */
export interface DuetAttributes {
  key?: Key
  children?: Child
  /** Class names as a string, or `{ name: on }` toggles. */
  class?: string | Record<string, boolean>
  className?: string
  style?: StyleProps
  data?: DataProps
  /** Set as attributes rather than DOM properties. */
  attrs?: Record<string, string | number | boolean>
  /** snabbdom lifecycle hooks, for what only the element itself can do (focus it, measure it). */
  hook?: Hooks
  id?: string
  role?: string
  /** The `tabindex` attribute (`tabIndex` is the DOM property; both work). */
  tabindex?: number | string
  /** Booleans are written `"true"`/`"false"`. */
  [aria: `aria-${string}`]: Primitive
  [data: `data-${string}`]: Primitive
}

// Property K of T is writable when making it mutable does not change the type.
type IfWritable<T, K extends keyof T> =
  (<U>() => U extends { [Q in K]: T[K] } ? 1 : 2) extends <U>() => U extends { -readonly [Q in K]: T[K] } ? 1 : 2 ? K : never

// Raw HTML and text would bypass the vnode tree (and escaping); children and the runtime's own props cover the rest.
type Excluded = 'innerHTML' | 'outerHTML' | 'innerText' | 'outerText' | 'textContent' | 'nodeValue' | keyof DuetAttributes

type DomPropName<E> = {
  [K in keyof E]-?: K extends string ? (K extends `on${string}` | Excluded ? never : E[K] extends Primitive ? IfWritable<E, K> : never) : never
}[keyof E]

/** The writable, primitive-typed DOM properties of element `E`, each optional. */
export type DomProps<E> = { [K in DomPropName<E>]?: E[K] }

/** An HTML element's props: its DOM properties and the runtime's own. */
export type HtmlProps<E> = DuetAttributes & DomProps<E> & (E extends HTMLLabelElement | HTMLOutputElement ? { for?: string } : unknown)

/** Every HTML tag TypeScript's DOM declarations know. */
export type HtmlElements = { [K in keyof HTMLElementTagNameMap]: HtmlProps<HTMLElementTagNameMap[K]> }

type SvgValue = string | number

/** Attributes every SVG element takes: presentation attributes, by their attribute names. */
export interface SvgAttributes extends DuetAttributes {
  fill?: string
  'fill-opacity'?: SvgValue
  'fill-rule'?: 'nonzero' | 'evenodd' | 'inherit'
  stroke?: string
  'stroke-width'?: SvgValue
  'stroke-linecap'?: 'butt' | 'round' | 'square' | 'inherit'
  'stroke-linejoin'?: 'miter' | 'round' | 'bevel' | 'arcs' | 'miter-clip' | 'inherit'
  'stroke-dasharray'?: SvgValue
  'stroke-dashoffset'?: SvgValue
  'stroke-opacity'?: SvgValue
  'stroke-miterlimit'?: SvgValue
  opacity?: SvgValue
  transform?: string
  'transform-origin'?: string
  'clip-path'?: string
  'clip-rule'?: 'nonzero' | 'evenodd' | 'inherit'
  mask?: string
  filter?: string
  color?: string
  display?: string
  visibility?: string
  cursor?: string
  'pointer-events'?: string
  'vector-effect'?: string
  'shape-rendering'?: string
  'font-family'?: string
  'font-size'?: SvgValue
  'font-weight'?: SvgValue
  'text-anchor'?: 'start' | 'middle' | 'end'
  'dominant-baseline'?: string
  'stop-color'?: string
  'stop-opacity'?: SvgValue
  'marker-start'?: string
  'marker-mid'?: string
  'marker-end'?: string
  lang?: string
}

interface Box {
  x?: SvgValue
  y?: SvgValue
  width?: SvgValue
  height?: SvgValue
}

interface Viewport {
  viewBox?: string
  preserveAspectRatio?: string
}

interface Gradient {
  gradientUnits?: 'userSpaceOnUse' | 'objectBoundingBox'
  gradientTransform?: string
  spreadMethod?: 'pad' | 'reflect' | 'repeat'
  href?: string
}

/** SVG tags and their attributes (tags HTML shares — `a`, `script`, `style`, `title` — keep their HTML props). */
export interface SvgElements {
  svg: SvgAttributes & Box & Viewport & { xmlns?: string }
  g: SvgAttributes
  defs: SvgAttributes
  desc: SvgAttributes
  symbol: SvgAttributes & Box & Viewport
  use: SvgAttributes & Box & { href?: string }
  image: SvgAttributes & Box & { href?: string; preserveAspectRatio?: string }
  path: SvgAttributes & { d?: string; pathLength?: SvgValue }
  circle: SvgAttributes & { cx?: SvgValue; cy?: SvgValue; r?: SvgValue; pathLength?: SvgValue }
  ellipse: SvgAttributes & { cx?: SvgValue; cy?: SvgValue; rx?: SvgValue; ry?: SvgValue }
  line: SvgAttributes & { x1?: SvgValue; y1?: SvgValue; x2?: SvgValue; y2?: SvgValue; pathLength?: SvgValue }
  polyline: SvgAttributes & { points?: string }
  polygon: SvgAttributes & { points?: string }
  rect: SvgAttributes & Box & { rx?: SvgValue; ry?: SvgValue }
  text: SvgAttributes & {
    x?: SvgValue
    y?: SvgValue
    dx?: SvgValue
    dy?: SvgValue
    rotate?: string
    textLength?: SvgValue
    lengthAdjust?: 'spacing' | 'spacingAndGlyphs'
  }
  tspan: SvgAttributes & { x?: SvgValue; y?: SvgValue; dx?: SvgValue; dy?: SvgValue; rotate?: string; textLength?: SvgValue }
  textPath: SvgAttributes & { href?: string; startOffset?: SvgValue }
  linearGradient: SvgAttributes & Gradient & { x1?: SvgValue; y1?: SvgValue; x2?: SvgValue; y2?: SvgValue }
  radialGradient: SvgAttributes & Gradient & { cx?: SvgValue; cy?: SvgValue; r?: SvgValue; fx?: SvgValue; fy?: SvgValue; fr?: SvgValue }
  stop: SvgAttributes & { offset?: SvgValue }
  clipPath: SvgAttributes & { clipPathUnits?: 'userSpaceOnUse' | 'objectBoundingBox' }
  mask: SvgAttributes & Box & { maskUnits?: 'userSpaceOnUse' | 'objectBoundingBox'; maskContentUnits?: 'userSpaceOnUse' | 'objectBoundingBox' }
  pattern: SvgAttributes &
    Box &
    Viewport & {
      patternUnits?: 'userSpaceOnUse' | 'objectBoundingBox'
      patternContentUnits?: 'userSpaceOnUse' | 'objectBoundingBox'
      patternTransform?: string
    }
  marker: SvgAttributes &
    Viewport & {
      refX?: SvgValue
      refY?: SvgValue
      markerWidth?: SvgValue
      markerHeight?: SvgValue
      markerUnits?: 'strokeWidth' | 'userSpaceOnUse'
      orient?: string
    }
  foreignObject: SvgAttributes & Box
}
