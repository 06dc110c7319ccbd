import { SHIMS } from './globalthis-shim.js'
import { omitDefines, type OmittablePart } from './omit.js'

const byId = new Map(Object.values(SHIMS).map((s) => [s.id, s.code]))

/** The Vite config the plugin adds; typed here so `duet` needs no Vite dependency. */
export interface DuetViteConfig {
  oxc: { jsx: { runtime: 'automatic'; importSource: string } }
  build?: { modulePreload: { polyfill: false } }
  define: Record<string, string>
}

export interface DuetOptions {
  /**
   * Parts of duetkit this view does not use, left out of its bundle: `'dom-events'`, `'mcp-sinks'`,
   * `'host-theme'`, `'svg'`, `'hooks'` (see `OMITTABLE`). A view that uses an omitted part anyway gets an
   * `UNSUPPORTED` error naming it.
   * Default: none.
   */
  omit?: readonly OmittablePart[]
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
 * (about 0.8 KB) unless the project configures `build.modulePreload` itself. With `omit`, the parts
 * of duetkit the view does not use are left out of its bundle (compile-time flags, as Vite `define`s).
 *
 * @example
 * // vite.config.js
 * import { defineConfig } from 'vite'
 * import { viteSingleFile } from 'vite-plugin-singlefile'
 * import { duet } from 'duetkit/vite'
 * export default defineConfig({ plugins: [duet(), viteSingleFile()] })
 * // a view that only shows what the host sends: duet({ omit: ['dom-events', 'mcp-sinks', 'host-theme', 'svg', 'hooks'] })
 */
export function duet(options: DuetOptions = {}): DuetVitePlugin {
  // Checked when the config is read, so a misspelt part fails the build instead of being ignored.
  const define = omitDefines(options?.omit)
  return {
    name: 'duet',
    enforce: 'pre',
    // The polyfill only speeds up preloads in old browsers, and a single-file view has no preload
    // links at all; a project that sets the option keeps its own choice.
    config: (user) => ({
      oxc: { jsx: { runtime: 'automatic', importSource: 'duetkit' } },
      ...(user?.build?.modulePreload === undefined ? { build: { modulePreload: { polyfill: false } } } : {}),
      define,
    }),
    resolveId: (id) => (Object.hasOwn(SHIMS, id) ? SHIMS[id].id : undefined),
    load: (id) => byId.get(id),
  }
}
