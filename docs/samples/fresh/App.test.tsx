// A re-mount replays an old result; the view shows it, asks its tool again, and shows the fresh answer.
import { renderComponent } from 'duetkit'
import { afterEach, expect, it } from 'vitest'
import { App } from './App'

let t: ReturnType<typeof renderComponent<typeof App>> | undefined
afterEach(() => t?.dispose())

it('calls its tool again on mount and lets the fresh answer replace the replayed one', async () => {
  t = renderComponent(App)
  await t.simulateAction('INPUT', { queue: 'billing' })
  expect(t.requests('MCP').at(-1)).toEqual({ callTool: 'show_queue', args: { queue: 'billing' }, ok: 'FRESH', error: 'FAILED' })

  // The host replays the result of the original call, counted long ago.
  const old = { queue: 'billing', waiting: 12, countedAt: '2026-01-05T09:00:00.000Z' }
  await t.simulateAction('RESULT', { content: [], structuredContent: old })
  expect(t.html()).toContain('12 waiting')
  expect(t.html()).toContain('(refreshing)')

  const fresh = { queue: 'billing', waiting: 3, countedAt: '2026-01-05T15:30:00.000Z' }
  await t.simulateAction('FRESH', { content: [], structuredContent: fresh })
  expect(t.html()).toContain('3 waiting')
  expect(t.html()).not.toContain('(refreshing)')

  // A replay that arrives after the fresh answer does not bring the old count back.
  await t.simulateAction('RESULT', { content: [], structuredContent: old })
  expect(t.state.waiting).toBe(3)
})
