// Entry sources the runtime benchmark bundles with esbuild (JSX via the built `duet` package).

/** The size probe: a counter app as a user would write it. */
export const COUNTER_APP = `
import { run } from 'duetkit'
function Counter({ state }) {
  return <div><button className="dec">-</button><span>{state}</span><button className="inc">+</button></div>
}
Counter.initialState = 0
Counter.intent = ({ DOM }) => ({ INC: DOM.click('.inc'), DEC: DOM.click('.dec') })
Counter.model = { INC: (n) => n + 1, DEC: (n) => n - 1 }
run(Counter, {})
`

/** For scale: snabbdom's patcher with the modules Duet used with it, which Duet's own patcher (dom/patch.ts) replaced. */
export const DEPS_ONLY = `
import { init } from 'snabbdom/build/init.js'
import { classModule } from 'snabbdom/build/modules/class.js'
import { attributesModule } from 'snabbdom/build/modules/attributes.js'
globalThis.keep = [init([classModule, attributesModule])]
`

/**
 * The list page: the same 1,000-row keyed table rendered three ways, each exposing
 * \`update(round)\` that changes every 10th row and resolves once the DOM is patched.
 */
export const LIST_PAGE = `
import { run, Collection, xs } from 'duetkit'
import { init } from 'snabbdom/build/init.js'
import { h } from 'snabbdom/build/h.js'
import { thunk } from 'snabbdom/build/thunk.js'
import { classModule } from 'snabbdom/build/modules/class.js'
import { propsModule } from 'snabbdom/build/modules/props.js'
import { attributesModule } from 'snabbdom/build/modules/attributes.js'
import { datasetModule } from 'snabbdom/build/modules/dataset.js'

const N = 1000
const initial = Array.from({ length: N }, (_, i) => ({ id: i, label: 'row ' + i }))
const bump = (rows, round) => rows.map((r, i) => (i % 10 === 0 ? { ...r, label: 'row ' + r.id + ' #' + round } : r))

// Duet: a Collection of row components, updated by an action from a driver.
function Row({ state }) {
  return <tr><td className="id">{state.id}</td><td className="label">{state.label}</td></tr>
}
function Table() {
  return <table><tbody><Collection of={Row} from="rows" /></tbody></table>
}
Table.initialState = { rows: initial }
Table.intent = ({ BENCH }) => ({ UPDATE: BENCH.select('update') })
Table.model = { UPDATE: (s, round) => ({ rows: bump(s.rows, round) }) }
let emit
let app
const bench = (_sink, ctx) => {
  app = ctx.app
  return { select: () => xs.create({ start(l) { emit = (v) => l.next(v) }, stop() {} }) }
}
run(Table, { BENCH: bench }, { mountPoint: '#duet' })
const duet = (round) => new Promise((resolve) => {
  const off = app.onFlush(() => { off(); resolve() })
  emit(round)
})

// Hand-written snabbdom: the whole list rebuilt with h() and patched, as most hand code does.
const patch = init([classModule, propsModule, attributesModule, datasetModule])
const row = (r) => h('tr', { key: r.id }, [h('td', { props: { className: 'id' } }, String(r.id)), h('td', { props: { className: 'label' } }, r.label)])
const view = (rows) => h('table', [h('tbody', rows.map(row))])
let rowsA = initial
let vA = patch(document.querySelector('#snabbdom > div'), view(rowsA))
const snabbdom = async (round) => { rowsA = bump(rowsA, round); vA = patch(vA, view(rowsA)) }

// Hand-written snabbdom with thunks, the best a hand-written list can do.
const rowT = (r) => thunk('tr', r.id, row, [r])
const viewT = (rows) => h('table', [h('tbody', rows.map(rowT))])
let rowsB = initial
let vB = patch(document.querySelector('#thunked > div'), viewT(rowsB))
const thunked = async (round) => { rowsB = bump(rowsB, round); vB = patch(vB, viewT(rowsB)) }

window.bench = { duet, snabbdom, thunked }
`
