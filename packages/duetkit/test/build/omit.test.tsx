// @vitest-environment happy-dom
// duet({ omit }) on real Vite builds: a part left out is gone from the bundle, and a view that uses it
// anyway is told which part and which option, while the same view built without `omit` works.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { build } from 'vite'
import { build as esbuild } from 'esbuild'
import { duet, duetShims, OMITTABLE } from 'duetkit/vite'
import { fakeHost, until } from '../mcp/fake-host.js'
import { OMIT_MARKS } from './omit-marks.js'
import { duetkitAliases, duetkitSources } from '../../../../test/support/duetkit-aliases.js'
// The docs' sample config (guide/mcp-driver.md): its duet() leaves out every part.
import sample from '../../../../docs/samples/lean/vite.config.js'

const leftOut = (part: string) => `${part}: left out of this build by duet({ omit: ['${part}'] })`

// Inside the workspace, so `xstream` resolves through node_modules as in a real project.
const cache = join(__dirname, '../../../../node_modules/.cache')
mkdirSync(cache, { recursive: true })
const dir = mkdtempSync(join(cache, 'duet-omit-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

// One view module that uses every part `omit` can leave out.
writeFileSync(
  join(dir, 'entry.jsx'),
  `import { run } from 'duetkit'
import { makeLeanMcpAppDriver } from 'duetkit/mcp'
export { run, makeLeanMcpAppDriver }
export const drawing = () => <svg viewBox="0 0 2 2"><circle r="1" /></svg>
export const hooked = () => <p hook={{ insert() {} }}>x</p>
export function Clicker({ state }) { return <button className="b">{state.n}</button> }
Clicker.initialState = { n: 0 }
Clicker.intent = ({ DOM }) => ({ CLICK: DOM.click('.b') })
Clicker.model = { CLICK: (s) => ({ n: s.n + 1 }) }
export function Caller({ state }) { return <div><p className="said">{state.said}</p><p className="theme">{state.theme}</p></div> }
Caller.initialState = { said: '', theme: '' }
Caller.intent = ({ MCP }) => ({ GO: MCP.select('tool-input'), CONTEXT: MCP.select('host-context-changed') })
Caller.model = {
  CONTEXT: (s, c) => ({ ...s, theme: c.theme }),
  GO: { MCP: () => ({ callTool: 'echo', args: {}, ok: 'DONE', error: 'FAILED' }) },
  DONE: (s) => ({ ...s, said: 'called' }),
  FAILED: (s, e) => ({ ...s, said: e.code + ' ' + e.error }),
}
`,
)

type Built = Record<string, any>

async function buildWith(name: string, plugin: ReturnType<typeof duet>): Promise<{ code: string; mod: Built }> {
  const out: any = await build({
    root: dir,
    logLevel: 'silent',
    configFile: false,
    plugins: [plugin],
    resolve: { alias: duetkitAliases },
    build: { write: false, minify: true, lib: { entry: join(dir, 'entry.jsx'), formats: ['es'], fileName: name } },
  })
  const code: string = out[0].output[0].code
  const file = join(dir, `${name}.mjs`)
  writeFileSync(file, code)
  return { code, mod: await import(pathToFileURL(file).href) }
}

let omitted: { code: string; mod: Built }
let whole: { code: string; mod: Built }
beforeAll(async () => {
  const [samplePlugin] = sample.plugins as [ReturnType<typeof duet>]
  expect(samplePlugin.config().define).toEqual(Object.fromEntries(Object.values(OMITTABLE).map((flag) => [flag, 'true'])))
  omitted = await buildWith('omitted', samplePlugin)
  whole = await buildWith('whole', duet())
})

let running: { dispose(): void } | undefined
afterEach(() => {
  running?.dispose()
  running = undefined
  document.body.innerHTML = ''
  document.documentElement.removeAttribute('data-theme')
  vi.restoreAllMocks()
})

/** Runs `App` from a build with the lean MCP driver on a fake host; `theme` is the host's. */
function start(mod: Built, App: string, fake = fakeHost({ 'tools/call': () => ({ content: [] }) })) {
  document.body.innerHTML = '<div id="root"></div>'
  const MCP = mod.makeLeanMcpAppDriver({ window: Object.assign(fake.win, { document }), host: fake.host, autoResize: false })
  running = mod.run(mod[App], { MCP })
  return fake
}

describe('duet({ omit })', () => {
  it('refuses anything but an array of known parts, naming the option', () => {
    for (const bad of [['svgs'], 'svg', [1], null]) {
      let caught: any
      try {
        duet({ omit: bad as never })
      } catch (err) {
        caught = err
      }
      expect(caught).toMatchObject({ code: 'INVALID_OPTION', data: { option: 'omit' } })
      expect(caught.message).toContain("'dom-events', 'mcp-sinks', 'host-theme', 'svg', 'hooks'")
    }
  })

  it('defines every flag, true for a part left out and false for the rest', () => {
    const config = duet({ omit: ['svg'] }).config()
    expect(config.define).toEqual({
      __DUET_OMIT_DOM_EVENTS__: 'false',
      __DUET_OMIT_MCP_SINKS__: 'false',
      __DUET_OMIT_HOST_THEME__: 'false',
      __DUET_OMIT_SVG__: 'true',
      __DUET_OMIT_HOOKS__: 'false',
    })
  })

  it("leaves each part's code out of the bundle, and a build that omits nothing carries none of the checks", () => {
    for (const mark of Object.values(OMIT_MARKS)) {
      expect(whole.code).toContain(mark)
      expect(omitted.code).not.toContain(mark)
    }
    expect(whole.code).not.toContain('left out of this build')
    expect(omitted.code.length).toBeLessThan(whole.code.length - 3000)
  })

  it('<svg> without svg fails with UNSUPPORTED naming the part; with it, the subtree is in the SVG namespace', () => {
    expect(() => omitted.mod.drawing()).toThrow(leftOut('svg'))
    expect(() => omitted.mod.drawing()).toThrow(expect.objectContaining({ code: 'UNSUPPORTED' }))
    expect(whole.mod.drawing().data.ns).toBe('http://www.w3.org/2000/svg')
  })

  it('the hook prop without hooks fails with UNSUPPORTED naming the part; with them, the hook is kept', () => {
    expect(() => omitted.mod.hooked()).toThrow(expect.objectContaining({ code: 'UNSUPPORTED', message: leftOut('hooks') }))
    expect(typeof whole.mod.hooked().data.hook.insert).toBe('function')
  })

  it('an intent reading DOM without dom-events is told so on the console; with them, a click is read', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    start(omitted.mod, 'Clicker')
    expect(errors.mock.calls.flat().some((a) => String(a?.message ?? a).includes(leftOut('dom-events')))).toBe(true)
    running?.dispose()
    errors.mockClear()

    start(whole.mod, 'Clicker')
    document.querySelector<HTMLButtonElement>('.b')!.click()
    await until(() => document.querySelector('.b')!.textContent === '1', 'the click')
    expect(errors).not.toHaveBeenCalled()
  })

  it('a sink sent without mcp-sinks reaches its error action with UNSUPPORTED, and nothing is posted to the host', async () => {
    const fake = start(omitted.mod, 'Caller')
    await fake.waitFor((m) => m.method === 'ui/notifications/initialized')
    fake.notify('ui/notifications/tool-input', { arguments: {} })
    await until(() => document.querySelector('.said')!.textContent !== '', 'the error action')
    expect(document.querySelector('.said')!.textContent).toBe(`UNSUPPORTED ${leftOut('mcp-sinks')}`)
    expect(fake.methods()).not.toContain('tools/call')
    running?.dispose()

    const host = start(whole.mod, 'Caller')
    await host.waitFor((m) => m.method === 'ui/notifications/initialized')
    host.notify('ui/notifications/tool-input', { arguments: {} })
    await until(() => document.querySelector('.said')!.textContent === 'called', 'the ok action')
    expect(host.methods()).toContain('tools/call')
  })

  it("without host-theme the host's theme reaches the view but not the document; with it, both", async () => {
    const theme = () => document.querySelector('.theme')!.textContent === 'dark'
    start(omitted.mod, 'Caller')
    await until(theme, 'the host context in the view')
    expect(document.documentElement.hasAttribute('data-theme')).toBe(false)
    running?.dispose()

    start(whole.mod, 'Caller')
    await until(theme, 'the host context in the view')
    expect(document.documentElement.getAttribute('data-theme')).toBe('dark')
  })

  it('duetShims({ omit }) gives an esbuild build the same flags: a part left out fails when used, the rest works', async () => {
    // duetkit from source, by exact specifier (esbuild's `alias` would also rewrite `duetkit/mcp`).
    const fromSource = {
      name: 'duetkit-src',
      setup: (b: any) => b.onResolve({ filter: /^duetkit(\/.*)?$/ }, (args: any) => ({ path: duetkitSources[args.path] })),
    }
    const bundle = async (shims: ReturnType<typeof duetShims>) => {
      const out = await esbuild({
        entryPoints: [join(dir, 'entry.jsx')],
        bundle: true,
        write: false,
        minify: true,
        format: 'esm',
        jsx: 'automatic',
        jsxImportSource: 'duetkit',
        logLevel: 'silent',
        plugins: [fromSource, shims as never],
      })
      return out.outputFiles[0]!.text
    }
    const load = async (name: string, shims: ReturnType<typeof duetShims>) => {
      const file = join(dir, `${name}.mjs`)
      writeFileSync(file, await bundle(shims))
      return import(pathToFileURL(file).href)
    }
    const left = await load('esbuild-omitted', duetShims({ omit: ['svg', 'hooks'] }))
    const all = await load('esbuild-whole', duetShims())
    expect(() => left.drawing()).toThrow(expect.objectContaining({ code: 'UNSUPPORTED', message: leftOut('svg') }))
    expect(() => left.hooked()).toThrow(expect.objectContaining({ code: 'UNSUPPORTED', message: leftOut('hooks') }))
    expect(all.drawing().data.ns).toBe('http://www.w3.org/2000/svg')
    expect(typeof all.hooked().data.hook.insert).toBe('function')
    expect(() => duetShims({ omit: ['svgs' as never] })).toThrow(expect.objectContaining({ code: 'INVALID_OPTION', data: { option: 'omit' } }))
  })
})
