// @vitest-environment happy-dom
import { describe, it, expect, afterEach, beforeEach } from 'vitest'
import { run, xs, Collection, type Component, type Driver, type Drivers, type DriverTypes, type NoProps, type RunningApp, type Stream } from 'duetkit'
import { codedError } from '../../../../test/support/coded-error.js'

let app: RunningApp | undefined
let root: HTMLElement
beforeEach(() => {
  document.body.innerHTML = '<div id="root">loading</div>'
  root = document.getElementById('root')!
})
afterEach(() => {
  app?.dispose()
  app = undefined
})

/** A driver that lets the test wait for the app's flushes through the public driver contract. */
function flushProbe() {
  let handle: Parameters<Driver>[1]['app'] | undefined
  const driver: Driver = (_sink$, ctx) => {
    handle = ctx.app
    return { select: () => xs.never() }
  }
  return {
    driver,
    next: () =>
      new Promise<void>((resolve) => {
        const off = handle!.onFlush(() => {
          off()
          resolve()
        })
      }),
  }
}

function click(el: Element | null) {
  el!.dispatchEvent(new MouseEvent('click', { bubbles: true }))
}

function Todo({ state }: any) {
  return (
    <li className="todo" data={{ id: state.id }}>
      <span className="text">{state.text}</span>
      <button className="remove">x</button>
    </li>
  )
}
Todo.intent = ({ DOM }: any) => ({ REMOVE: DOM.click('.remove') })
Todo.model = { REMOVE: () => undefined }

interface AppState {
  draft: string
  items: { id: number; text: string }[]
  picked: string
  clicks: number
}

const App: Component<AppState> = ({ state }) => (
  <main>
    <input className="new" value={state.draft} />
    <button className="add" disabled={!state.draft}>
      add
    </button>
    <ul>
      <Collection of={Todo} from="items" />
    </ul>
    <p className="picked">{state.picked}</p>
    <p className="clicks">{state.clicks}</p>
  </main>
)
App.initialState = { draft: '', items: [{ id: 1, text: 'one' }], picked: '', clicks: 0 }
App.intent = ({ DOM }) => ({
  DRAFT: DOM.input('.new').value(),
  ADD: DOM.click('.add'),
  PICK: DOM.click('li').data('id'),
  ANY: DOM.click('button'),
})
App.model = {
  DRAFT: (s, draft: string) => ({ ...s, draft }),
  ADD: (s) => ({ ...s, draft: '', items: [...s.items, { id: s.items.length + 1, text: s.draft }] }),
  PICK: (s, id: string) => ({ ...s, picked: id }),
  ANY: (s) => ({ ...s, clicks: s.clicks + 1 }),
}

