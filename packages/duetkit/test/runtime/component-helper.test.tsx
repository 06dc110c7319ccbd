import { afterEach, describe, expect, it } from 'vitest'
import { component, renderComponent, type NoProps, type Drivers } from 'duetkit'

let current: { dispose(): void } | undefined
const track = <T extends { dispose(): void }>(rendered: T): T => {
  current = rendered
  return rendered
}
afterEach(() => {
  current?.dispose()
  current = undefined
})

interface State {
  picked: string | null
  mode: string
}

// Typed end to end by component(); at run time it is the view with its statics.
const Picker = component<State, NoProps, Drivers, { SHOWN: { mode: string } }>()(
  function Picker({ state }) {
    return (
      <div>
        <button type="button" className="day" data={{ date: 'Tue' }}>
          Tue
        </button>
        <p className="picked">{state.picked ?? '-'}</p>
        <p className="mode">{state.mode}</p>
      </div>
    )
  },
  {
    initialState: { picked: null, mode: 'inline' },
    intent: ({ DOM }) => ({ PICK: DOM.click('.day').data('date') }),
    model: {
      PICK: {
        STATE: (state, date) => ({ ...state, picked: date }),
        MCP: () => ({ displayMode: 'fullscreen', ok: 'SHOWN' }),
      },
      SHOWN: (state, { mode }) => ({ ...state, mode }),
    },
  },
)

describe('component()', () => {
  it('returns the view function itself, keeping its name, with the statics assigned', () => {
    expect(Picker.name).toBe('Picker')
    expect(Picker.initialState).toEqual({ picked: null, mode: 'inline' })
    expect(typeof Picker.intent).toBe('function')
    expect(Object.keys(Picker.model ?? {})).toEqual(['PICK', 'SHOWN'])
  })

  it('runs like any component: intent actions reach the model, and replies reach the extra action', async () => {
    const t = track(renderComponent(Picker))
    await t.simulateEvent('.day', 'click')
    expect(t.state.picked).toBe('Tue')
    expect(t.requests('MCP')).toEqual([{ displayMode: 'fullscreen', ok: 'SHOWN' }])
    await t.respond('MCP', { mode: 'fullscreen' }, 'SHOWN')
    expect(t.html()).toContain('<p class="mode">fullscreen</p>')
  })
})
