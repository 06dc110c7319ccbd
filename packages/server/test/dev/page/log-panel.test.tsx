import { renderComponent } from 'duetkit'
import { describe, expect, it } from 'vitest'
import { LogList } from '../../../src/dev/page/log-panel.js'

describe('LogList (the Tool input, Tool result, Model context, Messages and Logs panels)', () => {
  const render = () => renderComponent(LogList, { props: { title: 'Logs', testid: 'logs', open: true } })

  it('lists entries newest last, strings as they are and values as indented JSON', async () => {
    const t = render()
    await t.simulateAction('ADD', { label: 'app log (info)', value: 'started' })
    await t.simulateAction('ADD', { label: 'result', value: { city: 'Oslo' } })
    const html = t.html()
    expect(html).toContain('<summary>Logs</summary>')
    expect(html).toContain('data-testid="logs"')
    expect(html.indexOf('started')).toBeLessThan(html.indexOf('&quot;city&quot;: &quot;Oslo&quot;'))
  })

  it("SET replaces every entry, CLEAR empties it, CLEAR_OWNED drops only one owner's entries", async () => {
    const t = render()
    await t.simulateAction('ADD', { label: 'server log', value: 'kept' })
    await t.simulateAction('ADD', { label: 'view: uncaught exception (error)', value: 'boom', owner: 'view' })
    await t.simulateAction('CLEAR_OWNED', 'view')
    expect(t.state.entries.map((e) => e.value)).toEqual(['kept'])
    await t.simulateAction('SET', { label: 'latest context', value: { a: 1 } })
    expect(t.state.entries.map((e) => e.label)).toEqual(['latest context'])
    await t.simulateAction('CLEAR')
    expect(t.state.entries).toEqual([])
    expect(t.html()).not.toContain('class="entry"')
  })
})
