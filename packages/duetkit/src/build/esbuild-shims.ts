import { SHIMS } from './globalthis-shim.js'
import { omitDefines } from './omit.js'
import type { DuetOptions } from './vite-plugin.js'

/**
 * The part of esbuild's `Plugin` this plugin uses, written out so duetkit does not depend on
 * esbuild (a view never needs it); esbuild accepts it as a `Plugin`.
 */
export interface EsbuildPlugin {
  name: string
  setup(build: {
    initialOptions: { define?: Record<string, string> }
    onResolve(options: { filter: RegExp }, callback: (args: { path: string }) => { path: string; namespace: string }): void
    onLoad(options: { filter: RegExp; namespace: string }, callback: (args: { path: string }) => { contents: string; loader: 'js' }): void
  }): void
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
const SPECIFIERS = new RegExp(`^(${Object.keys(SHIMS).map(escapeRegExp).join('|')})$`)

/**
 * The swaps `duet/vite` makes, for esbuild: xstream's polyfills replaced by the one-line shims, and
 * `omit`'s flags defined as `duet({ omit })` defines them (the build's own `define` entries win).
 */
export function duetShims(options: DuetOptions = {}): EsbuildPlugin {
  const define = omitDefines(options?.omit)
  return {
    name: 'duet-shims',
    setup(b) {
      b.initialOptions.define = { ...define, ...b.initialOptions.define }
      b.onResolve({ filter: SPECIFIERS }, (args) => ({ path: args.path, namespace: 'duet-shim' }))
      b.onLoad({ filter: /.*/, namespace: 'duet-shim' }, (args) => ({ contents: SHIMS[args.path]!.code, loader: 'js' }))
    },
  }
}
