import { getToolUiResourceUri, type McpUiHostContext } from '@modelcontextprotocol/ext-apps/app-bridge'
import type { CallToolResult, Tool } from '@modelcontextprotocol/client'
import { type ActionsOf, type AnyComponent, run, type RunningApp, type StateOf } from 'duetkit'
import { hostStyleVariables } from '../host-styles.js'
import { presetById } from '../presets.js'
import type { ChatEvent } from '../model/chat-events.js'
import { diagnosticLabel } from '../view-diagnostics.js'
import { agentPanel } from './agent-panel.js'
import { fetchState, rpc, subscribe, type ServerView } from './api.js'
import { mountApp, type MountedApp } from './app-frame.js'
import { listPrompts, listResources } from './browse.js'
import { mountChat } from './chat/mount-chat.js'
import { download } from './download.js'
import { Header, type HeaderRequest, type HostSettings } from './Header.js'
import { Layout } from './Layout.js'
import { makePageDriver } from './page-driver.js'
import { logPanel, type TraceEntry } from './panels.js'
import { PromptList, type PromptListRequest } from './PromptList.js'
import { PromptView, promptViewState } from './PromptView.js'
import { readView } from './read-view.js'
import { ResourceList, type ResourceListRequest } from './ResourceList.js'
import { ResourceView, resourceViewState, templateViewState } from './ResourceView.js'
import { ServerBanner } from './ServerBanner.js'
import { ServerList, type ServerListRequest } from './ServerList.js'
import { SideTabs, type SideTabsRequest } from './SideTabs.js'
import { Stage, type StageRequest, type StageState } from './Stage.js'
import { partialSnapshots } from './stream-input.js'
import { ToolForm, toolFormState, type ToolFormRequest } from './ToolForm.js'
import { TracePanel, type TraceRequest } from './TracePanel.js'

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
let callAbort: AbortController | null = null
let queue: Promise<unknown> = Promise.resolve()
const serialize = (job: () => Promise<unknown>) => {
  queue = queue.then(job, job)
  return queue
}

// The page is several duetkit apps, one per part, each run in its place of the layout and handed the
// page's news with RunningApp.dispatch; what they ask of the page comes back through page drivers.
run(Layout, {}, { mountPoint: '#app' })
const place = (name: string): HTMLElement => document.querySelector<HTMLElement>(`[data-mount="${name}"]`)!

let settings: HostSettings = { ...(Header.initialState as HostSettings), locale: navigator.language || 'en-US' }
const header = run(Header, { PAGE: makePageDriver<HeaderRequest>(settingsChanged) }, { mountPoint: place('header'), initialState: settings })

const stage = run(Stage, { PAGE: makePageDriver<StageRequest>((r) => ('close' in r ? closeApp() : leaveFullscreen())) }, { mountPoint: place('stage') })
const setStage = (change: Partial<StageState>) => stage.dispatch('STAGE', change)
// The app's iframe goes here: an element the Stage renders and never touches inside.
const frameBox = () => place('stage').querySelector<HTMLElement>('.frame-box')!
const banner = run(ServerBanner, {}, { mountPoint: place('banner') })

// Panels
const inputPanel = logPanel(place('tool-input'), 'Tool input', 'tool-input')
const resultPanel = logPanel(place('tool-result'), 'Tool result', 'tool-result')
const contextPanel = logPanel(place('model-context'), 'Model context (ui/update-model-context)', 'model-context')
const messagesPanel = logPanel(place('messages'), 'Messages (ui/message)', 'messages')
const agent = agentPanel(
  place('agent'),
  () => servers,
  () => current?.server ?? selected?.server,
)
const logsPanel = logPanel(place('logs'), 'Logs', 'logs')
const trace = run(
  TracePanel,
  {
    PAGE: makePageDriver<TraceRequest>((r) => download(`duet-trace-${new Date().toISOString().replace(/[:.]/g, '-')}.json`, JSON.stringify(r.export, null, 2))),
  },
  { mountPoint: place('trace') },
)
const traceAdd = (entry: TraceEntry) => void trace.dispatch('ADD', { ...entry, at: Date.now() })

// The left column: tools, resources and prompts; the resources and prompts list afresh when shown.
run(
  SideTabs,
  { PAGE: makePageDriver<SideTabsRequest>(({ shown }) => tabShown(shown)) },
  {
    mountPoint: place('side'),
    initialState: {
      tabs: [
        { id: 'tools', label: 'Tools' },
        { id: 'resources', label: 'Resources' },
        { id: 'prompts', label: 'Prompts' },
      ],
      shown: 'tools',
    },
  },
)
const pane = (id: string) => place('side').querySelector(`[data-pane="${id}"]`)!
const serverApp = run(
  ServerList,
  { PAGE: makePageDriver<ServerListRequest>((r) => ('pick' in r ? selectTool(r.pick.server, r.pick.tool) : postToken(r.token))) },
  { mountPoint: pane('tools'), initialState: { servers, selected: null, tokens: {} } },
)
const resourceList = run(
  ResourceList,
  {
    PAGE: makePageDriver<ResourceListRequest>((r) =>
      'list' in r
        ? listResources(servers)
        : 'open' in r
          ? void showInArea(ResourceView, resourceViewState(r.open.server, r.open.resource)).dispatch('READ', null)
          : void showInArea(ResourceView, templateViewState(r.template.server, r.template.template)),
    ),
  },
  { mountPoint: pane('resources') },
)
const promptList = run(
  PromptList,
  {
    PAGE: makePageDriver<PromptListRequest>((r) =>
      'list' in r ? listPrompts(servers) : void showInArea(PromptView, promptViewState(r.open.server, r.open.prompt)),
    ),
  },
  { mountPoint: pane('prompts') },
)
function tabShown(id: string): void {
  if (id === 'resources') void resourceList.dispatch('REFRESH', null)
  if (id === 'prompts') void promptList.dispatch('REFRESH', null)
}