describe('run() on a real DOM', () => {
  it('renders into the mount point, replacing its content', () => {
    app = run(App, {})
    expect(root.querySelector('main')).not.toBeNull()
    expect(root.textContent).not.toContain('loading')
    expect((root.querySelector('.add') as HTMLButtonElement).disabled).toBe(true)
    expect(root.querySelectorAll('li.todo')).toHaveLength(1)
  })

  it('turns DOM events into actions and patches once per flush', async () => {
    const probe = flushProbe()
    app = run(App, { PROBE: probe.driver })
    const input = root.querySelector('.new') as HTMLInputElement
    input.value = 'two'
    input.dispatchEvent(new Event('input', { bubbles: true }))
    await probe.next()
    expect((root.querySelector('.add') as HTMLButtonElement).disabled).toBe(false)

    click(root.querySelector('.add'))
    await probe.next()
    expect([...root.querySelectorAll('.todo .text')].map((e) => e.textContent)).toEqual(['one', 'two'])
    expect(input.value).toBe('')
    expect(root.querySelector('.clicks')!.textContent).toBe('1')
  })

  it("scopes delegation per instance: the parent does not hear the item's button, the item does", async () => {
    const probe = flushProbe()
    app = run(App, { PROBE: probe.driver })
    // The <li> belongs to the item, so the parent's `li` selector must not match this click. Actions
    // run synchronously, so a PICK would be rendered by the flush the next click causes.
    click(root.querySelector('.todo .text'))
    click(root.querySelector('.todo .remove'))
    await probe.next()
    expect(root.querySelector('.picked')!.textContent).toBe('')
    expect(root.querySelectorAll('li.todo')).toHaveLength(0)
    expect(root.querySelector('.clicks')!.textContent).toBe('0')
  })

  it('reads data-* from the nearest element with it, between the target and the matched element', async () => {
    const probe = flushProbe()
    const Days: Component<{ sel: string }> = ({ state }) => (
      <div>
        <button className="day" data={{ date: 'Tue' }}>
          <b className="inner">Tue</b>
        </button>
        <p className="sel">{state.sel}</p>
      </div>
    )
    Days.initialState = { sel: '' }
    Days.intent = ({ DOM }) => ({ PICK: DOM.click('.day').data('date') })
    Days.model = { PICK: (s, sel: string) => ({ ...s, sel }) }
    app = run(Days, { PROBE: probe.driver })
    click(root.querySelector('.inner'))
    await probe.next()
    expect(root.querySelector('.sel')!.textContent).toBe('Tue')
  })

  it('fails clearly without a mount point or with a bad driver, and dispose removes the view', () => {
    expect(() => run(App, {}, { mountPoint: '#missing' })).toThrow(codedError('NO_MOUNT_POINT', /^run: no element matches mountPoint "#missing"/))
    expect(() => run(App, { X: 5 as any })).toThrow(codedError('INVALID_OPTION', /^run: drivers.X must be a driver function/))
    const el = document.createElement('section')
    document.body.append(el)
    const running = run(App, {}, { mountPoint: el })
    expect(el.querySelector('main')).not.toBeNull()
    running.dispose()
    expect(el.querySelector('main')).toBeNull()
  })

  it('patches attributes, style and properties as state changes', async () => {
    const probe = flushProbe()
    const Toggle: Component<{ on: boolean }> = ({ state }) => (
      <button className="t" aria-pressed={state.on} style={{ color: state.on ? 'red' : 'blue', '--gap': '2px' }} class={{ active: state.on }}>
        t
      </button>
    )
    Toggle.initialState = { on: false }
    Toggle.intent = ({ DOM }) => ({ FLIP: DOM.click('.t') })
    Toggle.model = { FLIP: (s) => ({ on: !s.on }) }
    app = run(Toggle, { PROBE: probe.driver })
    const button = root.querySelector('.t') as HTMLButtonElement
    expect(button.getAttribute('aria-pressed')).toBe('false')
    expect(button.style.color).toBe('blue')
    expect(button.style.getPropertyValue('--gap')).toBe('2px')
    click(button)
    await probe.next()
    expect(button.getAttribute('aria-pressed')).toBe('true')
    expect(button.style.color).toBe('red')
    expect(button.classList.contains('active')).toBe(true)
  })

  // snabbdom, which duetkit patched with before, threw on this edit ("Cannot read properties of undefined").
  it('keeps rendering a list whose items share a key, through reorders', async () => {
    const probe = flushProbe()
    const List: Component<{ names: string[] }> = ({ state }) => (
      <ul>
        {state.names.map((name, i) => (
          <li key={name}>{`${name}${i}`}</li>
        ))}
      </ul>
    )
    List.initialState = { names: ['a', 'a', 'b', 'a'] }
    List.intent = ({ DOM }) => ({ NEXT: DOM.click('ul') })
    List.model = { NEXT: () => ({ names: ['a', 'b', 'a', 'b'] }) }
    app = run(List, { PROBE: probe.driver })
    expect(root.querySelector('ul')!.textContent).toBe('a0a1b2a3')
    click(root.querySelector('ul'))
    await probe.next()
    expect(Array.from(root.querySelectorAll('li'), (li) => li.textContent)).toEqual(['a0', 'b1', 'a2', 'b3'])
  })
  it('logs once and drops values sent to a sink that has no driver', async () => {
    const logged: unknown[][] = []
    const original = console.error
    console.error = (...args: unknown[]) => {
      logged.push(args)
    }
    try {
      const probe = flushProbe()
      // NOWHERE is a driver the component declares but run() is not given.
      const Sender: Component<unknown, NoProps, Drivers & { NOWHERE: DriverTypes<never, unknown> }> = () => <button className="s">s</button>
      Sender.intent = ({ DOM }) => ({ SEND: DOM.click('.s') })
      Sender.model = { SEND: { NOWHERE: () => ({ hello: 1 }) } }
      app = run(Sender, { PROBE: probe.driver })
      click(root.querySelector('.s'))
      click(root.querySelector('.s'))
      await probe.next()
      expect(logged).toHaveLength(1)
      expect(String(logged[0][0])).toMatch(/^\[duet\] NO_DRIVER: Sender: the model sends to "NOWHERE"/)
    } finally {
      console.error = original
    }
  })

  it('rejects an invalid selector when the intent is set up', () => {
    const logged: unknown[][] = []
    const original = console.error
    console.error = (...args: unknown[]) => {
      logged.push(args)
    }
    try {
      const Bad: Component = () => <p>x</p>
      Bad.intent = ({ DOM }) => ({ X: DOM.click('li[') })
      app = run(Bad, {})
      expect(logged[0][0]).toMatch(/^\[duet\] BAD_SELECTOR: Bad: /)
      expect(logged[0][1]).toEqual(codedError('BAD_SELECTOR', /^DOM.select\("li\["\): invalid CSS selector/))
      expect(root.textContent).toBe('x')
    } finally {
      console.error = original
    }
  })

  it('throws a coded error when an intent reads a source that has no driver', () => {
    const errors: unknown[] = []
    const original = console.error
    console.error = (...args: unknown[]) => {
      errors.push(args)
    }
    try {
      const NeedsMcp: Component = () => <p>x</p>
      NeedsMcp.intent = ({ MCP }) => ({ INPUT: MCP.select('tool-input') })
      app = run(NeedsMcp, {})
      expect((errors[0] as any[])[1]).toEqual(codedError('NO_DRIVER', /^NeedsMcp's intent reads MCP/))
    } finally {
      console.error = original
    }
  })

  it('renders a driver event in the next microtask: batched with what the same task sends, never a timer later', async () => {
    let emit!: (v: string) => void
    const Source: Driver = () => ({
      select: () =>
        xs.create<string>({
          start: (l) => {
            emit = (v) => l.next(v)
          },
          stop() {},
        }),
    })
    const Shown: Component<{ items: string[] }, NoProps, Drivers & { SRC: DriverTypes<{ select(name: string): Stream<string> }, never> }> = ({ state }) => (
      <p className="shown">{state.items.join(',')}</p>
    )
    Shown.initialState = { items: [] }
    Shown.intent = ({ SRC }) => ({ GOT: SRC.select('x') })
    Shown.model = { GOT: (s, v: string) => ({ ...s, items: [...s.items, v] }) }
    app = run(Shown, { SRC: Source })
    await Promise.resolve()
    // Two events in the same task are reduced at once and rendered together, one microtask later.
    emit('a')
    emit('b')
    expect(root.querySelector('.shown')!.textContent).toBe('')
    await Promise.resolve()
    expect(root.querySelector('.shown')!.textContent).toBe('a,b')
  })
})
