import { describe, it, expect, afterEach, vi } from 'vitest'
import { renderComponent, reply, Collection, type Component } from 'duetkit'
import { codedError } from '../../../../test/support/coded-error.js'

// Each test's harness, kept here for disposal; the test itself reads its own, typed by its component.
let current: { dispose(): void } | undefined
const track = <T extends { dispose(): void }>(rendered: T): T => (current = rendered)
afterEach(() => {
  current?.dispose()
  current = undefined
  vi.restoreAllMocks()
})

function Loader({ state, props }: any) {
  return (
    <section className={props.name}>
      <button className="load">load</button>
      <span className="value">{state.value ?? '-'}</span>
    </section>
  )
}
Loader.initialState = { value: null }
Loader.intent = ({ DOM }: any) => ({ LOAD: DOM.click('.load') })
Loader.model = {
  LOAD: { API: (_s: any, _d: any, _n: any, props: any) => ({ get: props.name, ok: 'LOADED', error: 'FAILED' }) },
  LOADED: (s: any, value: any) => ({ ...s, value }),
  FAILED: (s: any, { error }: any) => ({ ...s, value: `failed: ${error}` }),
}

interface LoaderState {
  value: unknown
}

describe('reply actions', () => {
  it('deliver an answer only to the instance that sent the request, never broadcast', async () => {
    const Page: Component<{ a: LoaderState; b: LoaderState; rootGot: unknown }> = () => (
      <main>
        <Loader state="a" name="a" />
        <Loader state="b" name="b" />
      </main>
    )
    Page.initialState = { a: { value: null }, b: { value: null }, rootGot: null }
    // The root has an action of the same name: a broadcast would reach it too.
    Page.model = { LOADED: (s, v) => ({ ...s, rootGot: v }) }
    const t = track(renderComponent(Page))
    await t.simulateEvent('.a .load', 'click')
    await t.simulateEvent('.b .load', 'click')
    const [fromA, fromB] = t.requests('API') as any[]
    expect(t.requests('API')).toEqual([
      { get: 'a', ok: 'LOADED', error: 'FAILED' },
      { get: 'b', ok: 'LOADED', error: 'FAILED' },
    ])
    // The reply function is hidden: not enumerable, and the user's object is not the one sent.
    expect(Object.keys(fromA)).toEqual(['get', 'ok', 'error'])

    expect(reply(fromA, 'ok', 'for A')).toBe(true)
    await t.respond('API', 'for B', 'LOADED')
    expect(t.state).toEqual({ a: { value: 'for A' }, b: { value: 'for B' }, rootGot: null })
    expect(t.html()).toContain('<span class="value">for A</span>')
    expect(t.html()).toContain('<span class="value">for B</span>')
    expect(fromB).not.toBe(fromA)
  })

  it('fail() delivers the error action; respond/fail with nothing pending throw a clear error', async () => {
    const Page: Component<{ a: LoaderState }> = () => <Loader state="a" name="a" />
    Page.initialState = { a: { value: null } }
    const t = track(renderComponent(Page))
    expect(() => t!.respond('API', 1, 'LOADED')).toThrow(codedError('NOTHING_PENDING', 'renderComponent: API is not a driver this component used'))
    await t.simulateEvent('.load', 'click')
    expect(() => t!.respond('API', 1, 'NOPE')).toThrow(/no unanswered request with ok: "NOPE"; pending ok names: "LOADED"/)
    await t.fail('API', 'offline', 'FAILED')
    expect(t.state.a.value).toBe('failed: offline')
    expect(() => t!.respond('API', 1, 'LOADED')).toThrow(codedError('NOTHING_PENDING', /^API: no unanswered request with ok: "LOADED"/))
  })

  it('drops a reply to an instance that is gone', async () => {
    const Page: Component<{ show: boolean; a: LoaderState }> = ({ state }) => <main>{state.show ? <Loader state="a" name="a" /> : null}</main>
    Page.initialState = { show: true, a: { value: null } }
    Page.model = { HIDE: (s) => ({ ...s, show: false }) }
    const t = track(renderComponent(Page))
    await t.simulateEvent('.load', 'click')
    await t.simulateAction('HIDE')
    expect(reply(t.requests('API')[0], 'ok', 'late')).toBe(false)
    expect(t.state.a.value).toBe(null)
  })
})

