import {
  AppBridge,
  PostMessageTransport,
  buildAllowAttribute,
  type McpUiHostContext,
  type McpUiResourceCsp,
  type McpUiResourcePermissions,
} from '@modelcontextprotocol/ext-apps/app-bridge'
import type { HostPreset } from '../presets.js'
import { parseViewDiagnostic, type ViewDiagnostic } from '../view-diagnostics.js'
import { rpc } from './api.js'
import { h } from './dom.js'
import type { TraceEntry } from './panels.js'

/** What the host shows the person for everything the app asks of it. */
export interface FrameHooks {
  trace(entry: TraceEntry): void
  log(label: string, value: unknown): void
  message(params: unknown): void
  modelContext(params: unknown): void
  displayMode(mode: 'inline' | 'fullscreen' | 'pip'): 'inline' | 'fullscreen' | 'pip'
  teardownRequested(): void
  /** A console error or warning, uncaught exception, unhandled rejection or CSP violation in the view. */
  viewDiagnostic?(d: ViewDiagnostic): void
}

/** Options of {@link mountApp}. */
export interface MountOptions {
  container: HTMLElement
  sandboxUrl: string
  server: string
  html: string
  csp?: McpUiResourceCsp
  permissions?: McpUiResourcePermissions
  preset: HostPreset
  hostContext: McpUiHostContext
  hooks: FrameHooks
}

/** A rendered app: its bridge, its outer iframe, and a teardown that follows the protocol. */
export interface MountedApp {
  bridge: AppBridge
  iframe: HTMLIFrameElement
  /** Resolves when the view sends `ui/notifications/initialized`. */
  initialized: Promise<void>
  /** The text of the last error the view reported (see {@link FrameHooks.viewDiagnostic}), if any. */
  readonly lastError: string | undefined
  destroy(): Promise<void>
}

/**
 * Renders a view the way a web host must: an outer iframe on the sandbox origin carrying the
 * resource's CSP as a header, the official AppBridge connected once the proxy is ready, the HTML
 * handed over in `sandbox-resource-ready`. Handlers exist only for capabilities the preset
 * advertises, so an app sees exactly what it would see in that host.
 */
export async function mountApp(o: MountOptions): Promise<MountedApp> {
  const url = new URL(o.sandboxUrl)
  if (o.csp) url.searchParams.set('csp', JSON.stringify(o.csp))
  const iframe = h('iframe', { sandbox: 'allow-scripts allow-same-origin allow-forms', 'data-testid': 'app-frame', title: 'app' })
  const allow = buildAllowAttribute(o.permissions)
  if (allow) iframe.setAttribute('allow', allow)

  let onRaw: (e: MessageEvent) => void = () => {}
  let lastError: string | undefined
  const proxyReady = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the sandbox proxy at ${url.origin} did not answer in 20 s`)), 20_000)
    onRaw = (e: MessageEvent) => {
      // Only our own sandbox frame speaks for the view: a diagnostic from any other window is ignored.
      if (e.source !== iframe.contentWindow || e.origin !== url.origin) return
      const diagnostic = parseViewDiagnostic(e.data)
      if (diagnostic) {
        if (diagnostic.level === 'error') lastError = diagnostic.text
        o.hooks.viewDiagnostic?.(diagnostic)
        return
      }
      o.hooks.trace({ dir: 'view->host', message: e.data })
      if (e.data?.method === 'ui/notifications/sandbox-proxy-ready') {
        clearTimeout(timer)
        resolve()
      }
    }
  })
  window.addEventListener('message', onRaw)
  iframe.src = url.href
  o.container.replaceChildren(iframe)
  try {
    await proxyReady
  } catch (err) {
    window.removeEventListener('message', onRaw)
    iframe.remove()
    throw err
  }

  const bridge = new AppBridge(null, o.preset.hostInfo, o.preset.capabilities, { hostContext: o.hostContext })
  wireHandlers(bridge, o, iframe)
  let resolveInit: () => void = () => {}
  const initialized = new Promise<void>((resolve) => {
    resolveInit = resolve
  })
  bridge.oninitialized = () => {
    o.hooks.log('app initialized', bridge.getAppVersion() ?? {})
    resolveInit()
  }

  const win = iframe.contentWindow as Window
  const transport = new PostMessageTransport(win, win)
  const send = transport.send.bind(transport)
  transport.send = async (message, opts) => {
    o.hooks.trace({ dir: 'host->view', message })
    return send(message, opts)
  }
  await bridge.connect(transport)
  await bridge.sendSandboxResourceReady({ html: o.html, csp: o.csp, permissions: o.permissions })

  let destroyed = false
  return {
    bridge,
    iframe,
    initialized,
    get lastError() {
      return lastError
    },
    async destroy() {
      if (destroyed) return
      destroyed = true
      // A view that never answers must not keep the old frame alive: give it two seconds.
      await Promise.race([bridge.teardownResource({}).catch(() => {}), new Promise((r) => setTimeout(r, 2000))])
      window.removeEventListener('message', onRaw)
      await bridge.close().catch(() => {})
      iframe.remove()
    },
  }
}

function wireHandlers(bridge: AppBridge, o: MountOptions, iframe: HTMLIFrameElement): void {
  const caps = o.preset.capabilities
  const forward =
    <T>(method: string) =>
    async (params: unknown): Promise<T> =>
      rpc<T>(o.server, method, (params ?? {}) as Record<string, unknown>, 'app')
  bridge.onsizechange = (p) => {
    if (typeof p.height === 'number') iframe.style.height = `${Math.ceil(p.height)}px`
  }
  bridge.onloggingmessage = (p) => o.hooks.log(`app log (${p.level})`, p.data)
  bridge.onerror = (err) => o.hooks.log('protocol error', String(err))
  bridge.onrequestteardown = () => {
    o.hooks.log('app asked to be closed', {})
    o.hooks.teardownRequested()
  }
  bridge.onrequestdisplaymode = async (p) => ({ mode: o.hooks.displayMode(p.mode) })
  if (caps.message)
    bridge.onmessage = async (p) => {
      o.hooks.message(p)
      return {}
    }
  if (caps.updateModelContext)
    bridge.onupdatemodelcontext = async (p) => {
      o.hooks.modelContext(p)
      return {}
    }
  if (caps.openLinks) {
    bridge.onopenlink = async (p) => {
      o.hooks.log('open link', p.url)
      window.open(p.url, '_blank', 'noopener,noreferrer')
      return {}
    }
  }
  if (caps.downloadFile)
    bridge.ondownloadfile = async (p) => {
      o.hooks.log('download file', p)
      return {}
    }
  if (caps.serverTools) bridge.oncalltool = forward('tools/call')
  if (caps.serverResources) {
    bridge.onreadresource = forward('resources/read')
    bridge.onlistresources = forward('resources/list')
    bridge.onlistresourcetemplates = forward('resources/templates/list')
  }
}
