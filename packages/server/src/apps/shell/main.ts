// The display shell: the one `ui://` page behind display_ui_to_user, display_component and load_app.
// It shows what the tool call carries (a fragment, or a compiled component) and gives it the Duet MCP
// client. Bundled into the page by the server (display-shell.ts); runs only in the host's iframe.
import * as duet from 'duetkit'
import * as jsxRuntime from 'duetkit/jsx-runtime'
import * as mcp from 'duetkit/mcp'
import { agentChannel, channelOfResult, toolErrorText, type AgentChannelFactory } from 'duetkit/mcp'
import { isObject, type JsonObject } from 'duetkit/protocol'
import type { Component } from 'duetkit'
import { createShellApi } from './api.js'
import { channelInText } from './channel-in-text.js'
import { showFragment, runScript } from './fragment.js'
import { COMPONENT_SCRIPT_NAME, HTML_META_KEY, MOUNT_GLOBAL, SHARED_MODULES_GLOBAL } from './globals.js'
import { createSharedDriver } from './shared-driver.js'
import { mapStack, sourceMapper, type SourcePlace } from './source-map.js'

const root = document.getElementById('duet-root')!
const status = document.getElementById('duet-status')!
const problem = document.getElementById('duet-error')!

// The result's channel, where a host left it; from the tool's text when the host dropped both
// structuredContent and _meta.
function channelOf(result: JsonObject): string | undefined {
  const named = channelOfResult(result)
  if (named) return named
  const blocks = Array.isArray(result.content) ? result.content : []
  for (const block of blocks) {
    const id = isObject(block) && typeof block.text === 'string' ? channelInText(block.text) : undefined
    if (id) return id
  }
  return undefined
}

/** agentChannel(), told the channel however the result carries it. */
const shellChannel: AgentChannelFactory = (options) => {
  const link = agentChannel()(options)
  return {
    ...link,
    onToolResult(result) {
      const id = channelOf(result)
      const shown = isObject(result.structuredContent) ? result.structuredContent : {}
      link.onToolResult(id && shown.channel_id !== id ? { ...result, structuredContent: { ...shown, channel_id: id } } : result)
    },
  }
}

const driver = createSharedDriver(
  {
    appInfo: { name: 'duet-display', version: '1.0.0' },
    availableDisplayModes: ['inline', 'fullscreen'],
    channel: shellChannel,
  },
  (message, data) => logFailure(message, data),
  () => channelId,
)

let channelId: string | undefined
let channelKnown!: (id: string) => void
const ready = new Promise<string>((resolve) => {
  channelKnown = resolve
})
const api = createShellApi(driver, { id: () => channelId, ready, onSendFailed: (message, data) => logFailure(message, data) })
;(window as any).duet = api
;(globalThis as any)[SHARED_MODULES_GLOBAL] = { duetkit: duet, 'duetkit/jsx-runtime': jsxRuntime, 'duetkit/mcp': mcp }

/** Shows a failure in the view and writes it to the server log with the channel id, once the id is known. */
function report(message: string, data?: Record<string, unknown>) {
  problem.textContent = message
  status.textContent = ''
  logFailure(message, data)
}

// The agent cannot see this iframe's console; the server log is where it looks, so every failure goes
// there with the channel id. A script may fail before the tool result names the channel: wait for it a while.
function logFailure(message: string, data?: Record<string, unknown>) {
  const named = channelId
    ? Promise.resolve(channelId)
    : Promise.race([ready, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 10_000))])
  named.then((id) => api.log('error', message, { ...data, ...(id && { channel_id: id }) })).catch(() => {})
}

/** Maps a place in the mounted component's compiled script to the agent's module (nothing before a mount). */
let toSource: (line: number, column: number) => SourcePlace | undefined = () => undefined

/** The log data of an error: the agent's line, column and text when it was thrown in the component's code. */
function placeOf(error: unknown, fallback?: { line: number; column: number }): { text: string; data: Record<string, unknown> } {
  const raw = error instanceof Error && error.stack ? error.stack : undefined
  const mapped = raw ? mapStack(raw, toSource) : undefined
  const at = mapped?.at ?? (fallback ? toSource(fallback.line, fallback.column) : undefined)
  const data: Record<string, unknown> = at ? { line: at.line, column: at.column, lineText: at.lineText } : fallback ? { ...fallback } : {}
  if (mapped) data.stack = mapped.stack.slice(0, 2000)
  return { text: at ? ` (line ${at.line}, column ${at.column}: ${at.lineText.trim()})` : '', data }
}

