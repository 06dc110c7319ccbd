// The seed's forecast view, verbatim: the conformance fixture for the runtime (issue 2). The
// forecast example has grown from it (full screen, theme); this copy must stay as the seed wrote it.
// the view of the get_forecast tool
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
    </main>
  )
}

App.initialState = { city: '', days: [], selected: null, status: 'waiting' }

App.intent = ({ DOM, MCP }) => ({
  INPUT: MCP.select('tool-input'), // the arguments the model called the tool with
  RESULT: MCP.select('tool-result'), // the server tool's result
  REFRESH: DOM.click('.refresh'),
  PICK: DOM.click('.day').data('date'),
  ASK: DOM.click('.ask'),
})

App.model = {
  INPUT: (state, args) => ({ ...state, city: args.city ?? state.city, status: 'loading' }),
  RESULT: (state, result) => ({ ...state, status: 'ready', days: result.structuredContent?.days ?? [], selected: null }),
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
}

export default App
