// The seed's test, verbatim but for `sygnal` → `duet` in the import.
import { it, expect, afterEach } from 'vitest'
import { renderComponent } from 'duetkit'
import App from './App.jsx'

let t
afterEach(() => t?.dispose())

const days = [
  { date: 'Mon', sky: 'Sunny', high: 21, low: 14 },
  { date: 'Tue', sky: 'Showers', high: 17, low: 12 },
]

it('shows the result, refreshes, and tells the model what the user picked', async () => {
  t = renderComponent(App)
  t.simulateAction('INPUT', { city: 'Oslo' })
  t.simulateAction('RESULT', { content: [], structuredContent: { city: 'Oslo', days } })
  await t.waitForState((s) => s.status === 'ready')

  t.simulateEvent('.refresh', 'click')
  expect(t.requests('MCP').at(-1)).toMatchObject({ callTool: 'get_forecast', args: { city: 'Oslo' }, ok: 'RESULT' })
  await t.respond('MCP', { content: [], structuredContent: { city: 'Oslo', days: days.slice(1) } }, 'RESULT')
  expect(t.state.days).toEqual(days.slice(1))

  t.simulateEvent('.day', 'click', { data: { date: 'Tue' } })
  await t.waitForState((s) => s.selected === 'Tue')
  expect(t.requests('MCP').at(-1)).toEqual({ updateModelContext: { city: 'Oslo', selectedDay: days[1] } })
})
