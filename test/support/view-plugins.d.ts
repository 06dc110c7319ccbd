import type { PluginOption } from 'vite'

/** The plugins of `root`'s own `vite.config.js`, or undefined when it has none. */
export function ownViewPlugins(root: string): Promise<PluginOption[] | undefined>
