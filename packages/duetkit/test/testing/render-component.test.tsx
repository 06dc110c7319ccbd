import { describe, it, expect, afterEach, vi } from 'vitest'
import { Stream } from 'xstream'
import { renderComponent as fromTesting } from 'duetkit/testing'
import { renderComponent, reply, type Component, type Driver, type RenderedComponent } from 'duetkit'

let t: RenderedComponent | undefined
afterEach(() => {
  t?.dispose()
  t = undefined
  vi.restoreAllMocks()
})

const Form: Component = ({ state }) => (
  <form>
    <input className="name" value={state.name} />
    <label><input type="checkbox" className="agree" checked={state.agree} /> agree</label>
    <ul>{state.tags.map((tag: string) => <li key={tag}><button className="tag" data={{ tag }}>{tag}</button></li>)}</ul>
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
  NAME: (s, name) => ({ ...s, name }),
  AGREE: (s, agree) => ({ ...s, agree }),
  TAG: { STATE: (s, picked) => ({ ...s, picked }), MCP: (_s, tag) => ({ updateModelContext: { tag } }) },
  INPUT: (s, args) => ({ ...s, name: args.name }),
  SAVE: { STATE: (s) => ({ ...s, status: 'saving' }), MCP: (s) => ({ callTool: 'save', args: { name: s.name }, ok: 'SAVED', error: 'SAVE_FAILED' }) },
  SAVED: (s) => ({ ...s, status: 'saved' }),
  SAVE_FAILED: (s, { error }) => ({ ...s, status: `error: ${error}` }),
}

describe('renderComponent', () => {
  it('is the same function from duet and duet/testing', () => {
    expect(fromTesting).toBe(renderComponent)
  })

  it('simulates events with value, checked and data overrides, falling back to what was rendered', async () => {
    t = renderComponent(Form)
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
    t = renderComponent(Form)
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
    t = renderComponent(Form)
    expect(() => t!.simulateAction('NOPE')).toThrow(/DUET_BAD_OPTION: simulateAction: .* no action "NOPE"/)
    expect(() => t!.simulateEvent('.nothing', 'click')).toThrow(/DUET_NO_ELEMENT: simulateEvent: nothing matches ".nothing" in the rendered view: <form>/)
    t.dispose()
    expect(() => t!.simulateAction('NAME', 'x')).toThrow(/DUET_DISPOSED/)
  })

  it('checks its options once, naming the option', () => {
    expect(() => renderComponent(Form, { drivers: { MCP: {} as any } })).toThrow(/DUET_BAD_OPTION: renderComponent: drivers.MCP/)
    expect(() => renderComponent(Form, { timeoutMs: -1 })).toThrow(/DUET_BAD_OPTION: renderComponent: timeoutMs/)
    expect(() => renderComponent({} as any)).toThrow(/DUET_BAD_OPTION: run\/renderComponent: the app must be a component function/)
  })

  it('waitForState searches the history, then waits for later flushes', async () => {
    t = renderComponent(Form)
    await t.simulateAction('NAME', 'first')
    await t.simulateAction('NAME', 'second')
    expect(await t.waitForState((s) => s.name === 'first')).toMatchObject({ name: 'first' })
    const later = t.waitForState((s) => s.name === 'third')
    queueMicrotask(() => t!.simulateAction('NAME', 'third'))
    await expect(later).resolves.toMatchObject({ name: 'third' })
    expect(t.html()).toContain('<p class="status">idle</p>')
  })

  it('waitForState times out with the last state in the message', async () => {
    t = renderComponent(Form, { initialState: { ...Form.initialState, name: 'Zed' } })
    await expect(t.waitForState((s) => s.name === 'never', 50)).rejects.toThrow(/DUET_WAIT_TIMEOUT: .*within 50 ms; last state: \{"name":"Zed"/)
  })

  it('uses real drivers when given, records what they were sent, and still fakes the others', async () => {
    let pushInput: (v: unknown) => void = () => {}
    const mcp: Driver = (sink$) => {
      sink$.subscribe({ next: (req) => reply(req, 'ok', { content: [] }) })
      return { select: (name: string) => (name === 'tool-input' ? Stream.create({ start: (l) => { pushInput = (v) => l.next(v) }, stop() {} }) : Stream.never()) }
    }
    t = renderComponent(Form, { drivers: { MCP: mcp } })
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
      sink$.subscribe({ complete: () => { completed = true } })
      return {}
    }
    t = renderComponent(Form, { drivers: { SPY: spy } })
    const waiting = t.waitForState(() => false, 10_000)
    t.dispose()
    await expect(waiting).rejects.toThrow(/DUET_DISPOSED/)
    expect(completed).toBe(true)
  })
})
