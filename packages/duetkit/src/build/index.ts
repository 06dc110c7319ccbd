/** @module duetkit/vite */
export { duet } from './vite-plugin.js'
export type { DuetVitePlugin, DuetViteConfig, DuetOptions } from './vite-plugin.js'
export { OMITTABLE } from './omit.js'
export type { OmittablePart } from './omit.js'
export { GLOBALTHIS_SHIM, GLOBALTHIS_SHIM_ID, SYMBOL_OBSERVABLE_SHIM, SHIMS } from './globalthis-shim.js'
export { duetShims } from './esbuild-shims.js'
export type { EsbuildPlugin } from './esbuild-shims.js'
