// simulateEvent drives the same delegation as a browser: value, checked, key and data travel with the event.
import { renderComponent } from 'duetkit'
import { afterEach, expect, it } from 'vitest'
import { Search } from './Search'

let t: ReturnType<typeof renderComponent<typeof Search>> | undefined
afterEach(() => t?.dispose())

it('reads values, checkboxes, keys, data attributes and custom events', async () => {
  t = renderComponent(Search)
  await t.simulateEvent('.query', 'input', { value: 'lisbon' })
  await t.simulateEvent('.exact', 'change', { checked: true })
  await t.simulateEvent('.query', 'keydown', { key: 'a' }) // not Enter: filtered out
  expect(t.state.searches).toEqual([])
  await t.simulateEvent('.query', 'keydown', { key: 'Enter' })
  expect(t.state).toMatchObject({ exact: true, searches: ['lisbon'], query: '' })

  await t.simulateEvent('.past', 'click', { data: { query: 'lisbon' } })
  expect(t.state.opened).toBe('lisbon')
  await t.simulateEvent('.search', 'clear-history')
  expect(t.state.searches).toEqual([])
  expect(t.html()).not.toContain('class="past"')
})
