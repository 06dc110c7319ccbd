import { getToolUiResourceUri, type McpUiHostContext } from '@modelcontextprotocol/ext-apps/app-bridge'
import type { CallToolResult, Tool } from '@modelcontextprotocol/client'
import { hostStyleVariables } from '../host-styles.js'
import { HOST_PRESETS, presetById } from '../presets.js'
import { agentPanel } from './agent-panel.js'
import { fetchState, rpc, subscribe, type ServerView } from './api.js'
import { mountApp, type MountedApp } from './app-frame.js'
import { h } from './dom.js'
import { toolForm } from './form-view.js'
import { logPanel } from './panels.js'
import { promptsTab } from './prompts-tab.js'
import { resourcesTab } from './resources-tab.js'
import { sideTabs } from './side-tabs.js'
import { partialSnapshots } from './stream-input.js'
import { diagnosticLabel } from '../view-diagnostics.js'
import { tracePanel } from './trace-view.js'
import { readView } from './read-view.js'
import type { ChatEvent } from '../model/chat-events.js'
import { mountChat } from './chat/mount-chat.js'
import { run } from 'duetkit'
import { makePageDriver } from './page-driver.js'
import { ServerList, type ServerListRequest } from './ServerList.js'

type Mode = 'inline' | 'fullscreen' | 'pip'

const INIT_TIMEOUT_MS = 15_000

/** The call whose app is on screen; kept so a reload can replay input and result into a fresh view. */
interface Current {
  server: string
  tool: Tool
  args: Record<string, unknown>
  uri: string
  result?: CallToolResult
  cancelled?: string
  app?: MountedApp
}

const state = await fetchState()
let servers: ServerView[] = state.servers
let selected: { server: string; tool: string } | null = null
let current: Current | null = null
let form: ReturnType<typeof toolForm> | null = null
let callAbort: AbortController | null = null
let queue: Promise<unknown> = Promise.resolve()
const serialize = (job: () => Promise<unknown>) => {
  queue = queue.then(job, job)
  return queue
}

// Controls
const preset = h('select', { 'data-testid': 'preset-select' }, ...HOST_PRESETS.map((p) => h('option', { value: p.id }, p.label)))
const theme = h('select', { 'data-testid': 'theme-select' }, h('option', { value: 'light' }, 'light'), h('option', { value: 'dark' }, 'dark'))
const display = h(
  'select',
  { 'data-testid': 'display-select' },
  h('option', { value: 'inline' }, 'inline'),
  h('option', { value: 'fullscreen' }, 'full screen'),
  h('option', { value: 'pip' }, 'picture-in-picture'),
)
const width = h('input', { type: 'number', min: '200', max: '1600', step: '10', value: '600', 'data-testid': 'width-input' })
const locale = h('input', { value: navigator.language || 'en-US', size: '7', 'data-testid': 'locale-input' })
const stream = h('input', { type: 'checkbox', 'data-testid': 'stream-input' })

// Panels
const inputPanel = logPanel('Tool input', 'tool-input')
const resultPanel = logPanel('Tool result', 'tool-result')
const contextPanel = logPanel('Model context (ui/update-model-context)', 'model-context')
const messagesPanel = logPanel('Messages (ui/message)', 'messages')
const logsPanel = logPanel('Logs', 'logs')
const trace = tracePanel()
const agent = agentPanel(
  () => servers,
  () => current?.server ?? selected?.server,
)

// The server list is a duetkit app (ServerList); the page hands it the servers and hears picks and tokens.
const serverList = h('div')
const serverApp = run(
  ServerList,
  { PAGE: makePageDriver<ServerListRequest>((r) => ('pick' in r ? selectTool(r.pick.server, r.pick.tool) : postToken(r.token))) },
  { mountPoint: serverList, initialState: { servers, selected: null, tokens: {} } },
)
const toolArea = h('div', { 'data-testid': 'tool-area' }, h('p', {}, 'Pick a tool on the left.'))
const banner = h('div', { 'data-testid': 'server-banner' })
const stageError = h('div', { 'data-testid': 'stage-error' })
const frameBox = h('div', { class: 'frame-box' })
// What a host shows around a full-screen app: the way back (Escape works too).
const exitFullscreen = h('button', { type: 'button', 'data-testid': 'exit-fullscreen' }, 'Exit full screen')
const hostBarTitle = h('span', {})
const hostBar = h('div', { class: 'host-bar', 'data-testid': 'host-bar' }, hostBarTitle, exitFullscreen)
const stage = h('div', { id: 'stage', 'data-testid': 'stage' }, hostBar, frameBox)
// With --model, the chat (a duetkit app) heads the middle column; without, the page is as before.
const chatBox = h('div', { 'data-testid': 'chat-box' })
const chatListeners: ((event: ChatEvent) => void)[] = [
  // A render the model made that names its channel moves the agent panel there, as a call from the form does.
  (event) => {
    const channel = event.kind === 'tool-result' ? (event.result as { structuredContent?: { channel_id?: unknown } }).structuredContent?.channel_id : undefined
    if (typeof channel === 'string' && channel) agent.setChannel(channel)
  },
]
const closeButton = h('button', { type: 'button', 'data-testid': 'close-app' }, 'Close app')
// Resources and prompts open in the middle column, where a tool's form goes.
const browse = { servers: () => servers, show: (el: HTMLElement) => toolArea.replaceChildren(el) }
const resourcesBrowser = resourcesTab(browse)
const promptsBrowser = promptsTab(browse)

