// The forecast card written with the official ext-apps App and plain DOM, for comparison.
import { App, applyDocumentTheme, applyHostFonts, applyHostStyleVariables } from '@modelcontextprotocol/ext-apps'
import '../../../../../examples/forecast/src/styles.css'

const state = { city: '', days: [], selected: null, status: 'waiting', displayMode: 'inline', canFullscreen: false }
const root = document.getElementById('root')
const app = new App({ name: 'forecast', version: '1.0.0' })

function render() {
  const main = document.createElement('main')
  const h1 = document.createElement('h1')
  h1.textContent = state.city ? `Forecast for ${state.city}` : 'Forecast'
  const status = document.createElement('p')
  status.setAttribute('role', 'status')
  status.textContent = state.status === 'loading' ? 'Loading…' : ''
  const list = document.createElement('ul')
  list.className = 'days'
  for (const day of state.days) {
    const li = document.createElement('li')
    const b = document.createElement('button')
    b.type = 'button'
    b.className = 'day'
    b.setAttribute('aria-pressed', String(day.date === state.selected))
    b.textContent = `${day.date}: ${day.sky}, ${day.high}° / ${day.low}°`
    b.onclick = () => {
      state.selected = day.date
      render()
      app.updateModelContext({ structuredContent: { city: state.city, selectedDay: day } })
    }
    li.append(b)
    list.append(li)
  }
  const refresh = document.createElement('button')
  refresh.type = 'button'
  refresh.className = 'refresh'
  refresh.textContent = 'Refresh'
  refresh.disabled = !state.city
  refresh.onclick = async () => {
    state.status = 'loading'
    render()
    onResult(await app.callServerTool({ name: 'get_forecast', arguments: { city: state.city } }))
  }
  const ask = document.createElement('button')
  ask.type = 'button'
  ask.className = 'ask'
  ask.textContent = 'Ask about this day'
  ask.disabled = !state.selected
  ask.onclick = () => app.sendMessage({ role: 'user', content: [{ type: 'text', text: `What should I pack for ${state.city} on ${state.selected}?` }] })
  main.append(h1, status, list, refresh, ask)
  // The same full-screen button as the Duet view, so both do the same work.
  if (state.canFullscreen) {
    const full = document.createElement('button')
    full.type = 'button'
    full.className = 'fullscreen'
    full.textContent = state.displayMode === 'fullscreen' ? 'Exit full screen' : 'Full screen'
    full.onclick = async () => {
      const { mode } = await app.requestDisplayMode({ mode: state.displayMode === 'fullscreen' ? 'inline' : 'fullscreen' })
      state.displayMode = mode
      render()
    }
    main.append(full)
  }
  root.replaceChildren(main)
}

function onResult(result) {
  Object.assign(state, { status: 'ready', days: result.structuredContent?.days ?? [], selected: null })
  render()
}

function applyContext(ctx) {
  state.displayMode = ctx?.displayMode ?? state.displayMode
  state.canFullscreen = (ctx?.availableDisplayModes ?? []).includes('fullscreen')
  render()
  if (ctx?.theme) applyDocumentTheme(ctx.theme)
  if (ctx?.styles?.variables) applyHostStyleVariables(ctx.styles.variables)
  if (ctx?.styles?.css?.fonts) applyHostFonts(ctx.styles.css.fonts)
}

app.ontoolinput = ({ arguments: args }) => {
  Object.assign(state, { city: args?.city ?? state.city, status: 'loading' })
  render()
}
app.ontoolresult = onResult
app.onhostcontextchanged = () => applyContext(app.getHostContext())
render()
app.connect().then(() => applyContext(app.getHostContext()))
