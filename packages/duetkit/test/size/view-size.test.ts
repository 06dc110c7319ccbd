import { randomBytes } from 'node:crypto'
import { gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { buildView, overBudget, readBudgets, VIEW_ROOTS } from './view-size.js'
import { OMIT_MARKS } from '../build/omit-marks.js'

// The size budget: no change grows a view silently. Each view's budget is in size-budget.json.
describe('the views stay within their size budgets (size-budget.json)', () => {
  const budgets = readBudgets()

  it('has a budget for every view, and a view for every budget', () => {
    expect(Object.keys(budgets).sort()).toEqual(Object.keys(VIEW_ROOTS).sort())
  })

  for (const name of Object.keys(VIEW_ROOTS)) {
    it(`${name} is within its budget`, async () => {
      const html = await buildView(name)
      expect(overBudget(name, html, budgets[name]!)).toBeUndefined()
    })
  }

  it('measures a view as `vite build` makes it for users (production JSX), whatever NODE_ENV the tests run with', async () => {
    expect(process.env.NODE_ENV).toBe('test')
    const html = await buildView('minimal')
    // A development build of JSX carries the source file's name into the bundle; a production one does not.
    expect(html).not.toContain('main.jsx')
    expect(process.env.NODE_ENV).toBe('test')
  })

  it("carries xstream's factories (xs.merge, xs.periodic, …) only in a view that imports xs", async () => {
    // A string only the factories' code contains.
    const mark = 'Type of input to from() must be'
    const plain = await buildView('minimal')
    const withXs = await buildView('minimal', [
      {
        name: 'use-xs',
        transform: (code, id) => (id.endsWith('/main.jsx') ? `import { xs as __xs } from 'duetkit'\n${code}\nglobalThis.__tick = __xs.periodic\n` : undefined),
      },
    ])
    expect(plain).not.toContain(mark)
    expect(withXs).toContain(mark)
  })

  it('builds each view with its own vite.config.js: a part its duet({ omit }) names is not in its page', async () => {
    // The minimal view omits all five parts, the reader svg and hooks.
    const marks = OMIT_MARKS
    const [minimal, reader] = await Promise.all([buildView('minimal'), buildView('reader')])
    expect(Object.entries(marks).filter(([, mark]) => minimal.includes(mark))).toEqual([])
    expect(
      Object.entries(marks)
        .filter(([, mark]) => reader.includes(mark))
        .map(([part]) => part),
    ).toEqual(['dom-events', 'mcp-sinks', 'host-theme'])
  })

  it('carries the App.persist code only in a view whose driver keeps state (withViewState)', async () => {
    // A string only runtime/persist.ts contains.
    const mark = 'App.persist must be'
    expect(await buildView('minimal')).not.toContain(mark)
    expect(await buildView('forecast')).toContain(mark)
  })

  it('fails a deliberately grown view, with the figures', async () => {
    const plain = await buildView('forecast')
    // 1.5 KB of random bytes as base64 cannot be compressed away: the view grows by about 1.5 KB gzipped.
    const ballast = randomBytes(1536).toString('base64')
    const grown = await buildView('forecast', [
      {
        name: 'grow-the-view',
        transform: (code, id) => (id.endsWith('/src/main.js') ? `${code}\nglobalThis.__ballast = ${JSON.stringify(ballast)}\n` : undefined),
      },
    ])
    expect(grown).toContain(ballast)
    // Against the forecast's real budget, which the plain build meets (the test above).
    const budget = budgets.forecast!
    expect(overBudget('forecast', plain, budget)).toBeUndefined()
    const verdict = overBudget('forecast', grown, budget)
    expect(verdict).toMatch(/^forecast: \d+\.\d\d KB gzip \(\d+ bytes\) is over its budget of \d+\.\d\d KB \(\d+ bytes\) by \d+ bytes/)
    const [size, limit, over] = [...verdict!.matchAll(/\((\d+) bytes\)|by (\d+) bytes/g)].map((m) => Number(m[1] ?? m[2]))
    expect(size).toBe(gzipSync(grown).length)
    expect(limit).toBe(budget.gzipBytes)
    expect(over).toBe(size! - limit!)
  })
})
