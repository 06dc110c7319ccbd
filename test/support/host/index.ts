import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import type { Browser, BrowserContext, Frame, Page } from 'playwright-core'
import { duetkitSources } from '../duetkit-aliases.js'
import { startHttpServer, type TestHttpServer } from '../http-server.js'

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url))

/** The MCP Apps spec's default CSP for a view that declares none (no eval, no network). */
export const DEFAULT_VIEW_CSP =
  "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; media-src 'self' data:; connect-src 'none';"

const bundles = new Map<string, Promise<string>>()

/**
 * Bundles a browser entry into one IIFE script with esbuild (`--platform=browser`, so the MCP SDK
 * picks its browser shims). `duetkit` and its subpaths resolve to the library's source. Cached per entry.
 */
export function bundleScript(entry: string, options: { minify?: boolean } = {}): Promise<string> {
  const key = `${entry}|${options.minify ? 'min' : ''}`
  let pending = bundles.get(key)
  if (!pending) {
    pending = build({
      entryPoints: [entry],
      bundle: true,
      write: false,
      format: 'iife',
      platform: 'browser',
      target: 'es2022',
      minify: options.minify ?? false,
      logLevel: 'silent',
      jsx: 'automatic',
      jsxImportSource: 'duetkit',
      alias: duetkitSources,
    }).then((r) => r.outputFiles[0]!.text)
    bundles.set(key, pending)
  }
  return pending
}

