// @vitest-environment happy-dom
import { afterEach, expect, it } from 'vitest'
import { component, run, type RunningApp } from 'duetkit'

let app: RunningApp | undefined
afterEach(() => app?.dispose())

const Pick = component<{ label: string }, Record<string, never>, Record<string, never>, { LABEL: string }>()(
  function Pick({ state }) {
    return (
      <select>
        <option value="">{state.label}</option>
        <option value="view">app ↔ host</option>
      </select>
    )
  },
  { initialState: { label: 'all' }, model: { LABEL: (_s, label) => ({ label }) } },
)

it('an <option value=""> keeps its empty value, which a fresh option would otherwise read from its text', async () => {
  document.body.innerHTML = '<div id="root"></div>'
  app = run(Pick)
  const first = () => document.querySelector('option')!
  expect(first().value).toBe('')
  expect(first().getAttribute('value')).toBe('')
  await app.dispatch('LABEL', 'everything')
  expect(first().value).toBe('')
})
