import { fileURLToPath } from 'node:url'
import { build, type Rolldown } from 'vite'

const src = (p: string) => fileURLToPath(new URL(`../../../src/${p}`, import.meta.url))
const ROOT = fileURLToPath(new URL('../../../../../examples/forecast/', import.meta.url))

/**
 * Builds examples/forecast with its own vite config (vite-plugin-singlefile), `duet` resolved to
 * the library's source so the test never runs against a stale dist. Returns the one HTML file.
 */
export async function buildForecast(): Promise<string> {
  const out = await build({
    root: ROOT,
    configFile: `${ROOT}vite.config.js`,
    logLevel: 'silent',
    resolve: {
      alias: [
        { find: /^duet\/jsx-runtime$/, replacement: src('jsx/jsx-runtime.ts') },
        { find: /^duet\/jsx-dev-runtime$/, replacement: src('jsx/jsx-dev-runtime.ts') },
        { find: /^duet\/mcp$/, replacement: src('mcp/index.ts') },
        { find: /^duet$/, replacement: src('index.ts') },
      ],
    },
    build: { write: false },
  })
  const outputs = (Array.isArray(out) ? out : [out]) as Rolldown.RolldownOutput[]
  const page = outputs.flatMap((o) => o.output).find((f) => f.fileName === 'index.html')
  if (!page || page.type !== 'asset') throw new Error('buildForecast: vite produced no index.html')
  return String(page.source)
}