describe('child components', () => {
  function Counter({ state, props }: any) {
    return (
      <button className={props.label}>
        {props.label}: {state}
      </button>
    )
  }
  Counter.intent = ({ DOM }: any) => ({ INC: DOM.click('button') })
  Counter.model = { INC: (n: number) => n + 1 }

  it('read and write the parent state through a field lens or a { get, set } lens', async () => {
    const doubled = { get: (s: any) => s.d / 2, set: (s: any, v: number) => ({ ...s, d: v * 2 }) }
    const Page: Component = () => (
      <div>
        <Counter state="left" label="left" />
        <Counter state={doubled} label="dbl" />
      </div>
    )
    Page.initialState = { left: 0, d: 10 }
    const t = track(renderComponent(Page))
    await t.simulateEvent('.left', 'click')
    await t.simulateEvent('.left', 'click')
    await t.simulateEvent('.dbl', 'click')
    expect(t.state).toEqual({ left: 2, d: 12 })
    expect(t.html()).toBe('<div><button class="left">left: 2</button><button class="dbl">dbl: 6</button></div>')
  })

  it("scope DOM events per instance: a parent does not see its children's clicks unless it asks (deep)", async () => {
    const Page: Component<{ n: number; shallow: number; deep: number }> = ({ state }) => (
      <div>
        <button className="own">own</button>
        <Counter state="n" label="child" />
        <p>
          {state.shallow}/{state.deep}
        </p>
      </div>
    )
    Page.initialState = { n: 0, shallow: 0, deep: 0 }
    Page.intent = ({ DOM }) => ({ SHALLOW: DOM.click('button'), DEEP: DOM.select('button').events('click', { deep: true }) })
    Page.model = { SHALLOW: (s) => ({ ...s, shallow: s.shallow + 1 }), DEEP: (s) => ({ ...s, deep: s.deep + 1 }) }
    const t = track(renderComponent(Page))
    await t.simulateEvent('.child', 'click')
    expect(t.state).toEqual({ n: 1, shallow: 0, deep: 1 })
    await t.simulateEvent('.own', 'click')
    expect(t.state).toEqual({ n: 1, shallow: 1, deep: 2 })
  })

  it('pass children vnodes and props, and use initialState when the lens finds nothing', async () => {
    function Card({ state, props, children }: any) {
      return (
        <article title={props.title}>
          {state.note}
          {children}
        </article>
      )
    }
    Card.initialState = { note: 'new:' }
    const Page: Component = () => (
      <Card state="card" title="T">
        <em>inner</em>
      </Card>
    )
    Page.initialState = {}
    const t = track(renderComponent(Page))
    expect(t.html()).toBe('<article title="T">new:<em>inner</em></article>')
  })

  it('deliver events when a view returns a child component as its root element', async () => {
    const Wrapper: Component<number> = () => <Counter label="w" />
    const Page: Component<{ n: number }> = () => <Wrapper state="n" />
    Page.initialState = { n: 5 }
    const t = track(renderComponent(Page))
    await t.simulateEvent('.w', 'click')
    expect(t.state.n).toBe(6)
    expect(t.html()).toBe('<button class="w">w: 6</button>')
  })
})

describe('Collection', () => {
  function Todo({ state }: any) {
    return (
      <li className={state.done ? 'todo done' : 'todo'}>
        <span>{state.text}</span>
        <button className="toggle">toggle</button>
        <button className="remove">x</button>
      </li>
    )
  }
  Todo.intent = ({ DOM }: any) => ({ TOGGLE: DOM.click('.toggle'), REMOVE: DOM.click('.remove') })
  Todo.model = { TOGGLE: (s: any) => ({ ...s, done: !s.done }), REMOVE: () => undefined }
  Todo.agent = { name: 'todo', actions: { TOGGLE: { description: 'toggle it' } } }

  interface Item {
    id: number
    text: string
    done: boolean
  }
  const List: Component<{ items: Item[] }> = ({ state }) => (
    <ul>
      <Collection of={Todo} from="items" />
      <li className="count">{state.items.length}</li>
    </ul>
  )
  List.initialState = {
    items: [
      { id: 1, text: 'a', done: false },
      { id: 2, text: 'b', done: false },
    ],
  }
  List.model = { ADD: (s, text: string) => ({ ...s, items: [...s.items, { id: s.items.length + 10, text, done: false }] }) }

  it("adds, updates and removes items by id, keeping each item's instance", async () => {
    const t = track(renderComponent(List))
    const before = t.app.agents().map((a) => [a.id, a.key])
    expect(before.map(([, k]) => k)).toEqual(['1', '2'])

    await t.simulateAction('ADD', 'c')
    expect(
      t.app
        .agents()
        .slice(0, 2)
        .map((a) => [a.id, a.key]),
    ).toEqual(before)
    expect(t.html()).toContain('<span>c</span>')

    await t.simulateEvent('.todo .toggle', 'click')
    expect(t.state.items[0]).toEqual({ id: 1, text: 'a', done: true })
    expect(t.html()).toContain('<li class="todo done">')

    await t.simulateEvent('.todo .remove', 'click')
    expect(t.state.items.map((i: any) => i.id)).toEqual([2, 12])
    expect(t.app.agents().map((a) => a.key)).toEqual(['2', '12'])
    expect(t.html()).toContain('<li class="count">2</li>')
  })

  it('exposes agent instances whose dispatch resolves after the render', async () => {
    const t = track(renderComponent(List))
    const [first] = t.app.agents()
    expect(first.component).toBe('Todo')
    await first.dispatch('TOGGLE')
    expect(first.state()).toEqual({ id: 1, text: 'a', done: true })
    expect(t.html()).toContain('<li class="todo done">')
    await t.simulateEvent('.todo .remove', 'click')
    await expect(first.dispatch('TOGGLE')).rejects.toThrow(codedError('DISPOSED', /^Todo .* is no longer rendered; TOGGLE was not dispatched$/))
  })

  it('re-renders only the items that changed', async () => {
    const view = vi.fn(({ state }: any) => <li>{state.text}</li>)
    const Row: Component<{ id: number; text: string }> = view
    Row.model = { RENAME: (s, text: string) => ({ ...s, text }) }
    const Table: Component<{ rows: { id: number; text: string }[] }> = () => (
      <ul>
        <Collection of={Row} from="rows" />
      </ul>
    )
    Table.initialState = { rows: Array.from({ length: 50 }, (_, i) => ({ id: i, text: `r${i}` })) }
    Table.model = { EDIT: (s) => ({ rows: s.rows.map((r) => (r.id % 10 === 0 ? { ...r, text: `${r.text}!` } : r)) }) }
    const t = track(renderComponent(Table))
    expect(view).toHaveBeenCalledTimes(50)
    await t.simulateAction('EDIT')
    expect(view).toHaveBeenCalledTimes(55)
    expect(t.html()).toContain('<li>r10!</li>')
  })
})