// The middle column shows one thing at a time: a tool's form, a resource, a template or a prompt.
let areaApp: RunningApp = run(() => <p>Pick a tool on the left.</p>, {}, { mountPoint: place('tool-area') })
// Resources and prompts ask their server through the dev server, as the person at the page.
const rpcDriver = () =>
  makePageDriver<{ rpc: { server: string; method: string; params: Record<string, unknown> } }>(({ rpc: r }) => rpc(r.server, r.method, r.params, 'user'))
function showInArea<C extends AnyComponent>(component: C, initialState: StateOf<C>): RunningApp<ActionsOf<C>> {
  areaApp.dispose()
  const app = run(component, { RPC: rpcDriver() }, { mountPoint: place('tool-area'), initialState })
  areaApp = app
  return app
}

// With --model, the chat (a duetkit app) heads the middle column; without, the page is as before.
const chatListeners: ((event: ChatEvent) => void)[] = [
  // A render the model made that names its channel moves the agent panel there, as a call from the form does.
  (event) => {
    const channel = event.kind === 'tool-result' ? (event.result as { structuredContent?: { channel_id?: unknown } }).structuredContent?.channel_id : undefined
    if (typeof channel === 'string' && channel) agent.setChannel(channel)
  },
]

const widthOf = () => Number(settings.width) || 600
const headerBottom = () => document.querySelector('header')?.getBoundingClientRect().bottom ?? 0
// The host bar's height: the app gets what is left of the window below the header and the bar.
const fullscreenTop = () => headerBottom() + (document.querySelector<HTMLElement>('[data-testid=host-bar]')?.offsetHeight ?? 0)

function hostContext(tool?: Tool): McpUiHostContext {
  const p = presetById(settings.preset)
  const mode = settings.display
  const containerDimensions =
    mode === 'fullscreen'
      ? { width: window.innerWidth, height: Math.max(0, window.innerHeight - fullscreenTop()) }
      : mode === 'pip'
        ? { width: 360, maxHeight: 480 }
        : { width: widthOf(), maxHeight: 6000 }
  return {
    theme: settings.theme,
    styles: { variables: hostStyleVariables() as NonNullable<McpUiHostContext['styles']>['variables'] },
    displayMode: mode,
    availableDisplayModes: p.availableDisplayModes,
    containerDimensions,
    locale: settings.locale,
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    platform: p.platform,
    userAgent: `duet-dev (${p.label})`,
    ...(tool ? { toolInfo: { tool } } : {}),
  }
}

// Resolves once the stage shows the mode: a full-screen app's height depends on the host bar being there.
async function applyLayout(): Promise<void> {
  await setStage({ display: settings.display, width: widthOf(), tool: current?.tool.name ?? '' })
  // Full screen covers the page below its header, so the header's controls stay reachable.
  document.documentElement.style.setProperty('--fs-top', `${headerBottom()}px`)
  document.documentElement.style.colorScheme = settings.theme
}

async function pushContext(): Promise<void> {
  await applyLayout()
  current?.app?.bridge.setHostContext(hostContext(current.tool))
}

function settingsChanged({ settings: next, changed }: HeaderRequest): void {
  settings = next
  // Capabilities are fixed at ui/initialize, so a different host means a fresh view.
  if (changed === 'preset') void applyLayout().then(() => current && serialize(() => remount('host preset changed')))
  else if (changed !== 'stream') void pushContext()
}

function setDisplay(mode: HostSettings['display']): void {
  settings = { ...settings, display: mode }
  void header.dispatch('SET_DISPLAY', mode)
  void pushContext()
}

function leaveFullscreen(): void {
  if (settings.display === 'fullscreen') setDisplay('inline')
}
// A resized window can rewrap the header and always changes what a full-screen app gets.
window.addEventListener('resize', () => {
  if (settings.display === 'fullscreen') void pushContext()
})
// Only while the host page has focus: keys typed inside the app's frame never reach it.
document.addEventListener('keydown', (e) => {
  if (e.key === 'Escape') leaveFullscreen()
})

function renderServers(): void {
  void serverApp.dispatch('SERVERS', servers)
  void serverApp.dispatch('SELECTED', selected)
  void banner.dispatch('SERVERS', servers)
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
  areaApp.dispose()
  areaApp = run(
    ToolForm,
    { PAGE: makePageDriver<ToolFormRequest>((r) => ('cancel' in r ? callAbort?.abort() : void callTool(server, tool, r.call))) },
    { mountPoint: place('tool-area'), initialState: toolFormState(tool) },
  )
  renderServers()
}

