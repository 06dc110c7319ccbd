// The `duet check` host page: the dev host's own mountApp (sandbox proxy, official AppBridge,
// handlers only for what the preset advertises) driven step by step by the check runner through
// `window.__duetCheck`, recording every message that crosses the frame boundary.
import {
  type McpUiHostContext,
  type McpUiResourceCsp,
  type McpUiResourcePermissions,
  McpUiResourceTeardownResultSchema,
} from '@modelcontextprotocol/ext-apps/app-bridge'
import { mountApp, type MountedApp } from '../../dev/page/app-frame.js'
import type { HostPreset } from '../../dev/presets.js'
import type { CheckPageApi, MountConfig, RecordedMessage } from './contract.js'

const trace: RecordedMessage[] = []
const logs: { label: string; value: unknown }[] = []
let mounted: MountedApp | null = null
let context: McpUiHostContext = {}
let initialized = false
let preset: HostPreset | null = null

function app(): MountedApp {
  if (!mounted) throw new Error('duet check: no view mounted')
  return mounted
}

const within = <T>(promise: Promise<T>, ms: number): Promise<T | 'timeout'> =>
  Promise.race([promise, new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), ms))])

const api: CheckPageApi = {
  trace,
  logs,
  forgedReplies: [],
  diagnostics: [],
  async mount(config: MountConfig) {
    preset = config.preset
    context = config.hostContext
    const container = document.getElementById('stage') as HTMLElement
    mounted = await mountApp({
      container,
      sandboxUrl: config.sandboxUrl,
      server: 's1',
      html: config.html,
      csp: config.csp as McpUiResourceCsp | undefined,
      permissions: config.permissions as McpUiResourcePermissions | undefined,
      preset: config.preset,
      hostContext: config.hostContext,
      hooks: {
        trace: (entry) => {
          if (entry.dir === 'view->host' || entry.dir === 'host->view') trace.push({ dir: entry.dir, at: performance.now(), message: entry.message })
        },
        log: (label, value) => logs.push({ label, value }),
        message: () => {},
        modelContext: () => {},
        displayMode: (mode) => (preset?.availableDisplayModes.includes(mode) ? mode : 'inline'),
        teardownRequested: () => {},
        // The dev sandbox's own capture: the view's console errors, uncaught errors, CSP violations.
        viewDiagnostic: (d) => api.diagnostics.push({ level: d.level, kind: d.kind, text: d.text }),
      },
    })
    void mounted.initialized.then(() => {
      initialized = true
    })
  },
  async waitInitialized(ms) {
    return (await within(app().initialized, ms)) !== 'timeout' || initialized
  },
  async sendToolInput(args) {
    await app().bridge.sendToolInput({ arguments: args })
  },
  async sendToolResult(result) {
    await app().bridge.sendToolResult(result as Parameters<MountedApp['bridge']['sendToolResult']>[0])
  },
  setTheme(theme) {
    context = { ...context, theme }
    app().bridge.setHostContext(context)
  },
  forge(messages) {
    // A frame of the host page that is not the view's parent: it reaches the view through
    // window references, as any frame on the page could. Its own listener keeps what comes back.
    const sibling = document.createElement('iframe')
    sibling.style.display = 'none'
    const payload = JSON.stringify(messages).replace(/</g, '\\u003c')
    sibling.srcdoc = `<script>
      addEventListener('message', (e) => parent.__duetCheck.forgedReplies.push(e.data));
      const view = parent.document.querySelector('[data-testid=app-frame]').contentWindow.frames[0];
      for (const m of ${payload}) view.postMessage(m, '*');
    </script>`
    document.body.appendChild(sibling)
  },
  async ping(ms) {
    // A plain MCP ping, as a host may send any time after initialized; the view MUST answer it.
    const bridge = app().bridge as unknown as { request(r: { method: string; params: object }, schema: unknown): Promise<unknown> }
    return await within(
      bridge.request({ method: 'ping', params: {} }, McpUiResourceTeardownResultSchema).then(
        (result) => ({ result }),
        (err: { code?: unknown; message?: string }) => ({ error: { code: err.code, message: err.message ?? String(err) } }),
      ),
      ms,
    )
  },
  async teardown(ms) {
    const answer = await within(
      app()
        .bridge.teardownResource({})
        .then(
          (result) => ({ result }),
          (err: { code?: unknown; message?: string }) => ({ error: { code: err.code, message: err.message ?? String(err) } }),
        ),
      ms,
    )
    return answer
  },
}

;(window as unknown as { __duetCheck: CheckPageApi }).__duetCheck = api
