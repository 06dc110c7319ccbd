// Benches reuse the test suite's helpers (Chromium launcher, AppBridge host page, e2e harness), which
// are TypeScript: bundle the requested exports for Node, import them, and delete the bundle.
import { readFileSync, rmSync } from 'node:fs'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { build } from 'esbuild'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))

// The helpers find their fixtures through import.meta.url, so each file keeps its own URL in the bundle.
const ownUrl = {
  name: 'own-import-meta-url',
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, (args) => ({
      contents: readFileSync(args.path, 'utf8').replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)),
      loader: 'ts',
    }))
  },
}

/** `exports` is module source relative to the repository root, e.g. "export { launchBrowser } from './test/support/browser.ts'". */
export async function loadTestHelpers(exports) {
  const outfile = fileURLToPath(new URL(`./.test-helpers-${process.pid}-${Date.now()}.mjs`, import.meta.url))
  await build({
    stdin: { contents: exports, resolveDir: ROOT, loader: 'ts' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    outfile,
    logLevel: 'silent',
    plugins: [ownUrl],
  })
  try {
    return await import(pathToFileURL(outfile).href)
  } finally {
    rmSync(outfile, { force: true })
  }
}
