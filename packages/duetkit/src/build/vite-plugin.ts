import { SHIMS } from './globalthis-shim.js'

const byId = new Map(Object.values(SHIMS).map((s) => [s.id, s.code]))

/** The Vite config the plugin adds; typed here so `duet` needs no Vite dependency. */
export interface DuetViteConfig {
  oxc: { jsx: { runtime: 'automatic'; importSource: string } }
  build?: { modulePreload: { polyfill: false } }
}

/** The parts of a Vite plugin this one uses. */
export interface DuetVitePlugin {
  name: string
  enforce: 'pre'
  config(user?: { build?: { modulePreload?: unknown } }): DuetViteConfig
  resolveId(id: string): string | undefined
  load(id: string): string | undefined
}

/**
 * Vite plugin for Duet views: compiles JSX with Duet's automatic runtime, maps xstream's
 * `globalthis` and `symbol-observable` imports to one-line shims (`SHIMS`), and leaves out Vite's `modulepreload` polyfill
 * (about 0.8 KB) unless the project configures `build.modulePreload` itself.
 *
 * @example
 * // vite.config.js
 * import { defineConfig } from 'vite'
 * import { viteSingleFile } from 'vite-plugin-singlefile'
 * import { duet } from 'duetkit/vite'
 * export default defineConfig({ plugins: [duet(), viteSingleFile()] })
 */
export function duet(): DuetVitePlugin {
  return {
    name: 'duet',
    enforce: 'pre',
    // The polyfill only speeds up preloads in old browsers, and a single-file view has no preload
    // links at all; a project that sets the option keeps its own choice.
    config: (user) => ({
      oxc: { jsx: { runtime: 'automatic', importSource: 'duetkit' } },
      ...(user?.build?.modulePreload === undefined ? { build: { modulePreload: { polyfill: false } } } : {}),
    }),
    resolveId: (id) => (Object.hasOwn(SHIMS, id) ? SHIMS[id].id : undefined),
    load: (id) => byId.get(id),
  }
}
