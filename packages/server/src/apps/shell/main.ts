// The display shell: the one `ui://` page behind display_ui_to_user, display_component and load_app.
// It shows what the tool call carries (a fragment, or a compiled component) and gives it the Duet MCP
// client. Bundled into the page by the server (display-shell.ts); runs only in the host's iframe.
import * as duet from 'duetkit'
import * as jsxRuntime from 'duetkit/jsx-runtime'
import * as mcp from 'duetkit/mcp'
import { agentChannel, channelOfResult, toolErrorText } from 'duetkit/mcp'
import { isObject, type JsonObject } from 'duetkit/protocol'
import type { Component } from 'duetkit'
import { createShellApi } from './api.js'
import { showFragment, runScript } from './fragment.js'
import { HTML_META_KEY, MOUNT_GLOBAL, SHARED_MODULES_GLOBAL } from './globals.js'
import { createSharedDriver } from './shared-driver.js'

const root = document.getElementById('duet-root')!
const status = document.getElementById('duet-status')!
const problem = document.getElementById('duet-error')!

const driver = createSharedDriver({
  appInfo: { name: 'duet-display', version: '1.0.0' },
  availableDisplayModes: ['inline', 'fullscreen'],
  channel: agentChannel(),
})

let channelId: string | undefined
let channelKnown!: (id: string) => void
const ready = new Promise<string>((resolve) => {
  channelKnown = resolve
})
const api = createShellApi(driver, { id: () => channelId, ready })
;(window as any).duet = api
;(globalThis as any)[SHARED_MODULES_GLOBAL] = { duetkit: duet, 'duetkit/jsx-runtime': jsxRuntime, 'duetkit/mcp': mcp }

function report(message: string, data?: Record<string, unknown>) {
  problem.textContent = message
  status.textContent = ''
  // The agent cannot see this iframe's console; the server log is where it looks.
  api.log('error', message, { ...data, ...(channelId && { channel_id: channelId }) }).catch(() => {})
}
window.addEventListener('error', (e) => report(`Script error: ${e.message}`, { line: e.lineno, column: e.colno }))
window.addEventListener('unhandledrejection', (e) => report(`Unhandled rejection: ${e.reason instanceof Error ? e.reason.message : String(e.reason)}`))

let shownHtml: string | undefined
let mounted = false

function showHtml(html: string) {
  if (mounted || html === shownHtml) return
  shownHtml = html
  status.textContent = ''
  showFragment(root, html).catch((err: Error) => report(`Could not show the fragment: ${err.message}`))
}

function mountComponent(script: string, props: Record<string, unknown>) {
  if (mounted) return
  mounted = true
  status.textContent = ''
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

driver.source.select('tool-result').addListener({
  next(result) {
    const id = channelOfResult(result)
    if (id && !channelId) {
      channelId = id
      channelKnown(id)
    }
    if (result.isError === true) return report(toolErrorText(result))
    const shown = isObject(result.structuredContent) ? result.structuredContent : {}
    if (typeof shown.title === 'string') document.title = shown.title
    if (shown.kind === 'component' && typeof shown.script === 'string') {
      return mountComponent(shown.script, isObject(shown.props) ? shown.props : {})
    }
    const meta = isObject(result._meta) ? result._meta[HTML_META_KEY] : undefined
    const html = typeof shown.html === 'string' ? shown.html : typeof meta === 'string' ? meta : undefined
    if (html !== undefined) showHtml(html)
    else if (shownHtml === undefined && !mounted) status.textContent = 'Nothing to show: the tool result carried no app.'
  },
})
