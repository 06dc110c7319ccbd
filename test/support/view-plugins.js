// A view folder is built with the plugins of its own vite.config.js when it has one (e.g. its
// `duet({ omit })`), as its users build it. Plain JavaScript, so the benches (Node) and the size budget
// test (Vitest, where `duetkit/vite` resolves to source) read the config the same way.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

/** The plugins of `root`'s own `vite.config.js`, or undefined when it has none. */
export async function ownViewPlugins(root) {
  const file = join(root, 'vite.config.js')
  return existsSync(file) ? (await import(pathToFileURL(file).href)).default.plugins : undefined
}
