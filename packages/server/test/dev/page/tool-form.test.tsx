import { renderComponent } from 'duetkit'
import { describe, expect, it } from 'vitest'
import { ToolForm, toolFormState } from '../../../src/dev/page/ToolForm.js'

const tool = {
  name: 'show_counter',
  description: 'Shows a counter',
  inputSchema: {
    type: 'object',
    properties: {
      label: { type: 'string', description: 'What to count' },
      page_html: { type: 'string' },
      start: { type: 'integer', default: 2 },
      units: { type: 'string', enum: ['metric', 'imperial'] },
      loud: { type: 'boolean' },
      strict: { type: 'boolean' },
    },
    required: ['label', 'strict'],
  },
}
const render = () => renderComponent(ToolForm, { initialState: toolFormState(tool) })

describe('ToolForm (a tool’s form)', () => {
  it('labels every control with its name, required mark and kind, and starts each at its schema default', () => {
    const html = render().html()
    for (const name of ['label', 'page_html', 'start', 'units', 'loud', 'strict']) {
      expect(html).toMatch(new RegExp(`<label title="[^"]*" for="tool-field-${name}"><span>${name}`))
      expect(html).toContain(`id="tool-field-${name}"`)
    }
    expect(html).toContain('<span>label * (text)</span><textarea')
    expect(html).toContain('<textarea id="tool-field-page_html" class="field code"')
    expect(html).toMatch(/<input id="tool-field-start" class="field" type="text"[^>]*value="2"/)
    expect(html).toContain('<input id="tool-field-strict" class="field" type="checkbox"')
    expect(html).toMatch(/data-testid="field-units"><option value="">—<\/option>/)
    expect(html).toContain('<label><span>arguments (JSON)</span><textarea')
  })

  it('asks the page to call with the parsed arguments, and refuses (saying why, sending nothing) what does not parse', async () => {
    const t = render()
    await t.simulateEvent('.call', 'click')
    expect(t.requests('PAGE')).toEqual([])
    expect(t.html()).toContain('label is required')
    await t.simulateEvent('[data-testid=field-label]', 'input', { value: 'two\nlines' })
    await t.simulateEvent('[data-testid=field-start]', 'input', { value: '2.5' })
    await t.simulateEvent('.call', 'click')
    expect(t.html()).toContain('start must be a whole number, got 2.5')
    await t.simulateEvent('[data-testid=field-start]', 'input', { value: '4' })
    await t.simulateEvent('[data-testid=field-units]', 'change', { value: 'imperial' })
    await t.simulateEvent('[data-testid=field-strict]', 'change', { checked: true })
    await t.simulateEvent('.call', 'click')
    expect(t.requests('PAGE')).toEqual([{ call: { label: 'two\nlines', start: 4, units: 'imperial', strict: true } }])
    expect(t.state.errors).toEqual([])
    await t.simulateEvent('.cancel', 'click')
    expect(t.requests('PAGE').at(-1)).toEqual({ cancel: true })
  })

  it('switches to raw JSON keeping what is typed, flags invalid JSON inline, and goes back only when the form can show it', async () => {
    const t = render()
    await t.simulateEvent('[data-testid=field-label]', 'input', { value: 'pears' })
    await t.simulateEvent('[data-testid=field-start]', 'input', { value: 'not a number' })
    await t.simulateEvent('.args-mode', 'click')
    expect(JSON.parse(t.state.json)).toEqual({ label: 'pears', start: 'not a number', strict: false })
    expect(t.html()).toMatch(/<form class="tool-form" hidden/)
    await t.simulateEvent('.args-json', 'input', { value: '{"label": "plums",' })
    expect(t.state.jsonError).toMatch(/not valid JSON/)
    await t.simulateEvent('.call', 'click')
    expect(t.requests('PAGE')).toEqual([])
    await t.simulateEvent('.args-json', 'input', { value: '{"label": "plums", "bogus": 1}' })
    await t.simulateEvent('.args-mode', 'click')
    expect(t.state.raw).toBe(true)
    expect(t.state.jsonError).toContain('bogus is not in the tool')
    await t.simulateEvent('.args-json', 'input', { value: '{"label": "plums", "start": 4, "loud": true}' })
    await t.simulateEvent('.call', 'click')
    expect(t.requests('PAGE')).toEqual([{ call: { label: 'plums', start: 4, loud: true } }])
    await t.simulateEvent('.args-mode', 'click')
    expect(t.state.raw).toBe(false)
    expect(t.state.values).toMatchObject({ label: 'plums', start: '4', loud: 'true', strict: false })
    expect(t.html()).toMatch(/<option value="true" selected>true<\/option>/)
  })

  it('says when a tool takes no arguments', () => {
    const t = renderComponent(ToolForm, { initialState: toolFormState({ name: 'ping', inputSchema: { type: 'object' } }) })
    expect(t.html()).toContain('This tool takes no arguments.')
  })
})
