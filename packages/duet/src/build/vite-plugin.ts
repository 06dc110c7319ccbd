import { GLOBALTHIS_SHIM, GLOBALTHIS_SHIM_ID } from './globalthis-shim.js'

/** The parts of a Vite plugin this one uses, typed here so `duet` needs no Vite dependency. */
export interface DuetVitePlugin {
  name: string
  enforce: 'pre'
  config(): { oxc: { jsx: { runtime: 'automatic'; importSource: string } } }
  resolveId(id: string): string | undefined
  load(id: string): string | undefined
}

/**
 * Vite plugin for Duet views: compiles JSX with Duet's automatic runtime and keeps xstream's
 * `globalthis` polyfill out of the bundle.
 *
 * @example
 * // vite.config.js
 * import { defineConfig } from 'vite'
 * import { viteSingleFile } from 'vite-plugin-singlefile'
 * import { duet } from 'duet/vite'
 * export default defineConfig({ plugins: [duet(), viteSingleFile()] })
 */
export function duet(): DuetVitePlugin {
  return {
    name: 'duet',
    enforce: 'pre',
    config: () => ({ oxc: { jsx: { runtime: 'automatic', importSource: 'duet' } } }),
    resolveId: (id) => (id === 'globalthis' ? GLOBALTHIS_SHIM_ID : undefined),
    load: (id) => (id === GLOBALTHIS_SHIM_ID ? GLOBALTHIS_SHIM : undefined),
  }
}