/** A one-file HTML page around an inline script (as a single-file view build would be). */
export function htmlPage(script: string, { title = 'view', body = '', head = '' } = {}): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title>${head}</head><body>${body}<script>${script.replace(/<\/script/gi, '<\\/script')}</script></body></html>`
}

export interface HostPageOptions {
  /** A page to load in the view frame (direct mode only); served as is. */
  viewUrl?: string
  /** The view's HTML, served from the view origin (direct mode) or handed to the sandbox proxy. */
  viewHtml?: string
  /** Render the view behind a double-iframe sandbox proxy on the view origin, as web hosts do. */
  proxy?: boolean
  /** The host context at the handshake. */
  hostContext?: Record<string, unknown>
  /** The host capabilities at the handshake (default: everything the test host answers). */
  capabilities?: Record<string, unknown>
  /** Results the host returns for the view's `tools/call`, by tool name (default: an echo). */
  toolResults?: Record<string, unknown>
  /** Tools whose `tools/call` the host answers with a JSON-RPC error (-32603) carrying this message. */
  toolErrors?: Record<string, string>
  /** Answers the view's `tools/call` (e.g. through a real server's client); overrides `toolResults`. */
  onToolCall?: (name: string, args: unknown) => Promise<unknown>
  /** Response headers for the view (default: the spec's default CSP). */
  viewHeaders?: Record<string, string>
  /** Extra routes on the view origin. */
  viewRoutes?: Parameters<typeof startHttpServer>[0]
}

export interface HostLogEntry {
  dir: 'view->host' | 'host->view'
  data: any
}
export interface HostEvent {
  name: string
  params?: any
}

/** A running test host page: the official AppBridge driving one view in real Chromium. */
export interface HostPage {
  page: Page
  hostOrigin: string
  viewOrigin: string
  /** Resolves once the bridge saw `ui/notifications/initialized`. */
  initialized(): Promise<void>
  /** The frame the view runs in (inside the proxy when `proxy` is set). */
  viewFrame(): Frame
  sendToolInput(args: Record<string, unknown>): Promise<void>
  sendToolInputPartial(args: Record<string, unknown>): Promise<void>
  sendToolResult(result: Record<string, unknown>): Promise<void>
  sendToolCancelled(reason?: string): Promise<void>
  /** Sends a partial host context change. */
  sendHostContextChange(partial: Record<string, unknown>): Promise<void>
  /** The view's tools, through `bridge.listTools`. */
  listTools(): Promise<any>
  /** Calls a view tool through `bridge.callTool`; resolves with the result or `{ rpcError }`. */
  callTool(name: string, args?: Record<string, unknown>): Promise<any>
  /** `bridge.teardownResource({})`; resolves with the view's answer or `{ rpcError }`. */
  teardown(): Promise<any>
  /** Posts a message to the view from a sibling frame of the host page. */
  forgeFromSibling(message: unknown): Promise<void>
  log(): Promise<HostLogEntry[]>
  /** When the host navigated the view frame and when it saw `initialized` (epoch ms, sub-ms precision). */
  timing(): Promise<{ navigated?: number; initialized?: number }>
  events(): Promise<HostEvent[]>
  /** Waits until an event named `name` (matching `where` on its params, if given) was recorded. */
  waitForEvent(name: string, where?: Record<string, unknown>): Promise<HostEvent>
  close(): Promise<void>
}

const DEFAULT_CAPABILITIES = {
  openLinks: {},
  downloadFile: {},
  serverTools: {},
  serverResources: {},
  logging: {},
  updateModelContext: { text: {}, structuredContent: {} },
  message: { text: {} },
  sampling: {},
}

const DEFAULT_CONTEXT = {
  theme: 'light',
  displayMode: 'inline',
  availableDisplayModes: ['inline', 'fullscreen'],
  containerDimensions: { width: 420, maxHeight: 6000 },
  locale: 'en-US',
  timeZone: 'UTC',
  platform: 'web',
}

/**
 * Opens a host page on 127.0.0.1 and serves the view (or the sandbox proxy) on localhost, so every
 * message crosses origins. Close the returned page when done; it stops both servers.
 */
export async function openHostPage(browser: Browser, options: HostPageOptions): Promise<HostPage> {
  if (!options.viewUrl && options.viewHtml === undefined) throw new Error('openHostPage: give viewUrl or viewHtml')
  let viewHtml = options.viewHtml
  if (options.proxy && viewHtml === undefined) viewHtml = await (await fetch(options.viewUrl!)).text()

  const [hostBundle, proxyBundle] = await Promise.all([bundleScript(here('./host-page.browser.ts')), bundleScript(here('./sandbox-proxy.browser.ts'))])
  const viewHeaders = options.viewHeaders ?? { 'content-security-policy': DEFAULT_VIEW_CSP }
  const view: TestHttpServer = await startHttpServer(
    {
      ...options.viewRoutes,
      '/view.html': { body: () => viewHtml ?? '', headers: viewHeaders },
      '/sandbox.html': { body: htmlPage(proxyBundle, { title: 'sandbox' }), headers: viewHeaders },
    },
    'localhost',
  )
  const config = {
    viewUrl: options.viewUrl ?? `${view.origin}/view.html`,
    viewHtml,
    proxyUrl: options.proxy ? `${view.origin}/sandbox.html` : undefined,
    hostContext: options.hostContext ?? DEFAULT_CONTEXT,
    capabilities: options.capabilities ?? DEFAULT_CAPABILITIES,
    toolResults: options.toolResults ?? {},
    toolErrors: options.toolErrors ?? {},
  }
  const configScript = `window.__hostConfig = ${JSON.stringify(config).replace(/</g, '\\u003c')};`
  const host = await startHttpServer(
    {
      '/': {
        body: `<!doctype html><html><head><meta charset="utf-8"><title>host</title></head><body style="margin:16px;font-family:sans-serif"><script>${configScript}</script><script src="/host.js"></script></body></html>`,
      },
      '/host.js': { body: hostBundle, type: 'text/javascript' },
    },
    '127.0.0.1',
  )

  let context: BrowserContext | undefined
  try {
    context = await browser.newContext({ viewport: { width: 480, height: 640 } })
    const page = await context.newPage()
    if (options.onToolCall) await page.exposeFunction('__duetToolCall', options.onToolCall)
    await page.goto(`${host.origin}/`)
    const viewPrefix = `${view.origin}/`
    const viewFrame = () => {
      const frame = options.proxy
        ? page.frames().find((f) => f.parentFrame()?.url().startsWith(`${view.origin}/sandbox.html`))
        : page.frames().find((f) => f.url().startsWith(viewPrefix))
      if (!frame) throw new Error('openHostPage: the view frame is not there (yet)')
      return frame
    }
    const onHost = <T, A>(fn: (h: any, arg: A) => T | Promise<T>, arg?: A) =>
      page.evaluate(([src, a]) => new Function('h', 'a', `return (${src})(h, a)`)((window as any).__duetHost, a), [fn.toString(), arg] as const) as Promise<T>
    const bridgeCall = (method: string, params: unknown) =>
      onHost(
        (h, [m, p]: [string, unknown]) =>
          h.bridge[m](p).then(
            (r: unknown) => r,
            (e: any) => ({ rpcError: { code: e.code, message: e.message } }),
          ),
        [method, params] as [string, unknown],
      )

    return {
      page,
      hostOrigin: host.origin,
      viewOrigin: view.origin,
      initialized: async () => {
        await page.waitForFunction(() => (window as any).__duetHost?.initialized === true, undefined, { timeout: 20_000 })
      },
      viewFrame,
      sendToolInput: (args) => onHost((h, a) => h.bridge.sendToolInput({ arguments: a }), args),
      sendToolInputPartial: (args) => onHost((h, a) => h.bridge.sendToolInputPartial({ arguments: a }), args),
      sendToolResult: (result) => onHost((h, r) => h.bridge.sendToolResult(r), result),
      sendToolCancelled: (reason) => onHost((h, r) => h.bridge.sendToolCancelled(r === undefined ? {} : { reason: r }), reason),
      sendHostContextChange: (partial) => onHost((h, p) => h.bridge.sendHostContextChange(p), partial),
      listTools: () => bridgeCall('listTools', {}),
      callTool: (name, args = {}) => bridgeCall('callTool', { name, arguments: args }),
      teardown: () => bridgeCall('teardownResource', {}),
      forgeFromSibling: (message) => onHost((h, [m, p]: [unknown, boolean]) => h.forgeFromSibling(m, p), [message, !!options.proxy] as [unknown, boolean]),
      log: () => onHost((h) => h.log),
      timing: () => onHost((h) => h.timing),
      events: () => onHost((h) => h.events),
      async waitForEvent(name, where) {
        const handle = await page.waitForFunction(
          ([n, w]) =>
            (window as any).__duetHost.events.find(
              (e: any) => e.name === n && (!w || Object.entries(w).every(([k, v]) => JSON.stringify(e.params?.[k]) === JSON.stringify(v))),
            ),
          [name, where ?? null] as const,
          { timeout: 20_000 },
        )
        return (await handle.jsonValue()) as HostEvent
      },
      async close() {
        await context?.close()
        await Promise.all([host.close(), view.close()])
      },
    }
  } catch (err) {
    await context?.close()
    await Promise.all([host.close(), view.close()])
    throw err
  }
}
