import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { build } from 'vite'
import { duet } from 'duet/vite'

// Inside the workspace, so `xstream` resolves through node_modules as in a real project.
const cache = join(__dirname, '../../../../node_modules/.cache')
mkdirSync(cache, { recursive: true })
const dir = mkdtempSync(join(cache, 'duet-vite-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

// An entry that uses xstream and JSX, the two things the plugin changes.
writeFileSync(join(dir, 'entry.jsx'), [
  "import xs from 'xstream'",
  "xs.of(1).addListener({ next: (n) => { globalThis.__out = n } })",
  'export const view = <p className="x">hi</p>',
].join('\n'))

async function bundle(plugins: any[]): Promise<string> {
  const out: any = await build({
    root: dir,
    logLevel: 'silent',
    configFile: false,
    plugins,
    resolve: { alias: [{ find: /^duet\/jsx-runtime$/, replacement: join(__dirname, '../../src/jsx/jsx-runtime.ts') }] },
    build: { write: false, minify: true, lib: { entry: join(dir, 'entry.jsx'), formats: ['es'], fileName: 'out' } },
  })
  return out[0].output[0].code
}

describe('duet/vite', () => {
  it('compiles JSX with the Duet runtime and leaves the globalthis polyfill out', async () => {
    const withPlugin = await bundle([duet()])
    // Without the plugin JSX is configured by hand, so only the globalthis mapping differs.
    const without = await bundle([{ name: 'jsx', config: () => ({ oxc: { jsx: { runtime: 'automatic', importSource: 'duet' } } }) }])
    expect(withPlugin).toContain('className')
    // The polyfill package checks `typeof globalThis` against the environment; the shim does not.
    expect(without).toMatch(/implementation|getPolyfill/)
    expect(withPlugin.length).toBeLessThan(without.length - 1000)
  })
})
