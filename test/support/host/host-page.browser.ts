// The test host page: the official AppBridge (ext-apps 2.0.4) rendering one view, either directly
// in an iframe or behind a double-iframe sandbox proxy, recording every message both ways.
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge'

interface HostConfig {
  viewUrl?: string
  viewHtml?: string
  proxyUrl?: string
  hostContext: Record<string, unknown>
  capabilities: Record<string, unknown>
  toolResults: Record<string, unknown>
  toolErrors: Record<string, string>
}

const config = (window as any).__hostConfig as HostConfig
const log: Array<{ dir: 'view->host' | 'host->view'; data: unknown }> = []
const events: Array<{ name: string; params?: unknown }> = []
const record = (name: string) => (params?: unknown) => void events.push({ name, params: clone(params) })
const clone = (v: unknown) => (v === undefined ? undefined : JSON.parse(JSON.stringify(v)))
// Absolute times (ms since the epoch, sub-ms precision) so they compare with the view frame's clock.
const now = () => performance.timeOrigin + performance.now()
const timing: { navigated?: number; initialized?: number } = {}

const iframe = document.createElement('iframe')
iframe.id = 'view'
iframe.style.cssText = 'width: 420px; height: 80px; border: 1px solid #8884; border-radius: 8px; display: block'
if (config.proxyUrl) iframe.sandbox.value = 'allow-scripts allow-same-origin allow-forms'
document.body.appendChild(iframe)

window.addEventListener('message', (e) => {
  // Raw capture of what reaches the host page from the view (or its proxy).
  if (e.source === iframe.contentWindow && (e.data as any)?.method !== 'ui/notifications/sandbox-proxy-ready')
    log.push({ dir: 'view->host', data: clone(e.data) })
})

const bridge = new AppBridge(null, { name: 'DuetTestHost', version: '1.0.0' }, config.capabilities as any, { hostContext: config.hostContext as any })
bridge.oninitialized = () => {
  timing.initialized = now()
  record('initialized')()
  ;(window as any).__duetHost.initialized = true
}
bridge.onsizechange = (p) => {
  record('sizechange')(p)
  if (typeof p.height === 'number') iframe.style.height = `${p.height}px`
}
bridge.onrequestteardown = record('requestteardown')
bridge.onloggingmessage = record('loggingmessage')
bridge.onmessage = async (p) => {
  record('message')(p)
  return {}
}
bridge.onupdatemodelcontext = async (p) => {
  record('updatemodelcontext')(p)
  return {}
}
bridge.onopenlink = async (p) => {
  record('openlink')(p)
  return {}
}
bridge.ondownloadfile = async (p) => {
  record('downloadfile')(p)
  return {}
}
bridge.onrequestdisplaymode = async (p) => {
  record('requestdisplaymode')(p)
  await bridge.sendHostContextChange({ displayMode: p.mode })
  return { mode: p.mode }
}
bridge.oncalltool = async (p) => {
  record('calltool')(p)
  // The bridge answers a handler that throws with a JSON-RPC error, as a host whose server failed would.
  if (config.toolErrors[p.name]) throw new Error(config.toolErrors[p.name])
  // A test that forwards tool calls to a real server (HostPageOptions.onToolCall).
  const forward = (window as any).__duetToolCall as ((name: string, args: unknown) => Promise<unknown>) | undefined
  if (forward) return (await forward(p.name, p.arguments ?? {})) as any
  return (config.toolResults[p.name] ?? { content: [{ type: 'text', text: `called ${p.name}` }], structuredContent: { echo: p.arguments ?? {} } }) as any
}
bridge.onreadresource = async (p) => {
  record('readresource')(p)
  return { contents: [{ uri: p.uri, mimeType: 'text/plain', text: `contents of ${p.uri}` }] }
}
bridge.onlistresources = async (p) => {
  record('listresources')(p)
  return { resources: [{ uri: 'file:///a.txt', name: 'a.txt' }] }
}
bridge.onlistresourcetemplates = async (p) => {
  record('listresourcetemplates')(p)
  return { resourceTemplates: [{ uriTemplate: 'file:///{name}', name: 'files' }] }
}
bridge.onlistprompts = async (p) => {
  record('listprompts')(p)
  return { prompts: [{ name: 'summarize' }] }
}
bridge.oncreatesamplingmessage = async (p) => {
  record('createmessage')(p)
  return { role: 'assistant', content: { type: 'text', text: 'a sunny week' }, model: 'test-model' } as any
}
bridge.setNotificationHandler('notifications/tools/list_changed' as any, () => void events.push({ name: 'tools/list_changed' }))
bridge.onerror = (e) => void events.push({ name: 'onerror', params: String(e) })

function transportFor(target: Window) {
  const transport = new PostMessageTransport(target, target)
  const send = transport.send.bind(transport)
  transport.send = async (m: any, o?: any) => {
    log.push({ dir: 'host->view', data: clone(m) })
    return send(m, o)
  }
  return transport
}

async function start() {
  if (config.proxyUrl) {
    // Web-host shape: an outer sandbox proxy on the view origin announces itself, then gets the HTML.
    const ready = new Promise<void>((resolve) => {
      const onReady = (e: MessageEvent) => {
        if (e.source === iframe.contentWindow && (e.data as any)?.method === 'ui/notifications/sandbox-proxy-ready') {
          window.removeEventListener('message', onReady)
          resolve()
        }
      }
      window.addEventListener('message', onReady)
    })
    timing.navigated = now()
    iframe.src = config.proxyUrl
    await ready
    await bridge.connect(transportFor(iframe.contentWindow!))
    await bridge.sendSandboxResourceReady({ html: config.viewHtml! })
  } else {
    // contentWindow (about:blank) survives navigation, so connect first and navigate after.
    await bridge.connect(transportFor(iframe.contentWindow!))
    timing.navigated = now()
    iframe.src = config.viewUrl!
  }
}

/** Posts `message` to the view from a sibling frame of the host page: what an attacker frame could do. */
function forgeFromSibling(message: unknown, proxied: boolean) {
  const sibling = document.createElement('iframe')
  const path = proxied ? 'parent.frames[0].frames[0]' : 'parent.frames[0]'
  sibling.srcdoc = `<script>${path}.postMessage(${JSON.stringify(message).replace(/</g, '\\u003c')}, '*')</script>`
  document.body.appendChild(sibling)
}

;(window as any).__duetHost = {
  bridge,
  log,
  events,
  initialized: false,
  iframe,
  started: start(),
  forgeFromSibling,
  toolResults: config.toolResults,
  timing,
  now,
}
