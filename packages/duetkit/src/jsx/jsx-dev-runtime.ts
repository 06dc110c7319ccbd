import type { VNode } from 'snabbdom'
import { jsx } from './jsx-runtime.js'

export { Fragment, type JSX } from './jsx-runtime.js'

/** The development JSX entry; source locations are not used, so it is the production `jsx`. */
export function jsxDEV(type: any, props: Record<string, any> | null, key?: string | number): VNode {
  return jsx(type, props, key)
}