window.addEventListener('error', (e) => {
  const fromComponent = typeof e.filename === 'string' && e.filename.endsWith(COMPONENT_SCRIPT_NAME)
  const { text, data } = placeOf(e.error, fromComponent ? { line: e.lineno, column: e.colno } : undefined)
  report(`Script error: ${e.message}${text}`, fromComponent || text ? data : { line: e.lineno, column: e.colno, ...data })
})
window.addEventListener('unhandledrejection', (e) => report(`Unhandled rejection: ${e.reason instanceof Error ? e.reason.message : String(e.reason)}`))

// The Duet runtime reports a component's thrown view, intent or model on console.error ("[duet] …")
// and shows a fallback; the agent hears of it through the log.
const consoleError = console.error.bind(console)
console.error = (...args: unknown[]) => {
  consoleError(...args)
  const [first, ...rest] = args
  if (typeof first === 'string' && first.startsWith('[duet]')) {
    const error = rest.find((a) => a instanceof Error) as Error | undefined
    const { text, data } = placeOf(error)
    logFailure(`Component error: ${first.slice(7)}${error ? `: ${error.message}` : ''}${text}`, error?.stack ? data : undefined)
  }
}

let shownHtml: string | undefined
let mounted = false

function showHtml(html: string) {
  if (mounted || html === shownHtml) return
  shownHtml = html
  status.textContent = ''
  // A fragment that brings its own look turns the default stylesheet off (shell-page.ts).
  const own = /\sdata-duet-style\s*=\s*["']?none\b/i.test(html)
  if (own) document.documentElement.setAttribute('data-duet-style', 'none')
  else document.documentElement.removeAttribute('data-duet-style')
  showFragment(root, html).catch((err: Error) => report(`Could not show the fragment: ${err.message}`))
}

function mountComponent(script: string, props: Record<string, unknown>) {
  if (mounted) return
  mounted = true
  status.textContent = ''
  toSource = sourceMapper(script)
  ;(globalThis as any)[MOUNT_GLOBAL] = (Component: Component) => {
    if (typeof Component !== 'function') return report("The component module's default export is not a view function.")
    duet.run(Component, { MCP: driver.forComponent }, { mountPoint: root, props })
  }
  runScript(document, script)
}

driver.source.select('tool-input').addListener({
  next: (args: JsonObject) => {
    if (typeof args.html === 'string' && args.html !== '') showHtml(args.html)
  },
})

/** Asks the server what this render shows (app-only get_render): a component always, anything a host dropped. */
async function fetchRender(id: string): Promise<void> {
  const result = (await driver.request({ callTool: 'get_render', args: { channel_id: id } })) as { structuredContent?: unknown }
  const shown = isObject(result.structuredContent) ? result.structuredContent : {}
  if (typeof shown.title === 'string') document.title = shown.title
  if (shown.kind === 'component' && typeof shown.script === 'string') return mountComponent(shown.script, isObject(shown.props) ? shown.props : {})
  if (typeof shown.html === 'string') return showHtml(shown.html)
  status.textContent = 'Nothing to show: the server has no app for this render.'
}

driver.source.select('tool-result').addListener({
  next(result) {
    const id = channelOf(result as unknown as JsonObject)
    if (id && !channelId) {
      channelId = id
      channelKnown(id)
    }
    if (result.isError === true) return report(toolErrorText(result))
    const shown = isObject(result.structuredContent) ? result.structuredContent : {}
    if (typeof shown.title === 'string') document.title = shown.title
    const meta = isObject(result._meta) ? result._meta[HTML_META_KEY] : undefined
    const html = typeof shown.html === 'string' ? shown.html : typeof meta === 'string' ? meta : undefined
    if (html !== undefined) return showHtml(html)
    // A fragment already came with the tool input; everything else is fetched by the channel.
    if (shownHtml !== undefined || mounted) return
    if (!id) {
      status.textContent = 'Nothing to show: the tool result carried no app and no channel.'
      return
    }
    status.textContent = 'Loading the app…'
    fetchRender(id).catch((err: Error) => report(`Could not load the app from the server: ${err.message}`))
  },
})
