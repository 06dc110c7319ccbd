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

it('offers full screen only when the host has it, and shows the mode the host chose', async () => {
  t = renderComponent(App)
  await t.simulateAction('CONTEXT', { theme: 'dark', displayMode: 'inline', availableDisplayModes: ['inline'] })
  expect(t.html()).not.toContain('Full screen')

  await t.simulateAction('CONTEXT', { theme: 'dark', displayMode: 'inline', availableDisplayModes: ['inline', 'fullscreen'] })
  expect(t.html()).toContain('>Full screen</button>')
  await t.simulateEvent('.fullscreen', 'click')
  expect(t.requests('MCP').at(-1)).toEqual({ displayMode: 'fullscreen', ok: 'DISPLAY_MODE' })
  await t.respond('MCP', { mode: 'fullscreen' }, 'DISPLAY_MODE')
  expect(t.html()).toContain('>Exit full screen</button>')

  await t.simulateEvent('.fullscreen', 'click')
  expect(t.requests('MCP').at(-1)).toEqual({ displayMode: 'inline', ok: 'DISPLAY_MODE' })
  // a host may refuse and keep the view where it is
  await t.respond('MCP', { mode: 'fullscreen' }, 'DISPLAY_MODE')
  expect(t.state.displayMode).toBe('fullscreen')
})