document.getElementById('app')!.append(
  h(
    'header',
    {},
    h('h1', {}, 'duet dev'),
    h('label', {}, 'Host ', preset),
    h('label', {}, 'Theme ', theme),
    h('label', {}, 'Display ', display),
    h('label', {}, 'Width ', width),
    h('label', {}, 'Locale ', locale),
    h('label', {}, stream, 'stream input'),
  ),
  h(
    'main',
    {},
    h(
      'section',
      {},
      sideTabs([
        { id: 'tools', label: 'Tools', element: h('div', {}, h('h2', {}, 'Servers'), serverList) },
        { id: 'resources', label: 'Resources', element: resourcesBrowser.element, onShow: () => void resourcesBrowser.refresh() },
        { id: 'prompts', label: 'Prompts', element: promptsBrowser.element, onShow: () => void promptsBrowser.refresh() },
      ]),
    ),
    h('section', {}, chatBox, banner, toolArea, stageError, stage, closeButton, inputPanel.element, resultPanel.element),
    h('section', {}, contextPanel.element, messagesPanel.element, agent.element, logsPanel.element, trace.element),
  ),
)

function hostContext(tool?: Tool): McpUiHostContext {
  const p = presetById(preset.value)
  const mode = display.value as Mode
  const w = Number(width.value) || 600
  const containerDimensions =
    mode === 'fullscreen'
      ? { width: window.innerWidth, height: Math.max(0, window.innerHeight - fullscreenTop()) }
      : mode === 'pip'
        ? { width: 360, maxHeight: 480 }
        : { width: w, maxHeight: 6000 }
  return {
    theme: theme.value as 'light' | 'dark',
    styles: { variables: hostStyleVariables() as NonNullable<McpUiHostContext['styles']>['variables'] },
    displayMode: mode,
    availableDisplayModes: p.availableDisplayModes,
    containerDimensions,
    locale: locale.value,
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    platform: p.platform,
    userAgent: `duet-dev (${p.label})`,
    ...(tool ? { toolInfo: { tool } } : {}),
  }
}

function applyLayout(): void {
  // Only the display modes the chosen host offers can be picked, as in that host.
  const modes = presetById(preset.value).availableDisplayModes as string[]
  for (const option of Array.from(display.options)) option.disabled = !modes.includes(option.value)
  stage.className = display.value
  // Full screen covers the page below its header, so the header's controls stay reachable.
  document.documentElement.style.setProperty('--fs-top', `${document.querySelector('header')?.getBoundingClientRect().bottom ?? 0}px`)
  hostBarTitle.textContent = current ? `${current.tool.name} — full screen` : 'full screen'
  frameBox.style.width = display.value === 'inline' ? `${Number(width.value) || 600}px` : ''
  document.documentElement.style.colorScheme = theme.value
}

function pushContext(): void {
  applyLayout()
  current?.app?.bridge.setHostContext(hostContext(current.tool))
}

