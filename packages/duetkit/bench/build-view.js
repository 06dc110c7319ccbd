// How the benches build a view: one view folder into one HTML string, the way its users build it — a
// Duet view with the plugins of its own vite.config.js, or else `[duet(), viteSingleFile()]`; an
// official or hand-written one with `viteSingleFile()` alone. The figures of bench:mcp, its dialect
// part and bench:size all come from this one build.
import { build } from 'vite'
import { viteSingleFile } from 'vite-plugin-singlefile'
import { ownViewPlugins } from '../../../test/support/view-plugins.js'
import { duet } from '../dist/build/index.js'

/**
 * Builds `root` and returns its `index.html`. `withDuet: false` leaves out duet() (the anchors);
 * `plugins` run before the rest (a bench's stub or probe); `minify: false` keeps the script readable.
 */
export async function buildView(root, { withDuet = true, plugins = [], minify = true } = {}) {
  // A Duet view with a vite.config.js of its own (the examples, a view's duet({ omit })) is built with its plugins.
  const own = withDuet ? await ownViewPlugins(root) : undefined
  const out = await build({
    root,
    configFile: false,
    logLevel: 'silent',
    plugins: [...plugins, ...(own ?? [...(withDuet ? [duet()] : []), viteSingleFile()])],
    build: { write: false, minify },
  })
  const page = (Array.isArray(out) ? out : [out]).flatMap((o) => o.output).find((f) => f.fileName === 'index.html')
  if (page?.type !== 'asset') throw new Error(`buildView: vite produced no index.html for ${root}`)
  return String(page.source)
}
