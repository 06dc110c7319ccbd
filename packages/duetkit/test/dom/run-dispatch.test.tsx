// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest'
import { run, type Component } from 'duetkit'
import { codedError } from '../../../../test/support/coded-error.js'

// A duetkit app hosted in a page that is not (yet) all duetkit: the page's own code hands it actions.
const Log: Component<{ lines: string[] }> = ({ state }) => (
  <ul>
    {state.lines.map((l) => (
      <li>{l}</li>
    ))}
  </ul>
)
Log.initialState = { lines: [] }
Log.model = { ADD: (state, line) => ({ lines: [...state.lines, line as string] }) }

describe('RunningApp.dispatch', () => {
  it('runs an action on the root component and resolves once it is rendered', async () => {
    document.body.innerHTML = '<div id="root"></div>'
    const app = run(Log)
    await app.dispatch('ADD', 'one')
    await app.dispatch('ADD', 'two')
    expect(document.querySelector('ul')?.textContent).toBe('onetwo')
    app.dispose()
  })

  it('refuses an action after dispose, saying so', async () => {
    document.body.innerHTML = '<div id="root"></div>'
    const app = run(Log)
    app.dispose()
    await expect(app.dispatch('ADD', 'late')).rejects.toThrow(codedError('DISPOSED', /ADD was not dispatched/))
  })
})
