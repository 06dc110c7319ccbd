import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

/**
 * Bundles the host page's script with esbuild. From source the entry is `page/main.ts`; from the
 * built package it is tsc's `page/main.js` next to this file, so `duet dev` works from `dist/`.
 */
export async function bundleHostPage(): Promise<string> {
  const ts = fileURLToPath(new URL('./page/main.ts', import.meta.url))
  const entry = existsSync(ts) ? ts : fileURLToPath(new URL('./page/main.js', import.meta.url))
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    // Minified without a source map: the page is a tool, and an inline map would make it megabytes.
    minify: true,
    logLevel: 'silent',
  })
  return result.outputFiles[0].text
}
