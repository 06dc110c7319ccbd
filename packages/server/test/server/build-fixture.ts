import { mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { duetkitSources } from '../../../../test/support/duetkit-aliases.js'

const root = fileURLToPath(new URL('../../../../', import.meta.url))
const src = fileURLToPath(new URL('../../src/', import.meta.url))

/**
 * Bundles a TypeScript entry (a fixture, or the CLI) from source into one ESM file a child `node` can run,
 * so process tests never depend on a stale or half-built `dist`. Dependencies stay external and resolve
 * from the workspace's node_modules, which is why the output lives under it.
 */
export async function bundle(entry: string, name: string): Promise<string> {
  const outdir = `${root}node_modules/.cache/duet-server-test`
  mkdirSync(outdir, { recursive: true })
  const outfile = `${outdir}/${name}-${process.pid}.mjs`
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    alias: { ...duetkitSources, '@duetkit/server': `${src}index.ts` },
    logLevel: 'silent',
  })
  return outfile
}
