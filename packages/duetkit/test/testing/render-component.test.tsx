import { describe, it, expect, afterEach, vi } from 'vitest'
import { Stream } from 'xstream'
import { renderComponent as fromTesting } from 'duetkit/testing'
import { renderComponent, reply, type Component, type Driver } from 'duetkit'
import type { VNode } from 'snabbdom'
import { codedError } from '../../../../test/support/coded-error.js'

// Each test's harness, kept here for disposal; the test itself reads its own, typed by its component.
let current: { dispose(): void } | undefined
const track = <T extends { dispose(): void }>(rendered: T): T => (current = rendered)
afterEach(() => {
  current?.dispose()
  current = undefined
  vi.restoreAllMocks()
})

interface FormState {
  name: string
  agree: boolean
  tags: string[]
  picked: string | null
  status: string
}

// Declared without its actions: reducers annotate the data they take.
const Form: Component<FormState> = ({ state }) => (
  <form>
    <input className="name" value={state.name} />
    <label>
      <input type="checkbox" className="agree" checked={state.agree} /> agree
    </label>
    <ul>
      {state.tags.map((tag: string) => (
        <li key={tag}>
          <button className="tag" data={{ tag }}>
            {tag}
          </button>
        </li>
      ))}
    </ul>
    <p className="status">{state.status}</p>
  </form>
)
Form.initialState = { name: '', agree: false, tags: ['a', 'b'], picked: null, status: 'idle' }
Form.intent = ({ DOM, MCP }) => ({
  NAME: DOM.input('.name').value(),
  AGREE: DOM.change('.agree').checked(),
  TAG: DOM.click('.tag').data('tag'),
  INPUT: MCP.select('tool-input'),
})
Form.model = {
  NAME: (s, name: string) => ({ ...s, name }),
  AGREE: (s, agree: boolean) => ({ ...s, agree }),
  TAG: { STATE: (s, picked: string) => ({ ...s, picked }), MCP: (_s, tag: string) => ({ updateModelContext: { tag } }) },
  INPUT: (s, args: { name: string }) => ({ ...s, name: args.name }),
  SAVE: { STATE: (s) => ({ ...s, status: 'saving' }), MCP: (s) => ({ callTool: 'save', args: { name: s.name }, ok: 'SAVED', error: 'SAVE_FAILED' }) },
  SAVED: (s) => ({ ...s, status: 'saved' }),
  SAVE_FAILED: (s, { error }: { error: string }) => ({ ...s, status: `error: ${error}` }),
}

