import type { Plugin } from 'esbuild'
import { SHIMS } from './globalthis-shim.js'

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
const SPECIFIERS = new RegExp(`^(${Object.keys(SHIMS).map(escape).join('|')})$`)

/** The swaps `duet/vite` makes, for esbuild: xstream's polyfills replaced by the one-line shims. */
export function duetShims(): Plugin {
  return {
    name: 'duet-shims',
    setup(b) {
      b.onResolve({ filter: SPECIFIERS }, (args) => ({ path: args.path, namespace: 'duet-shim' }))
      b.onLoad({ filter: /.*/, namespace: 'duet-shim' }, (args) => ({ contents: SHIMS[args.path]!.code, loader: 'js' }))
    },
  }
}
