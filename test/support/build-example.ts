import { fileURLToPath } from 'node:url'
import { build, type Rolldown } from 'vite'
import { duetkitAliases } from './duetkit-aliases.js'

/**
 * Builds `examples/<name>` with its own vite config (duet() and vite-plugin-singlefile), with the
 * `duetkit` imports resolved to the library's source so a test never runs against a stale dist.
 * Returns the one self-contained HTML file.
 */
export async function buildExample(name: 'forecast' | 'reader'): Promise<string> {
  const root = fileURLToPath(new URL(`../../examples/${name}/`, import.meta.url))
  const out = await build({
    root,
    configFile: `${root}vite.config.js`,
    logLevel: 'silent',
    resolve: { alias: duetkitAliases },
    build: { write: false },
  })
  const outputs = (Array.isArray(out) ? out : [out]) as Rolldown.RolldownOutput[]
  const page = outputs.flatMap((o) => o.output).find((f) => f.fileName === 'index.html')
  if (page?.type !== 'asset') throw new Error(`buildExample: vite produced no index.html for examples/${name}`)
  return String(page.source)
}
