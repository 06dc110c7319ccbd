import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { build } from 'vite'
import { duet } from 'duetkit/vite'

// Inside the workspace, so `xstream` resolves through node_modules as in a real project.
const cache = join(__dirname, '../../../../node_modules/.cache')
mkdirSync(cache, { recursive: true })
const dir = mkdtempSync(join(cache, 'duet-vite-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

// An entry that uses xstream and JSX, the two things the plugin changes.
writeFileSync(
  join(dir, 'entry.jsx'),
  [
    "import xs from 'xstream'",
    'xs.of(1).addListener({ next: (n) => { globalThis.__out = n } })',
    // Interop through Symbol.observable, which the symbol-observable shim must still register.
    'const foreign = { [Symbol.observable]: () => ({ subscribe(o) { o.next(5); o.complete(); return { unsubscribe() {} } } }) }',
    'xs.from(foreign).addListener({ next: (n) => { globalThis.__interop = n } })',
    'const two = xs.of(2)',
    'globalThis.__self = two[Symbol.observable]() === two',
    'export const view = <p className="x">hi</p>',
  ].join('\n'),
)

// One in-memory, minified Vite build of the fixture folder, with `duetkit/jsx-runtime` taken from source.
const viteBuild = (plugins: any[], build$: Record<string, unknown>): Promise<any> =>
  build({
    root: dir,
    logLevel: 'silent',
    configFile: false,
    plugins,
    resolve: { alias: [{ find: /^duetkit\/jsx-runtime$/, replacement: join(__dirname, '../../src/jsx/jsx-runtime.ts') }] },
    build: { write: false, minify: true, ...build$ },
  })

async function bundle(plugins: any[]): Promise<string> {
  const out = await viteBuild(plugins, { lib: { entry: join(dir, 'entry.jsx'), formats: ['es'], fileName: 'out' } })
  return out[0].output[0].code
}

describe('duetkit/vite', () => {
  it('compiles JSX with the Duet runtime and leaves the globalthis polyfill out', async () => {
    const withPlugin = await bundle([duet()])
    // Without the plugin JSX is configured by hand, so only the globalthis mapping differs.
    const without = await bundle([{ name: 'jsx', config: () => ({ oxc: { jsx: { runtime: 'automatic', importSource: 'duetkit' } } }) }])
    expect(withPlugin).toContain('className')
    // The polyfill package checks `typeof globalThis` against the environment; the shim does not.
    expect(without).toMatch(/implementation|getPolyfill/)
    expect(withPlugin.length).toBeLessThan(without.length - 1000)
    // symbol-observable's fallback for engines without Symbol is gone with the shim.
    expect(without).toContain('@@observable')
    expect(withPlugin).not.toContain('@@observable')
  })

  it('builds code that still runs: the shims keep xstream and its Symbol.observable interop working', async () => {
    const file = join(dir, 'built.mjs')
    writeFileSync(file, await bundle([duet()]))
    const g = globalThis as any
    delete g.__out
    delete g.__interop
    await import(pathToFileURL(file).href)
    expect([g.__out, g.__interop, g.__self]).toEqual([1, 5, true])
    expect(typeof (Symbol as any).observable).toBe('symbol')
  })
})

describe('duetkit/vite config', () => {
  it("leaves out Vite's modulepreload polyfill unless the project sets build.modulePreload", async () => {
    writeFileSync(join(dir, 'index.html'), '<!doctype html><div id="root"></div><script type="module" src="./entry.jsx"></script>')
    const page = async (plugins: any[], modulePreload?: any) => {
      const out = await viteBuild(plugins, modulePreload === undefined ? {} : { modulePreload })
      return out.output
        .filter((f: any) => f.fileName.endsWith('.js'))
        .map((f: any) => f.code)
        .join('\n')
    }
    expect(await page([duet()])).not.toContain('modulepreload')
    // Vite's default, with the plugin's JSX settings given by hand, has it; a project's own setting wins over the plugin.
    const jsxOnly = { name: 'jsx', config: () => ({ oxc: { jsx: { runtime: 'automatic', importSource: 'duetkit' } } }) }
    expect(await page([jsxOnly])).toContain('modulepreload')
    expect(await page([duet()], { polyfill: true })).toContain('modulepreload')
  })
})
