// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest'
import { component, run, type RunningApp } from 'duetkit'
import { renderComponent } from 'duetkit/testing'

let app: RunningApp | undefined
afterEach(() => {
  app?.dispose()
  app = undefined
})

interface State {
  submitted: number
  fields: Record<string, string>
  last: Record<string, string>
}

// A form of many fields read by one stream (each field names itself), submitted without loading a page.
const Form = component<State>()(
  function Form({ state }) {
    return (
      <form className="f">
        <input className="field" data-name="city" data-kind="text" value={state.fields.city ?? ''} />
        <select className="field" data-name="units">
          <option value="metric">metric</option>
          <option value="imperial">imperial</option>
        </select>
        <button type="button" className="pick" data={{ server: 's1', tool: 'get_forecast' }}>
          <span className="inner" data-tool="inner wins">
            pick
          </span>
        </button>
        <button type="submit">go</button>
        <output>{state.submitted}</output>
      </form>
    )
  },
  {
    initialState: { submitted: 0, fields: {}, last: {} },
    intent: ({ DOM }) => ({
      FIELD: DOM.input('.field').control(),
      UNITS: DOM.change('.field').control(),
      PICK: DOM.click('.pick').dataset(),
      SUBMIT: DOM.submit('form', { preventDefault: true }).mapTo(null),
    }),
    model: {
      FIELD: (s, c) => ({ ...s, fields: { ...s.fields, [c.data.name]: c.value }, last: c.data }),
      UNITS: (s, c) => ({ ...s, fields: { ...s.fields, [c.data.name]: c.value } }),
      PICK: (s, data) => ({ ...s, last: data }),
      SUBMIT: (s) => ({ ...s, submitted: s.submitted + 1 }),
    },
  },
)

describe('DOM source: control(), dataset() and preventDefault', () => {
  it('in the browser: prevents the submit, reads each field with its name, and every data-* of a click, nearest first', async () => {
    document.body.innerHTML = '<div id="root"></div>'
    app = run(Form)
    const input = document.querySelector<HTMLInputElement>('input.field')!
    input.value = 'Oslo'
    input.dispatchEvent(new Event('input', { bubbles: true }))
    const select = document.querySelector<HTMLSelectElement>('select.field')!
    select.value = 'imperial'
    select.dispatchEvent(new Event('change', { bubbles: true }))
    document.querySelector('.inner')!.dispatchEvent(new MouseEvent('click', { bubbles: true }))
    const submit = new Event('submit', { bubbles: true, cancelable: true })
    document.querySelector('form')!.dispatchEvent(submit)
    await app.dispatch('SUBMIT')
    expect(submit.defaultPrevented).toBe(true)
    expect(document.querySelector('output')!.textContent).toBe('2')
    expect(input.value).toBe('Oslo')
    expect(select.value).toBe('imperial')
  })

  it('in renderComponent: the same streams, and a prevented default', async () => {
    const t = renderComponent(Form)
    await t.simulateEvent('input.field', 'input', { value: 'Lisbon' })
    expect(t.state.fields).toEqual({ city: 'Lisbon' })
    expect(t.state.last).toEqual({ name: 'city', kind: 'text' })
    await t.simulateEvent('select.field', 'change', { value: 'metric' })
    expect(t.state.fields.units).toBe('metric')
    await t.simulateEvent('.inner', 'click')
    expect(t.state.last).toEqual({ tool: 'inner wins', server: 's1' })
    await t.simulateEvent('form', 'submit')
    expect(t.state.submitted).toBe(1)
  })
})

describe('DOM source: data() and dataset() read names an object inherits too', () => {
  it('reads data-constructor and data-to-string like any other data-* attribute', async () => {
    interface Seen {
      one: string | undefined
      all: Record<string, string>
    }
    const Named = component<Seen>()(
      () => (
        <button type="button" className="go" data-constructor="ctor" data-to-string="text">
          go
        </button>
      ),
      {
        initialState: { one: undefined, all: {} },
        intent: ({ DOM }) => ({ ONE: DOM.click('.go').data('constructor'), ALL: DOM.click('.go').dataset() }),
        model: { ONE: (s, one) => ({ ...s, one }), ALL: (s, all) => ({ ...s, all }) },
      },
    )
    const t = renderComponent(Named)
    await t.simulateEvent('.go', 'click')
    expect(t.state.one).toBe('ctor')
    expect(t.state.all).toEqual({ constructor: 'ctor', toString: 'text' })
  })
})
