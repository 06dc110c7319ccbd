// the view of the get_forecast tool
//
// The theme follows the host without code here: the MCP driver puts the host's theme on <html> as
// data-theme and its style variables as CSS custom properties, and styles.css is written against them.
function App({ state }) {
  const { offers } = state
  return (
    <main>
      <h1>{state.city ? `Forecast for ${state.city}` : 'Forecast'}</h1>
      <p role="status">{state.status === 'loading' ? 'Loading…' : ''}</p>
      {state.error ? (
        <p role="alert" className="error">
          {state.error}
        </p>
      ) : null}
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
      {offers.message ? (
        <button type="button" className="ask" disabled={!state.selected}>
          Ask about this day
        </button>
      ) : null}
      {offers.download ? (
        <button type="button" className="download" disabled={state.days.length === 0}>
          Download
        </button>
      ) : null}
      {offers.fullscreen ? (
        <button type="button" className="fullscreen">
          {state.displayMode === 'fullscreen' ? 'Exit full screen' : 'Full screen'}
        </button>
      ) : null}
    </main>
  )
}

App.initialState = {
  city: '',
  days: [],
  selected: null,
  status: 'waiting',
  error: null,
  displayMode: 'inline',
  // what the host offers: nothing until its handshake says otherwise
  offers: { fullscreen: false, context: false, message: false, download: false },
}

// the picked day survives the host re-mounting the view (chat switched, reload); a new tool call starts fresh
App.persist = ['selected']

App.intent = ({ DOM, MCP }) => ({
  HOST: MCP.select('host'), // what the host offers, from its handshake
  INPUT: MCP.select('tool-input'), // the arguments the model called the tool with
  RESULT: MCP.select('tool-result'), // the server tool's result
  CONTEXT: MCP.select('host-context-changed'), // theme, display modes, size… after every change
  REFRESH: DOM.click('.refresh'),
  PICK: DOM.click('.day').data('date'),
  ASK: DOM.click('.ask'),
  DOWNLOAD: DOM.click('.download'),
  FULLSCREEN: DOM.click('.fullscreen'),
})

App.model = {
  HOST: (state, { hostCapabilities }) => ({
    ...state,
    offers: { ...state.offers, context: !!hostCapabilities.updateModelContext, message: !!hostCapabilities.message, download: !!hostCapabilities.downloadFile },
  }),
  INPUT: (state, args) => ({ ...state, city: args.city ?? state.city, status: 'loading', error: null }),
  // a tool that failed (isError) says why in its text: show that, not an empty card
  RESULT: {
    STATE: (state, result) =>
      result.isError
        ? { ...state, status: 'error', error: errorText(result), days: [], selected: null }
        : { ...state, status: 'ready', error: null, days: result.structuredContent?.days ?? [], selected: null },
    // new days clear the pick: the model must not go on reading the old day as the user's choice
    MCP: (state) => (state.selected && state.offers.context ? { updateModelContext: { city: state.city, selectedDay: null } } : undefined),
  },
  FAILED: (state, { error }) => ({ ...state, status: 'error', error }),
  // offer full screen only where the host has it
  CONTEXT: (state, context) => ({
    ...state,
    displayMode: context.displayMode ?? state.displayMode,
    offers: { ...state.offers, fullscreen: (context.availableDisplayModes ?? []).includes('fullscreen') },
  }),
  // call the server's tool again from the view; the result comes back as RESULT, a failure as FAILED
  REFRESH: {
    STATE: (state) => ({ ...state, status: 'loading' }),
    MCP: (state) => ({ callTool: 'get_forecast', args: { city: state.city }, ok: 'RESULT', error: 'FAILED' }),
  },
  // tell the model what the user picked, where the host takes model context: it reads it on its next turn
  PICK: {
    STATE: (state, date) => ({ ...state, selected: date }),
    MCP: (state, date) =>
      state.offers.context ? { updateModelContext: { city: state.city, selectedDay: state.days.find((d) => d.date === date) } } : undefined,
  },
  // post a message to the conversation, as the user
  ASK: { MCP: (state) => ({ message: `What should I pack for ${state.city} on ${state.selected}?` }) },
  // hand the forecast to the user as a file, through the host
  DOWNLOAD: {
    MCP: (state) => ({
      downloadFile: {
        uri: `file:///forecast-${state.city}.json`,
        mimeType: 'application/json',
        text: JSON.stringify({ city: state.city, days: state.days }, null, 2),
      },
    }),
  },
  // the host answers with the mode it chose, which may not be the one asked for
  FULLSCREEN: { MCP: (state) => ({ displayMode: state.displayMode === 'fullscreen' ? 'inline' : 'fullscreen', ok: 'DISPLAY_MODE' }) },
  DISPLAY_MODE: (state, { mode }) => ({ ...state, displayMode: mode }),
}

function errorText(result) {
  const texts = (result.content ?? []).filter((block) => block.type === 'text').map((block) => block.text)
  return texts.join('\n') || 'The forecast could not be made'
}

export default App