for (const el of [theme, display, width, locale]) el.addEventListener('change', pushContext)
function leaveFullscreen(): void {
  if (display.value !== 'fullscreen') return
  display.value = 'inline'
  pushContext()
}
exitFullscreen.addEventListener('click', leaveFullscreen)
// A resized window can rewrap the header and always changes what a full-screen app gets.
window.addEventListener('resize', () => {
  if (display.value === 'fullscreen') pushContext()
})
// Only while the host page has focus: keys typed inside the app's frame never reach it.
document.addEventListener('keydown', (e) => {
  if (e.key === 'Escape') leaveFullscreen()
})
// The host bar's height: the app gets what is left of the window below the header and the bar.
function fullscreenTop(): number {
  return (document.querySelector('header')?.getBoundingClientRect().bottom ?? 0) + hostBar.offsetHeight
}
preset.addEventListener('change', () => {
  // Capabilities are fixed at ui/initialize, so a different host means a fresh view.
  const modes = presetById(preset.value).availableDisplayModes
  if (!modes.includes(display.value as Mode)) display.value = 'inline'
  applyLayout()
  if (current) void serialize(() => remount('host preset changed'))
})

function renderServers(): void {
  void serverApp.dispatch('SERVERS', servers)
  void serverApp.dispatch('SELECTED', selected)
  const down = servers.filter((s) => s.status === 'error')
  banner.replaceChildren(...down.map((s) => h('div', { class: 'error-banner' }, `Server ${s.label} is unreachable: ${s.error}. duet dev keeps retrying.`)))
}

// The token field's request: the dev server keeps the token and connects again; a refusal names the server first.
async function postToken({ server, token }: { server: string; token: string }): Promise<{ server: string }> {
  const res = await fetch('/api/token', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ server, token }) })
  if (!res.ok) throw new Error(`${server}: ${((await res.json()) as { error?: { message?: string } }).error?.message ?? `HTTP ${res.status}`}`)
  return { server }
}

function selectTool(server: string, name: string): void {
  selected = { server, tool: name }
  const tool = servers.find((s) => s.id === server)?.tools.find((t) => t.name === name)
  if (!tool) return
  form = toolForm(tool.inputSchema)
  const call = h('button', { type: 'button', 'data-testid': 'call-button' }, 'Call tool')
  const cancel = h('button', { type: 'button', 'data-testid': 'cancel-button' }, 'Cancel')
  const errors = h('div', { 'data-testid': 'form-errors' })
  call.addEventListener('click', () => {
    const read = form!.read()
    if (!read.ok) {
      errors.replaceChildren(...read.errors.map((e) => h('div', { class: 'status error' }, e)))
      return
    }
    errors.replaceChildren()
    void callTool(server, tool, read.args)
  })
  cancel.addEventListener('click', () => callAbort?.abort())
  toolArea.replaceChildren(h('h2', {}, name), h('p', {}, tool.description ?? ''), form.element, errors, call, ' ', cancel)
  renderServers()
}

async function callTool(server: string, tool: Tool, args: Record<string, unknown>): Promise<void> {
  callAbort?.abort()
  const abort = new AbortController()
  callAbort = abort
  stageError.replaceChildren()
  inputPanel.set('arguments', args)
  // A render that names its channel in its input (a saved app reloaded on one) moves the agent panel too.
  if (typeof args.channel_id === 'string' && args.channel_id) agent.setChannel(args.channel_id)
  resultPanel.clear()
  const pending = rpc<CallToolResult>(server, 'tools/call', { name: tool.name, arguments: args }, 'user', abort.signal)
  const uri = getToolUiResourceUri(tool)
  if (uri) {
    await serialize(async () => {
      await current?.app?.destroy()
      current = { server, tool, args, uri }
      forgetOldView()
      await mountCurrent()
    })
  }
  try {
    const result = await pending
    resultPanel.set(result.isError ? 'result (isError)' : 'result', result)
    const channel = (result.structuredContent as { channel_id?: unknown } | undefined)?.channel_id
    if (typeof channel === 'string' && channel) agent.setChannel(channel)
    if (current?.tool === tool && current.args === args) {
      current.result = result
      current.app?.bridge.sendToolResult(result)
    }
  } catch (err) {
    const reason = abort.signal.aborted ? 'cancelled by the user' : (err as Error).message
    resultPanel.set('cancelled', reason)
    if (current?.tool === tool && current.args === args) {
      current.cancelled = reason
      current.app?.bridge.sendToolCancelled({ reason })
    }
  }
}

