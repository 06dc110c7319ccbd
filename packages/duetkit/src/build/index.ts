/** @module duetkit/vite */
export { duet } from './vite-plugin.js'
export type { DuetVitePlugin, DuetViteConfig } from './vite-plugin.js'
export { GLOBALTHIS_SHIM, GLOBALTHIS_SHIM_ID, SYMBOL_OBSERVABLE_SHIM, SHIMS } from './globalthis-shim.js'
export { duetShims } from './esbuild-shims.js'
export type { EsbuildPlugin } from './esbuild-shims.js'
