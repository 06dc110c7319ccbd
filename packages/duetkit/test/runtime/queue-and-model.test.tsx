import { describe, it, expect, afterEach, vi } from 'vitest'
import { renderComponent, reply, xs, type Component, type Driver, type Drivers, type DriverTypes, type NoProps } from 'duetkit'

// Each test's harness, kept here for disposal; the test itself reads its own, typed by its component.
let current: { dispose(): void } | undefined
const track = <T extends { dispose(): void }>(rendered: T): T => (current = rendered)
afterEach(() => {
  current?.dispose()
  current = undefined
  vi.restoreAllMocks()
})

// The test's own drivers, next to DOM and MCP; they take any sink value.
type TestDrivers = Drivers & { ECHO: DriverTypes<unknown, unknown>; LOG: DriverTypes<unknown, unknown> }

describe('action queue', () => {
  it('runs actions first-in-first-out, each to completion, including replies and next()', async () => {
    // A driver that answers synchronously, while the action that sent the request is still running.
    const echo: Driver = (sink$) => {
      sink$.subscribe({ next: (req) => reply(req, 'ok', 'echoed') })
      return { select: () => xs.never() }
    }
    const App: Component<{ log: string[] }, NoProps, TestDrivers> = ({ state }) => <p>{state.log.join(',')}</p>
    App.initialState = { log: [] }
    App.model = {
      A: {
        STATE: (s, _d, next) => {
          next('C')
          return { log: [...s.log, 'A'] }
        },
        ECHO: () => ({ ping: 1, ok: 'R' }),
      },
      C: (s) => ({ log: [...s.log, 'C'] }),
      R: (s, d) => ({ log: [...s.log, `R:${d}`] }),
    }
    const t = track(renderComponent(App, { drivers: { ECHO: echo } }))
    await t.simulateAction('A')
    // C was queued (by next) before the driver's reply R, and both waited for A to finish.
    expect(t.state.log).toEqual(['A', 'C', 'R:echoed'])
    expect(t.html()).toBe('<p>A,C,R:echoed</p>')
  })

  it('applies STATE reducers synchronously and renders once per flush', async () => {
    const view = vi.fn(({ state }) => <p>{state.n}</p>)
    const App: Component<{ n: number }> = view
    App.initialState = { n: 0 }
    App.model = { INC: (s) => ({ n: s.n + 1 }) }
    const t = track(renderComponent(App))
    expect(view).toHaveBeenCalledTimes(1)
    t.simulateAction('INC')
    t.simulateAction('INC')
    const done = t.simulateAction('INC')
    expect(t.state.n).toBe(3)
    expect(view).toHaveBeenCalledTimes(1)
    await done
    expect(view).toHaveBeenCalledTimes(2)
    expect(t.html()).toBe('<p>3</p>')
  })

  it("computes sink values from the state before the same action's STATE reducer", async () => {
    const App: Component<{ n: number }, NoProps, TestDrivers> = () => <p />
    App.initialState = { n: 0 }
    App.model = {
      BUMP: { STATE: (s) => ({ n: s.n + 1 }), LOG: (s, d) => ({ before: s.n, data: d }) },
      PASS: { LOG: true },
    }
    const t = track(renderComponent(App))
    await t.simulateAction('BUMP', 'x')
    await t.simulateAction('PASS', { raw: 1 })
    expect(t.requests('LOG')).toEqual([{ before: 0, data: 'x' }, { raw: 1 }])
    expect(t.state.n).toBe(1)
  })

  it('passes props to reducers and views', async () => {
    const App: Component<{ got: string | null }, { label: string }> = ({ props }) => <p>{props.label}</p>
    App.initialState = { got: null }
    App.model = { READ: (s, _d, _n, props) => ({ ...s, got: props.label }) }
    const t = track(renderComponent(App, { props: { label: 'hi' } }))
    await t.simulateAction('READ')
    expect(t.state.got).toBe('hi')
    expect(t.html()).toBe('<p>hi</p>')
  })
})

describe('failures in user code', () => {
  it('keeps the old state when a reducer throws, logs the component and action, and keeps running', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    function Counter({ state }: any) {
      return <p>{state.n}</p>
    }
    Counter.initialState = { n: 1 }
    Counter.model = {
      BAD: {
        STATE: () => {
          throw new Error('boom')
        },
        LOG: () => 'should not be sent',
      },
      INC: (s: any) => ({ n: s.n + 1 }),
    }
    const t = track(renderComponent(Counter))
    await t.simulateAction('BAD')
    expect(t.state).toEqual({ n: 1 })
    expect(t.requests('LOG')).toEqual([])
    expect(errors).toHaveBeenCalledTimes(1)
    expect(String(errors.mock.calls[0][0])).toMatch(/Counter.*BAD/)
    await t.simulateAction('INC')
    expect(t.html()).toBe('<p>2</p>')
  })

  it('renders a fallback when a view throws, and recovers once it stops throwing', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    function Fragile({ state }: any) {
      if (state.broken) throw new Error('view bug')
      return <p>ok {state.n}</p>
    }
    Fragile.initialState = { broken: false, n: 0 }
    Fragile.model = { BREAK: (s: any) => ({ ...s, broken: true }), FIX: (s: any) => ({ ...s, broken: false, n: 1 }) }
    const t = track(renderComponent(Fragile))
    await t.simulateAction('BREAK')
    expect(t.html()).toContain('Fragile failed to render')
    expect(t.html()).toContain('role="alert"')
    expect(String(errors.mock.calls[0][0])).toContain('Fragile')
    await t.simulateAction('FIX')
    expect(t.html()).toBe('<p>ok 1</p>')
  })

  it('logs an intent that throws instead of crashing the app', () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    function Broken() {
      return <p>still here</p>
    }
    Broken.intent = () => {
      throw new Error('intent bug')
    }
    const t = track(renderComponent(Broken))
    expect(t.html()).toBe('<p>still here</p>')
    expect(String(errors.mock.calls[0][0])).toContain('Broken: intent threw')
  })
})
