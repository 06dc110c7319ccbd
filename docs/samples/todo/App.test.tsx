// The view tested with no host and no browser: host events are simulated actions, DOM events simulated events.
import { renderComponent } from 'duetkit'
import { afterEach, expect, it } from 'vitest'
import { App } from './App'

let t: ReturnType<typeof renderComponent<typeof App>> | undefined
afterEach(() => t?.dispose())

it('fills the list from the tool result, adds a typed item and tells the model what is left', async () => {
  t = renderComponent(App)
  await t.simulateAction('RESULT', { content: [], structuredContent: { title: 'Trip', todos: [{ text: 'Tickets', done: false }] } })
  expect(t.html()).toContain('<h1>Trip</h1>')

  await t.simulateEvent('.draft', 'input', { value: 'Passport' })
  await t.simulateEvent('.add', 'click')
  expect(t.state.todos.map((todo) => todo.text)).toEqual(['Tickets', 'Passport'])
  expect(t.requests('MCP').at(-1)).toEqual({ updateModelContext: { left: ['Tickets', 'Passport'] } })

  await t.simulateEvent('.done', 'change', { data: { index: '0' } })
  expect(t.state.todos[0].done).toBe(true)
  expect(t.requests('MCP').at(-1)).toEqual({ updateModelContext: { left: ['Passport'] } })
})
