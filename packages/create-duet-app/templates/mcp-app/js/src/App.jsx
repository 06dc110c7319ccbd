// the view of the get_forecast tool
//
// The theme follows the host without code here: the MCP driver puts the host's theme on <html> as
// data-theme and its style variables as CSS custom properties, and styles.css is written against them.
function App({ state }) {
  return (
    <main>
      <h1>{state.city ? `Forecast for ${state.city}` : 'Forecast'}</h1>
      <p role="status">{state.status === 'loading' ? 'Loading…' : ''}</p>
      <ul className="days">
        {state.days.map((day) => (
          <li key={day.date}>
            <button type="button" className="day" data={{ date: day.date }} aria-pressed={day.date === state.selected}>
              {day.date}: {day.sky}, {day.high}° / {day.low}°
            </button>
          </li>
        ))}
      </ul>
      <button type="button" className="refresh" disabled={!state.city}>
        Refresh
      </button>
      <button type="button" className="ask" disabled={!state.selected}>
        Ask about this day
      </button>
      {state.canFullscreen ? (
        <button type="button" className="fullscreen">
          {state.displayMode === 'fullscreen' ? 'Exit full screen' : 'Full screen'}
        </button>
      ) : null}
    </main>
  )
}

App.initialState = { city: '', days: [], selected: null, status: 'waiting', displayMode: 'inline', canFullscreen: false }

App.intent = ({ DOM, MCP }) => ({
  INPUT: MCP.select('tool-input'), // the arguments the model called the tool with
  RESULT: MCP.select('tool-result'), // the server tool's result
  CONTEXT: MCP.select('host-context-changed'), // theme, display modes, size… after every change
  REFRESH: DOM.click('.refresh'),
  PICK: DOM.click('.day').data('date'),
  ASK: DOM.click('.ask'),
  FULLSCREEN: DOM.click('.fullscreen'),
})

App.model = {
  INPUT: (state, args) => ({ ...state, city: args.city ?? state.city, status: 'loading' }),
  RESULT: (state, result) => ({ ...state, status: 'ready', days: result.structuredContent?.days ?? [], selected: null }),
  // offer full screen only where the host has it
  CONTEXT: (state, context) => ({
    ...state,
    displayMode: context.displayMode ?? state.displayMode,
    canFullscreen: (context.availableDisplayModes ?? []).includes('fullscreen'),
  }),
  // call the server's tool again from the view; the result comes back as RESULT
  REFRESH: {
    STATE: (state) => ({ ...state, status: 'loading' }),
    MCP: (state) => ({ callTool: 'get_forecast', args: { city: state.city }, ok: 'RESULT' }),
  },
  // tell the model what the user picked: it reads it on its next turn
  PICK: {
    STATE: (state, date) => ({ ...state, selected: date }),
    MCP: (state, date) => ({ updateModelContext: { city: state.city, selectedDay: state.days.find((d) => d.date === date) } }),
  },
  // post a message to the conversation, as the user
  ASK: { MCP: (state) => ({ message: `What should I pack for ${state.city} on ${state.selected}?` }) },
  // the host answers with the mode it chose, which may not be the one asked for
  FULLSCREEN: { MCP: (state) => ({ displayMode: state.displayMode === 'fullscreen' ? 'inline' : 'fullscreen', ok: 'DISPLAY_MODE' }) },
  DISPLAY_MODE: (state, { mode }) => ({ ...state, displayMode: mode }),
}

export default App
