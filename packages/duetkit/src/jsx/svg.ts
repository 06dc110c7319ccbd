import type { VNode } from 'snabbdom'
import { markerOf } from '../runtime/markers.js'

const SVG_NS = 'http://www.w3.org/2000/svg'

/**
 * Puts an `<svg>` subtree in the SVG namespace and turns its props into attributes: SVG elements
 * have no writable DOM property for most attributes (`d`, `viewBox`, `class`). Stops at
 * `<foreignObject>`, whose content is HTML again, and at component tags, which the renderer adopts
 * once they have rendered. Adopting a node twice changes nothing.
 */
export function adoptSvg(v: VNode): VNode {
  const d = v.data
  if (d && !d.ns && !markerOf(v)) {
    d.ns = SVG_NS
    if (d.props) {
      const { className, htmlFor, ...rest } = d.props
      d.attrs = { ...rest, ...d.attrs }
      if (className != null) d.attrs.class = className
      if (htmlFor != null) d.attrs.for = htmlFor
      d.props = undefined
    }
    if (v.sel !== 'foreignObject') for (const kid of (v.children ?? []) as VNode[]) adoptSvg(kid)
  }
  return v
}