async function callTool(server: string, tool: Tool, args: Record<string, unknown>): Promise<void> {
  callAbort?.abort()
  const abort = new AbortController()
  callAbort = abort
  void setStage({ error: '' })
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
    frameBox().replaceChildren()
    await setStage({ border: meta.prefersBorder !== false, tool: c.tool.name })
    const app = await mountApp({
      container: frameBox(),
      sandboxUrl: `http://${location.hostname}:${state.sandboxPort}/sandbox.html`,
      server: c.server,
      html,
      csp: meta.csp,
      permissions: meta.permissions,
      preset: presetById(settings.preset),
      hostContext: hostContext(c.tool),
      hooks: {
        trace: traceAdd,
        log: (label, value) => logsPanel.add(label, value, 'view'),
        viewDiagnostic: (d) => logsPanel.add(diagnosticLabel(d), d.text, 'view'),
        message: (p) => messagesPanel.add('ui/message', p),
        modelContext: (p) => contextPanel.set('latest context', p),
        displayMode: (mode) => {
          if (!presetById(settings.preset).availableDisplayModes.includes(mode)) return settings.display
          setDisplay(mode)
          return mode
        },
        teardownRequested: () =>
          void serialize(async () => {
            await current?.app?.destroy()
            if (current) current.app = undefined
            await setStage({ hasApp: false })
          }),
      },
    })
    void setStage({ hasApp: true })
    // The spec: nothing goes to the view before it says it is initialized. A view that never does
    // (a broken build) must not hold up the next render, so give up after a while and say why.
    const started = await Promise.race([app.initialized.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), INIT_TIMEOUT_MS))])
    if (!started) {
      c.app = app
      throw new Error(
        `the app did not send ui/notifications/initialized within ${INIT_TIMEOUT_MS / 1000} s; ${app.lastError ? `the view's last error: ${app.lastError}` : 'see the logs and the trace'}`,
      )
    }
    if (settings.stream) for (const partial of partialSnapshots(c.args)) await app.bridge.sendToolInputPartial({ arguments: partial })
    await app.bridge.sendToolInput({ arguments: c.args })
    // From here on callTool delivers the outcome itself; one that came in earlier is delivered now.
    c.app = app
    // This view rendered: a banner of an earlier attempt (a read between two quick saves) is stale now.
    void setStage({ error: '' })
    if (c.result) await app.bridge.sendToolResult(c.result)
    else if (c.cancelled) await app.bridge.sendToolCancelled({ reason: c.cancelled })
  } catch (err) {
    void setStage({ error: `Could not render ${c.uri}: ${(err as Error).message}` })
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

function closeApp(): Promise<unknown> {
  return serialize(async () => {
    await current?.app?.destroy()
    current = null
    frameBox().replaceChildren()
    await setStage({ hasApp: false, tool: '' })
  })
}

subscribe({
  state: (e: { state: ServerView }) => {
    // A server that stays down reports the same state on every retry: redrawing it would wipe a token
    // being typed into its field.
    const before = servers.find((s) => s.id === e.state.id)
    if (before && JSON.stringify(before) === JSON.stringify(e.state)) return
    servers = servers.map((s) => (s.id === e.state.id ? e.state : s))
    renderServers()
  },
  trace: (e: { server: string; dir: 'host->server' | 'server->host'; message: unknown }) => traceAdd({ dir: e.dir, server: e.server, message: e.message }),
  log: (e: { server: string; source: string; level: string; data: unknown }) => logsPanel.add(`${e.server} ${e.source} (${e.level})`, e.data),
  chat: (e: { event: ChatEvent }) => {
    for (const listener of chatListeners) listener(e.event)
  },
  // A render that failed while a build was writing the view (two quick saves) is tried again once a build
  // is written, even one whose view is unchanged and so raises no resource-changed.
  'view-built': () =>
    void serialize(async () => {
      if (current && !current.app) await remount('the view was rebuilt')
    }),
  'resource-changed': (e: { server: string; uri: string }) => {
    if (current && current.server === e.server && current.uri === e.uri) void serialize(() => remount('the view changed on the server'))
  },
})

void applyLayout()
renderServers()
if (state.chat)
  mountChat({
    container: place('chat'),
    model: state.chat.model,
    sandboxPort: state.sandboxPort,
    servers: () => servers,
    preset: () => presetById(settings.preset),
    hostContext,
    onEvent: (listener) => chatListeners.push(listener),
    hooks: {
      trace: traceAdd,
      log: (label, value) => logsPanel.add(label, value),
      viewDiagnostic: (d) => logsPanel.add(diagnosticLabel(d), d.text),
      message: (p) => messagesPanel.add('ui/message (chat)', p),
      modelContext: (p) => contextPanel.set('latest context (chat)', p),
    },
  })
;(window as unknown as { __duetDev: unknown }).__duetDev = { ready: true }
