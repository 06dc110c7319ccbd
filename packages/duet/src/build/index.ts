/** @module duet/vite — build helpers for Duet views. */
export { duet } from './vite-plugin.js'
export type { DuetVitePlugin } from './vite-plugin.js'
export { GLOBALTHIS_SHIM, GLOBALTHIS_SHIM_ID } from './globalthis-shim.js'
