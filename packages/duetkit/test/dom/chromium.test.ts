import { describe, it, expect, beforeAll, afterAll } from 'vitest'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import type { Browser } from 'playwright-core'
import { launchBrowser } from '../../../../test/support/browser.js'
import { startHttpServer, type TestHttpServer } from '../../../../test/support/http-server.js'
import { duetkitSources } from '../../../../test/support/duetkit-aliases.js'

// A counter list: a parent with a Collection of items, each with its own button.
const APP = `
import { run, Collection } from 'duetkit'
function Item({ state }) {
  return <li className="item"><span className="n">{state.n}</span><button className="inc">+</button></li>
}
Item.intent = ({ DOM }) => ({ INC: DOM.click('.inc') })
Item.model = { INC: (s) => ({ ...s, n: s.n + 1 }) }
function App({ state }) {
  return (
    <main>
      <button className="add">add</button>
      <ul><Collection of={Item} from="items" /></ul>
      <p className="total">{state.items.reduce((t, i) => t + i.n, 0)}</p>
    </main>
  )
}
App.initialState = { items: [{ id: 1, n: 0 }] }
App.intent = ({ DOM }) => ({ ADD: DOM.click('.add') })
App.model = { ADD: (s) => ({ ...s, items: [...s.items, { id: s.items.length + 1, n: 10 }] }) }
run(App, {})
`

// Props that come and go, and an SVG drawn partly by a child component, switched by one button.
const SHAPES = `
import { run } from 'duetkit'
function Dot({ props }) {
  return <circle className="dot" cx={props.x} cy="5" r="4" />
}
function App({ state }) {
  const on = state.on
  return (
    <main>
      {on ? <button className="flip" disabled={false} title="on">flip</button> : <button className="flip">flip</button>}
      {on ? <input className="field" disabled placeholder="type" /> : <input className="field" />}
      <svg className="chart" viewBox="0 0 100 10" width="200" height="20">
        <path className="line" d={on ? 'M0 0 L100 10' : 'M0 10 L100 0'} stroke="black" />
        <Dot x={on ? 90 : 10} />
        <foreignObject width="10" height="10"><p className="html">x</p></foreignObject>
      </svg>
    </main>
  )
}
App.initialState = { on: true }
App.intent = ({ DOM }) => ({ FLIP: DOM.click('.flip') })
App.model = { FLIP: (s) => ({ ...s, on: !s.on }) }
run(App, {})
`

let browser: Browser
let server: TestHttpServer

async function bundle(contents: string): Promise<Buffer> {
  const out = await build({
    stdin: { contents, loader: 'jsx', resolveDir: fileURLToPath(new URL('.', import.meta.url)) },
    bundle: true,
    write: false,
    format: 'iife',
    jsx: 'automatic',
    jsxImportSource: 'duetkit',
    alias: duetkitSources,
    logLevel: 'silent',
  })
  return Buffer.from(out.outputFiles[0].contents)
}

const pageFor = (script: string) => ({ body: `<!doctype html><html><body><div id="root"></div><script src="${script}"></script></body></html>` })

beforeAll(async () => {
  server = await startHttpServer({
    '/': pageFor('/app.js'),
    '/app.js': { body: await bundle(APP), type: 'text/javascript' },
    '/shapes': pageFor('/shapes.js'),
    '/shapes.js': { body: await bundle(SHAPES), type: 'text/javascript' },
  })
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await server?.close()
})

describe('run() in Chromium', () => {
  it('renders, and real clicks update the right Collection item and the parent', async () => {
    const page = await browser.newPage()
    const errors: string[] = []
    page.on('pageerror', (e) => errors.push(String(e)))
    await page.goto(`${server.origin}/`)
    await page.waitForSelector('li.item')

    await page.click('.add')
    await page.waitForFunction(() => document.querySelectorAll('li.item').length === 2)
    await page.click('li.item:nth-child(2) .inc')
    await page.click('li.item:nth-child(2) .inc')
    await page.click('li.item:nth-child(1) .inc')
    await page.waitForFunction(() => document.querySelector('.total')?.textContent === '13')
    expect(await page.$$eval('li.item .n', (els) => els.map((e) => e.textContent))).toEqual(['1', '12'])
    expect(errors).toEqual([])
    await page.close()
  })

  it('resets props that disappear from the JSX, and draws SVG with attributes in the SVG namespace', async () => {
    const page = await browser.newPage()
    const errors: string[] = []
    page.on('pageerror', (e) => errors.push(String(e)))
    await page.goto(`${server.origin}/shapes`)
    await page.waitForSelector('path.line')
    const read = () =>
      page.evaluate(() => {
        const q = (s: string) => document.querySelector(s) as any
        const svgNs = 'http://www.w3.org/2000/svg'
        return {
          title: q('.flip').title,
          disabled: q('.field').disabled,
          placeholder: q('.field').placeholder,
          ns: ['svg', 'path', 'circle', 'foreignObject'].map((t) => q(t).namespaceURI === svgNs),
          html: q('p.html').namespaceURI,
          d: q('path').getAttribute('d'),
          cx: q('circle').getAttribute('cx'),
          classes: [q('svg').getAttribute('class'), q('circle').getAttribute('class')],
          viewBox: q('svg').viewBox.baseVal.width,
          drawn: q('path').getBBox().width,
        }
      })
    expect(await read()).toEqual({
      title: 'on',
      disabled: true,
      placeholder: 'type',
      ns: [true, true, true, true],
      html: 'http://www.w3.org/1999/xhtml',
      d: 'M0 0 L100 10',
      cx: '90',
      classes: ['chart', 'dot'],
      viewBox: 100,
      drawn: 100,
    })
    await page.click('.flip')
    await page.waitForFunction(() => document.querySelector('path')?.getAttribute('d') === 'M0 10 L100 0')
    expect(await read()).toMatchObject({ title: '', disabled: false, placeholder: '', d: 'M0 10 L100 0', cx: '10', ns: [true, true, true, true] })
    // And back: the props return.
    await page.click('.flip')
    await page.waitForFunction(() => document.querySelector('path')?.getAttribute('d') === 'M0 0 L100 10')
    expect(await read()).toMatchObject({ title: 'on', disabled: true, placeholder: 'type', cx: '90' })
    expect(errors).toEqual([])
    await page.close()
  })
})