describe('renderComponent', () => {
  it('is the same function from duetkit and duetkit/testing', () => {
    expect(fromTesting).toBe(renderComponent)
  })

  it('simulates events with value, checked and data overrides, falling back to what was rendered', async () => {
    const t = track(renderComponent(Form))
    await t.simulateEvent('.name', 'input', { value: 'Ada' })
    await t.simulateEvent('.agree', 'change', { checked: true })
    await t.simulateEvent('.tag', 'click')
    expect(t.state).toMatchObject({ name: 'Ada', agree: true, picked: 'a' })
    await t.simulateEvent('ul .tag', 'click', { data: { tag: 'zzz' } })
    expect(t.state.picked).toBe('zzz')
    expect(t.requests('MCP')).toEqual([{ updateModelContext: { tag: 'a' } }, { updateModelContext: { tag: 'zzz' } }])
    expect(t.states.map((s: any) => s.picked)).toEqual([null, null, null, 'a', 'zzz'])
  })

  it('gives a fake source whose select(anything) never emits, and a fake sink that records and answers', async () => {
    const t = track(renderComponent(Form))
    expect(t.state.name).toBe('')
    await t.simulateAction('SAVE')
    expect(t.requests('MCP')).toEqual([{ callTool: 'save', args: { name: '' }, ok: 'SAVED', error: 'SAVE_FAILED' }])
    await t.fail('MCP', new Error('offline'))
    expect(t.state.status).toBe('error: offline')
    await t.simulateAction('SAVE')
    await t.respond('MCP', { content: [] })
    expect(t.state.status).toBe('saved')
  })

  it('errors clearly on an unknown action, a missing element, and after dispose', () => {
    const t = track(renderComponent(Form))
    expect(() => t!.simulateAction('NOPE')).toThrow(codedError('INVALID_ARGUMENT', /^simulateAction: .* no action "NOPE"/))
    expect(() => t!.simulateEvent('.nothing', 'click')).toThrow(
      codedError('NO_ELEMENT', /^simulateEvent: nothing matches ".nothing" in the rendered view: <form>/),
    )
    t.dispose()
    expect(() => t!.simulateAction('NAME', 'x')).toThrow(codedError('DISPOSED', 'renderComponent: this component was disposed'))
  })

  it('checks its options once, naming the option', () => {
    expect(() => renderComponent(Form, { drivers: { MCP: {} as any } })).toThrow(codedError('INVALID_OPTION', /^renderComponent: drivers.MCP/))
    expect(() => renderComponent(Form, { timeoutMs: -1 })).toThrow(codedError('INVALID_OPTION', /^renderComponent: timeoutMs/))
    expect(() => renderComponent({} as any)).toThrow(codedError('INVALID_OPTION', /^run\/renderComponent: the app must be a component function/))
  })

  it('waitForState searches the history, then waits for later flushes', async () => {
    const t = track(renderComponent(Form))
    await t.simulateAction('NAME', 'first')
    await t.simulateAction('NAME', 'second')
    expect(await t.waitForState((s) => s.name === 'first')).toMatchObject({ name: 'first' })
    const later = t.waitForState((s) => s.name === 'third')
    queueMicrotask(() => t!.simulateAction('NAME', 'third'))
    await expect(later).resolves.toMatchObject({ name: 'third' })
    expect(t.html()).toContain('<p class="status">idle</p>')
  })

  it('waitForState times out with the last state in the message', async () => {
    const t = track(renderComponent(Form, { initialState: { ...Form.initialState!, name: 'Zed' } }))
    await expect(t.waitForState((s) => s.name === 'never', 50)).rejects.toThrow(
      codedError('WAIT_TIMEOUT', /^waitForState: .*within 50 ms; last state: \{"name":"Zed"/),
    )
  })

  it('uses real drivers when given, records what they were sent, and still fakes the others', async () => {
    let pushInput: (v: unknown) => void = () => {}
    const mcp: Driver = (sink$) => {
      sink$.subscribe({ next: (req) => reply(req, 'ok', { content: [] }) })
      return {
        select: (name: string) =>
          name === 'tool-input'
            ? Stream.create({
                start: (l) => {
                  pushInput = (v) => l.next(v)
                },
                stop() {},
              })
            : Stream.never(),
      }
    }
    const t = track(renderComponent(Form, { drivers: { MCP: mcp } }))
    pushInput({ name: 'from host' })
    await t.waitForState((s) => s.name === 'from host')
    await t.simulateAction('SAVE')
    expect(t.state.status).toBe('saved')
    expect(t.requests('MCP')).toHaveLength(1)
    expect(() => t!.respond('MCP', {}, 'SAVED')).toThrow(/MCP is a real driver/)
  })

  it('completes driver sinks and rejects pending waits on dispose', async () => {
    let completed = false
    const spy: Driver = (sink$) => {
      sink$.subscribe({
        complete: () => {
          completed = true
        },
      })
      return {}
    }
    const t = track(renderComponent(Form, { drivers: { SPY: spy } }))
    const waiting = t.waitForState(() => false, 10_000)
    t.dispose()
    await expect(waiting).rejects.toThrow(codedError('DISPOSED', 'waitForState: the component was disposed while waiting'))
    expect(completed).toBe(true)
  })

  it('puts what a child component renders inside <svg> in the SVG namespace with attributes, as run does', () => {
    const Dot: Component<unknown, { x: number }> = ({ props }) => <circle className="dot" cx={props.x} r="4" />
    const Chart: Component = () => (
      <svg viewBox="0 0 10 10">
        <Dot x={3} />
      </svg>
    )
    const t = track(renderComponent(Chart))
    const circle = t.vnode()!.children![0] as VNode
    expect(circle.data).toMatchObject({ ns: 'http://www.w3.org/2000/svg', attrs: { class: 'dot', cx: 3, r: '4' } })
    expect(circle.data!.props).toBeUndefined()
    expect(t.html()).toContain('<circle class="dot" cx="3" r="4">')
  })

  it("simulateEvent's `target` sets any property of the target an intent reads, such as a <details>'s open", async () => {
    const Box: Component<{ open: boolean }> = ({ state }) => (
      <details className="box" open={state.open}>
        <summary>more</summary>
      </details>
    )
    Box.initialState = { open: false }
    Box.intent = ({ DOM }: any) => ({ TOGGLE: DOM.toggle('.box').map((e: Event) => (e.target as HTMLDetailsElement).open) })
    Box.model = { TOGGLE: (_s: unknown, open: boolean) => ({ open }) }
    const t = track(renderComponent(Box))
    await t.simulateEvent('.box', 'toggle', { target: { open: true } })
    expect(t.state).toEqual({ open: true })
  })
})
