// The forecast card with no framework and no SDK: plain DOM and a hand-written MCP Apps client over
// postMessage, with the Duet view's features (theme, size reports, tool input and result, refresh,
// model context, message, download, full screen, the picked day kept per view instance). The floor
// bench:mcp judges Duet's size and start-up against.
import '../../../../../examples/forecast/src/styles.css'

// --- the client: JSON-RPC requests with ids, notifications, the handshake ---
const host = window.parent
const pending = new Map()
let nextId = 0
const post = (message) => host.postMessage({ jsonrpc: '2.0', ...message }, '*')
const request = (method, params) =>
  new Promise((resolve, reject) => {
    const id = nextId++
    pending.set(id, { resolve, reject })
    post({ id, method, params })
  })
const notify = (method, params) => post({ method, params })
const handlers = {}
window.addEventListener('message', ({ source, data }) => {
  if (source !== host || data?.jsonrpc !== '2.0') return
  if (data.method === undefined) {
    const p = pending.get(data.id)
    pending.delete(data.id)
    if (data.error) p?.reject(new Error(data.error.message))
    else p?.resolve(data.result)
  } else if (data.id !== undefined)
    post({ id: data.id, result: {} }) // ping, teardown: nothing to wait for
  else handlers[data.method]?.(data.params ?? {})
})
let context = {}
function applyContext(partial) {
  context = { ...context, ...partial }
  const root = document.documentElement
  if (context.theme) root.dataset.theme = context.theme
  for (const [k, v] of Object.entries(context.styles?.variables ?? {})) if (v) root.style.setProperty(k, v)
  state.displayMode = context.displayMode ?? state.displayMode
  state.canFullscreen = (context.availableDisplayModes ?? []).includes('fullscreen')
  render()
}
handlers['ui/notifications/host-context-changed'] = applyContext

// --- the card ---
const state = { city: '', days: [], selected: null, status: 'waiting', displayMode: 'inline', canFullscreen: false, offers: {} }
let viewUUID
// A sandbox without allow-same-origin throws on any localStorage use: the day is then not kept.
const stored = (f) => {
  try {
    return f(localStorage)
  } catch {
    return null
  }
}
const keep = () => viewUUID && stored((s) => s.setItem(`floor:${viewUUID}`, JSON.stringify(state.selected)))
const button = (className, text, disabled, onclick) =>
  Object.assign(document.createElement('button'), { type: 'button', className, textContent: text, disabled, onclick })

function render() {
  const main = document.createElement('main')
  const h1 = Object.assign(document.createElement('h1'), { textContent: state.city ? `Forecast for ${state.city}` : 'Forecast' })
  const status = Object.assign(document.createElement('p'), { textContent: state.status === 'loading' ? 'Loading…' : '' })
  status.setAttribute('role', 'status')
  const list = Object.assign(document.createElement('ul'), { className: 'days' })
  for (const day of state.days) {
    const b = button('day', `${day.date}: ${day.sky}, ${day.high}° / ${day.low}°`, false, () => {
      state.selected = day.date
      keep()
      render()
      if (state.offers.updateModelContext) request('ui/update-model-context', { structuredContent: { city: state.city, selectedDay: day } })
    })
    b.setAttribute('aria-pressed', String(day.date === state.selected))
    const li = document.createElement('li')
    li.append(b)
    list.append(li)
  }
  main.append(h1, status, list)
  main.append(
    button('refresh', 'Refresh', !state.city, async () => {
      state.status = 'loading'
      render()
      onResult(await request('tools/call', { name: 'get_forecast', arguments: { city: state.city } }))
    }),
  )
  const ask = `What should I pack for ${state.city} on ${state.selected}?`
  if (state.offers.message)
    main.append(button('ask', 'Ask about this day', !state.selected, () => request('ui/message', { role: 'user', content: [{ type: 'text', text: ask }] })))
  if (state.offers.downloadFile) {
    const text = JSON.stringify({ city: state.city, days: state.days }, null, 2)
    const resource = { uri: `file:///forecast-${state.city}.json`, mimeType: 'application/json', text }
    main.append(button('download', 'Download', state.days.length === 0, () => request('ui/download-file', { contents: [{ type: 'resource', resource }] })))
  }
  if (state.canFullscreen) {
    const next = state.displayMode === 'fullscreen' ? 'inline' : 'fullscreen'
    main.append(
      button('fullscreen', state.displayMode === 'fullscreen' ? 'Exit full screen' : 'Full screen', false, async () => {
        state.displayMode = (await request('ui/request-display-mode', { mode: next })).mode
        render()
      }),
    )
  }
  document.getElementById('root').replaceChildren(main)
}

function onResult(result) {
  Object.assign(state, { status: 'ready', days: result.structuredContent?.days ?? [], selected: null })
  const id = result._meta?.viewUUID
  if (id && id !== viewUUID) {
    viewUUID = id
    state.selected = JSON.parse(stored((s) => s.getItem(`floor:${id}`)) ?? 'null')
  }
  render()
}
handlers['ui/notifications/tool-input'] = ({ arguments: args }) => {
  Object.assign(state, { city: args?.city ?? state.city, status: 'loading' })
  render()
}
handlers['ui/notifications/tool-result'] = onResult

render()
request('ui/initialize', {
  protocolVersion: '2026-01-26',
  appInfo: { name: 'forecast-floor', version: '1.0.0' },
  appCapabilities: { availableDisplayModes: ['inline', 'fullscreen'] },
}).then((result) => {
  state.offers = result.hostCapabilities ?? {}
  notify('ui/notifications/initialized')
  applyContext(result.hostContext ?? {})
  new ResizeObserver(() =>
    notify('ui/notifications/size-changed', { width: document.documentElement.scrollWidth, height: document.documentElement.scrollHeight }),
  ).observe(document.documentElement)
})
