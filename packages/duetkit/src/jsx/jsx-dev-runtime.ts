import type { VNode } from 'snabbdom'
import { jsx, type JsxTag } from './jsx-runtime.js'
import type { Key } from './attributes.js'

export { Fragment, type JSX } from './jsx-runtime.js'

/** The development JSX entry; source locations are not used, so it is the production `jsx`. */
export function jsxDEV(type: JsxTag, props: Record<string, unknown> | null, key?: Key): VNode {
  return jsx(type, props, key)
}
