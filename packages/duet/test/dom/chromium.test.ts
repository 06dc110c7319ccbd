import { describe, it, expect, beforeAll, afterAll } from 'vitest'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import type { Browser } from 'playwright-core'
import { launchBrowser } from '../support/browser.js'
import { startHttpServer, type TestHttpServer } from '../support/http-server.js'

const src = (p: string) => fileURLToPath(new URL(`../../src/${p}`, import.meta.url))

// A counter list: a parent with a Collection of items, each with its own button.
const APP = `
import { run, Collection } from 'duet'
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

let browser: Browser
let server: TestHttpServer

beforeAll(async () => {
  const bundle = await build({
    stdin: { contents: APP, loader: 'jsx', resolveDir: fileURLToPath(new URL('.', import.meta.url)) },
    bundle: true,
    write: false,
    format: 'iife',
    jsx: 'automatic',
    jsxImportSource: 'duet',
    alias: { duet: src('index.ts'), 'duet/jsx-runtime': src('jsx/jsx-runtime.ts') },
    logLevel: 'silent',
  })
  server = await startHttpServer({
    '/': { body: '<!doctype html><html><body><div id="root"></div><script src="/app.js"></script></body></html>' },
    '/app.js': { body: Buffer.from(bundle.outputFiles[0].contents), type: 'text/javascript' },
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
})