// Reads the tool's ui:// resource and renders it, then replays the input and any known outcome.
async function mountCurrent(): Promise<void> {
  const c = current
  if (!c) return
  try {
    const { html, meta } = await readView(c.server, c.uri)
    frameBox.replaceChildren()
    frameBox.style.borderStyle = meta.prefersBorder === false ? 'none' : ''
    const app = await mountApp({
      container: frameBox,
      sandboxUrl: `http://${location.hostname}:${state.sandboxPort}/sandbox.html`,
      server: c.server,
      html,
      csp: meta.csp,
      permissions: meta.permissions,
      preset: presetById(preset.value),
      hostContext: hostContext(c.tool),
      hooks: {
        trace: (e) => trace.add(e),
        log: (label, value) => logsPanel.add(label, value, 'view'),
        viewDiagnostic: (d) => logsPanel.add(diagnosticLabel(d), d.text, 'view'),
        message: (p) => messagesPanel.add('ui/message', p),
        modelContext: (p) => contextPanel.set('latest context', p),
        displayMode: (mode) => {
          if (!presetById(preset.value).availableDisplayModes.includes(mode)) return display.value as Mode
          display.value = mode
          pushContext()
          return mode
        },
        teardownRequested: () =>
          void serialize(async () => {
            await current?.app?.destroy()
            if (current) current.app = undefined
          }),
      },
    })
    // The spec: nothing goes to the view before it says it is initialized. A view that never does
    // (a broken build) must not hold up the next render, so give up after a while and say why.
    const started = await Promise.race([app.initialized.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), INIT_TIMEOUT_MS))])
    if (!started) {
      c.app = app
      throw new Error(
        `the app did not send ui/notifications/initialized within ${INIT_TIMEOUT_MS / 1000} s; ${app.lastError ? `the view's last error: ${app.lastError}` : 'see the logs and the trace'}`,
      )
    }
    if (stream.checked) for (const partial of partialSnapshots(c.args)) await app.bridge.sendToolInputPartial({ arguments: partial })
    await app.bridge.sendToolInput({ arguments: c.args })
    // From here on callTool delivers the outcome itself; one that came in earlier is delivered now.
    c.app = app
    if (c.result) await app.bridge.sendToolResult(c.result)
    else if (c.cancelled) await app.bridge.sendToolCancelled({ reason: c.cancelled })
  } catch (err) {
    stageError.replaceChildren(h('div', { class: 'error-banner' }, `Could not render ${c.uri}: ${(err as Error).message}`))
  }
}

async function remount(why: string): Promise<void> {
  if (!current) return
  await current.app?.destroy()
  current.app = undefined
  forgetOldView()
  logsPanel.add('reload', `${why}: ${current.uri}`)
  await mountCurrent()
}

// A fresh view starts with empty panels: context, messages and logs of the old one would pass for its own.
function forgetOldView(): void {
  contextPanel.clear()
  messagesPanel.clear()
  logsPanel.clearOwned('view')
}

closeButton.addEventListener(
  'click',
  () =>
    void serialize(async () => {
      await current?.app?.destroy()
      current = null
      frameBox.replaceChildren()
    }),
)

subscribe({
  state: (e: { state: ServerView }) => {
    // A server that stays down reports the same state on every retry: redrawing it would wipe a token
    // being typed into its field.
    const before = servers.find((s) => s.id === e.state.id)
    if (before && JSON.stringify(before) === JSON.stringify(e.state)) return
    servers = servers.map((s) => (s.id === e.state.id ? e.state : s))
    renderServers()
  },
  trace: (e: { server: string; dir: 'host->server' | 'server->host'; message: unknown }) => trace.add({ dir: e.dir, server: e.server, message: e.message }),
  log: (e: { server: string; source: string; level: string; data: unknown }) => logsPanel.add(`${e.server} ${e.source} (${e.level})`, e.data),
  chat: (e: { event: ChatEvent }) => {
    for (const listener of chatListeners) listener(e.event)
  },
  'resource-changed': (e: { server: string; uri: string }) => {
    if (current && current.server === e.server && current.uri === e.uri) void serialize(() => remount('the view changed on the server'))
  },
})

applyLayout()
renderServers()
if (state.chat)
  mountChat({
    container: chatBox,
    model: state.chat.model,
    sandboxPort: state.sandboxPort,
    servers: () => servers,
    preset: () => presetById(preset.value),
    hostContext,
    onEvent: (listener) => chatListeners.push(listener),
    hooks: {
      trace: (e) => trace.add(e),
      log: (label, value) => logsPanel.add(label, value),
      viewDiagnostic: (d) => logsPanel.add(diagnosticLabel(d), d.text),
      message: (p) => messagesPanel.add('ui/message (chat)', p),
      modelContext: (p) => contextPanel.set('latest context (chat)', p),
    },
  })
;(window as unknown as { __duetDev: unknown }).__duetDev = { ready: true }
