import { it, expect, afterEach } from 'vitest'
import { renderComponent } from 'duetkit'
import App from './App.jsx'

let t
afterEach(() => t?.dispose())

const days = [
  { date: 'Mon', sky: 'Sunny', high: 21, low: 14 },
  { date: 'Tue', sky: 'Showers', high: 17, low: 12 },
]

// what a host that offers everything answers at the handshake
const everything = {
  hostInfo: { name: 'Host', version: '1' },
  protocolVersion: '2026-01-26',
  hostCapabilities: { updateModelContext: {}, message: {}, downloadFile: {} },
}

it('shows the result, refreshes, and tells the model what the user picked', async () => {
  t = renderComponent(App)
  t.simulateAction('HOST', everything)
  t.simulateAction('INPUT', { city: 'Oslo' })
  t.simulateAction('RESULT', { content: [], structuredContent: { city: 'Oslo', days } })
  await t.waitForState((s) => s.status === 'ready')

  t.simulateEvent('.refresh', 'click')
  expect(t.requests('MCP').at(-1)).toMatchObject({ callTool: 'get_forecast', args: { city: 'Oslo' }, ok: 'RESULT', error: 'FAILED' })
  await t.respond('MCP', { content: [], structuredContent: { city: 'Oslo', days: days.slice(1) } }, 'RESULT')
  expect(t.state.days).toEqual(days.slice(1))

  t.simulateEvent('.day', 'click', { data: { date: 'Tue' } })
  await t.waitForState((s) => s.selected === 'Tue')
  expect(t.requests('MCP').at(-1)).toEqual({ updateModelContext: { city: 'Oslo', selectedDay: days[1] } })
})

it('after a refresh, tells the model the old pick is gone', async () => {
  t = renderComponent(App)
  t.simulateAction('HOST', everything)
  t.simulateAction('INPUT', { city: 'Oslo' })
  await t.simulateAction('RESULT', { content: [], structuredContent: { city: 'Oslo', days } })
  await t.simulateEvent('.day', 'click', { data: { date: 'Tue' } })
  await t.simulateEvent('.refresh', 'click')
  await t.respond('MCP', { content: [], structuredContent: { city: 'Oslo', days } }, 'RESULT')
  expect(t.state.selected).toBe(null)
  expect(t.requests('MCP').at(-1)).toEqual({ updateModelContext: { city: 'Oslo', selectedDay: null } })
})

it('offers model context, questions and downloads only when the host has them', async () => {
  t = renderComponent(App)
  await t.simulateAction('HOST', { ...everything, hostCapabilities: {} })
  t.simulateAction('INPUT', { city: 'Oslo' })
  await t.simulateAction('RESULT', { content: [], structuredContent: { city: 'Oslo', days } })
  expect(t.html()).not.toContain('Ask about this day')
  expect(t.html()).not.toContain('Download')
  const before = t.requests('MCP').length
  await t.simulateEvent('.day', 'click', { data: { date: 'Tue' } })
  expect(t.state.selected).toBe('Tue')
  expect(t.requests('MCP')).toHaveLength(before)

  await t.simulateAction('HOST', everything)
  expect(t.html()).toContain('Ask about this day')
  await t.simulateEvent('.download', 'click')
  expect(t.requests('MCP').at(-1)).toMatchObject({ downloadFile: { uri: 'file:///forecast-Oslo.json', mimeType: 'application/json' } })
})

it('shows a failed tool result (isError) as an error, not an empty card', async () => {
  t = renderComponent(App)
  t.simulateAction('INPUT', { city: 'x'.repeat(101) })
  await t.simulateAction('RESULT', { content: [{ type: 'text', text: 'city: Too big: expected string to have <=100 characters' }], isError: true })
  expect(t.state.status).toBe('error')
  expect(t.html()).toMatch(/<p class="error" role="alert">city: Too big/)
  expect(t.html()).not.toContain('<li')

  // a refresh that fails comes back as FAILED, with the driver's error text
  await t.simulateAction('RESULT', { content: [], structuredContent: { city: 'Oslo', days } })
  expect(t.html()).not.toContain('role="alert"')
  await t.simulateEvent('.refresh', 'click')
  await t.fail('MCP', 'The host did not answer tools/call within 60000 ms (option timeoutMs)', 'FAILED')
  expect(t.html()).toContain('The host did not answer tools/call')
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
