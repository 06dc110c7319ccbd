import { randomBytes } from 'node:crypto'
import { mkdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { Browser, Frame, Page } from 'playwright-core'
import { SUPPORTED_PROTOCOL_VERSIONS, type McpUiHostContext } from '@modelcontextprotocol/ext-apps/app-bridge'
import { DuetError } from 'duetkit/protocol'
import { ServerConnection, type ServerSpec } from '../dev/connections.js'
import { type HostPreset, presetById } from '../dev/presets.js'
import { launchChromium } from './browser.js'
import { type CheckResult, type ConsoleEntry, evaluateChecks, type RenderSample } from './checks.js'
import { startCheckHost } from './host-server.js'
import type { CheckPageApi, MountConfig, TeardownAnswer } from './page/contract.js'

/** What to check: a server's app tool, called with `args`, or a bare view HTML file. */
export interface CheckOptions {
  server?: ServerSpec
  tool?: string
  args?: Record<string, unknown>
  /** A view's HTML file, checked with no server behind it. */
  viewFile?: string
  /** The host to play: `full` (default), `claude`, `chatgpt` or `vscode`. */
  preset?: string
  /** A folder for the light and dark screenshots. */
  shots?: string
  /** Chromium's executable; else CHROMIUM_PATH, DUET_CHROMIUM, /usr/bin/chromium. */
  chromiumPath?: string
  /** Loads playwright-core (for tests of the missing-peer message). */
  loadPlaywright?: () => Promise<unknown>
  /** A Chromium already running (e.g. a test run's shared one), used instead of launching one and left open. */
  browser?: Browser
  /** How long the view gets to send `ui/notifications/initialized`, in ms (default 10 000). */
  initTimeoutMs?: number
}

/** The outcome of one `duet check`: `pass` only when every check passed. */
export interface CheckReport {
  target: string
  preset: string
  pass: boolean
  checks: CheckResult[]
}

// `claude` is the CLI's short name for the dev host's Claude Desktop preset.
const PRESET_ALIASES: Record<string, string> = { claude: 'claude-desktop' }
const PRESET_NAMES = ['full', 'claude', 'chatgpt', 'vscode']
const FORGED_PING = 'duet-check-forged-ping'
const INIT_MS = 10_000
const SETTLE_MS = 1000

/** Checks the options up front, naming the one at fault. */
export function resolvePreset(name = 'full'): HostPreset {
  if (!PRESET_NAMES.includes(name) && name !== 'claude-desktop')
    throw new DuetError('INVALID_OPTION', `preset '${name}' is not one of ${PRESET_NAMES.join(', ')}`, { option: 'preset' })
  return presetById(PRESET_ALIASES[name] ?? name)
}

function validate(o: CheckOptions): void {
  if (!o.server === !o.viewFile)
    throw new DuetError('INVALID_OPTION', 'duet check needs either a server (--server or --stdio) with --tool, or a view HTML file', { option: 'server' })
  if (o.server && (typeof o.tool !== 'string' || o.tool === ''))
    throw new DuetError('INVALID_OPTION', 'tool: name the app tool to call (--tool NAME)', { option: 'tool' })
  if (o.args !== undefined && (typeof o.args !== 'object' || o.args === null || Array.isArray(o.args)))
    throw new DuetError('INVALID_OPTION', 'args must be a JSON object of the tool arguments', { option: 'args' })
  if (o.initTimeoutMs !== undefined && !(Number.isFinite(o.initTimeoutMs) && o.initTimeoutMs > 0))
    throw new DuetError('INVALID_OPTION', 'initTimeoutMs must be a positive number of milliseconds', { option: 'initTimeoutMs' })
}

/**
 * Runs every check on one view in headless Chromium, behind the dev host's sandbox proxy with the
 * official AppBridge, playing the preset's host. Throws (DuetError) only when the run cannot start:
 * bad options, the server unreachable, the tool or its view missing, no browser.
 */
export async function runCheck(options: CheckOptions): Promise<CheckReport> {
  validate(options)
  const preset = resolvePreset(options.preset)
  const args = options.args ?? {}
  let connection: ServerConnection | null = null
  const cleanup: (() => Promise<unknown>)[] = []
  try {
    let html: string
    let resourceMeta: { csp?: unknown; permissions?: unknown } = {}
    let toolResult: unknown
    let target: string
    if (options.server) {
      const conn = new ServerConnection('s1', options.server, { pollMs: 3_600_000, emit: () => {} })
      connection = conn
      cleanup.push(() => conn.close())
      await conn.start()
      const state = conn.snapshot()
      if (state.status !== 'connected') throw new DuetError('NOT_CONNECTED', `cannot reach ${state.label}: ${state.error ?? state.status}`)
      const tool = conn.tool(options.tool as string)
      if (!tool)
        throw new DuetError('NOT_FOUND', `the server has no tool '${options.tool}'; it has ${state.tools.map((t) => t.name).join(', ') || 'none'}`, {
          kind: 'tool',
          name: options.tool,
        })
      const meta = (tool._meta ?? {}) as { ui?: { resourceUri?: unknown }; 'ui/resourceUri'?: unknown }
      const uri = meta.ui?.resourceUri ?? meta['ui/resourceUri']
      if (typeof uri !== 'string')
        throw new DuetError('INVALID_ARGUMENT', `tool '${options.tool}' has no _meta.ui.resourceUri: it is not an app tool`, { name: options.tool })
      toolResult = await conn.request('tools/call', { name: options.tool as string, arguments: args })
      const read = (await conn.request('resources/read', { uri })) as {
        contents?: { text?: string; blob?: string; _meta?: { ui?: Record<string, unknown> } }[]
      }
      const content = read.contents?.[0]
      if (!content || (content.text === undefined && content.blob === undefined)) throw new DuetError('VIEW_UNAVAILABLE', `${uri} returned no HTML`, { uri })
      html = content.text ?? Buffer.from(content.blob as string, 'base64').toString('utf8')
      resourceMeta = content._meta?.ui ?? {}
      target = `${options.tool} on ${state.label}`
    } else {
      const file = resolve(options.viewFile as string)
      try {
        html = readFileSync(file, 'utf8')
      } catch (err) {
        throw new DuetError('NOT_FOUND', `cannot read the view ${file}: ${(err as Error).message}`, { kind: 'file', name: file })
      }
      target = file
    }

    const host = await startCheckHost(connection)
    cleanup.push(() => host.close())
    let browser = options.browser
    if (!browser) {
      const launched = await launchChromium(options.chromiumPath, options.loadPlaywright)
      cleanup.push(() => launched.close())
      browser = launched
    }
    const initMs = options.initTimeoutMs ?? INIT_MS
    const checks = evaluateChecks(
      await drive(browser, host, { html, resourceMeta, toolResult, args, preset, withServer: !!options.server, shots: options.shots, initMs }),
    )
    return { target, preset: preset.id, pass: checks.every((c) => c.pass), checks }
  } finally {
    for (const step of cleanup.reverse()) await step().catch(() => {})
  }
}

interface DriveInput {
  html: string
  resourceMeta: { csp?: unknown; permissions?: unknown }
  toolResult: unknown
  args: Record<string, unknown>
  preset: HostPreset
  withServer: boolean
  shots?: string
  initMs: number
}

async function drive(browser: Browser, host: { hostUrl: string; sandboxUrl: string }, input: DriveInput) {
  const context = await browser.newContext({ viewport: { width: 480, height: 900 } })
  try {
    const page = await context.newPage()
    const sandboxOrigin = new URL(host.sandboxUrl).origin
    await page.goto(host.hostUrl)
    await page.waitForFunction(() => 'mount' in ((window as unknown as { __duetCheck?: object }).__duetCheck ?? {}))
    const onPage = <T, A>(fn: (api: CheckPageApi, arg: A) => T | Promise<T>, arg: A): Promise<T> =>
      page.evaluate(([src, a]) => new Function('api', 'a', `return (${src})(api, a)`)((window as unknown as { __duetCheck: CheckPageApi }).__duetCheck, a), [
        fn.toString(),
        arg,
      ] as const) as Promise<T>

    const hostContext: McpUiHostContext = {
      theme: 'light',
      displayMode: 'inline',
      availableDisplayModes: input.preset.availableDisplayModes,
      containerDimensions: { width: 440, maxHeight: 2000 },
      locale: 'en-US',
      timeZone: 'UTC',
      platform: input.preset.platform,
      userAgent: 'duet check',
    }
    const config: MountConfig = {
      sandboxUrl: host.sandboxUrl,
      html: input.html,
      csp: input.resourceMeta.csp,
      permissions: input.resourceMeta.permissions,
      preset: input.preset,
      hostContext,
    }
    await onPage((api, c) => api.mount(c), config)
    const initialized = await onPage((api, ms) => api.waitInitialized(ms), input.initMs)
    if (input.withServer) {
      await onPage((api, a) => api.sendToolInput(a), input.args)
      await onPage((api, r) => api.sendToolResult(r), input.toolResult)
    }
    await page.waitForTimeout(SETTLE_MS)

    // Render before forging, so a view that trusts the forgery is judged on its real state.
    const render: RenderSample[] = []
    for (const theme of ['light', 'dark'] as const) {
      if (theme === 'dark') {
        await onPage((api, t) => api.setTheme(t), theme)
        await page.waitForTimeout(400)
      }
      render.push(await sample(page, sandboxOrigin, theme, input.shots))
    }

    const marker = `duet-check-forged-${randomBytes(6).toString('hex')}`
    await onPage(
      (api, m) => api.forge(m),
      [
        { jsonrpc: '2.0', id: FORGED_PING, method: 'ping', params: {} },
        { jsonrpc: '2.0', method: 'ui/notifications/tool-result', params: { content: [{ type: 'text', text: marker }], structuredContent: { text: marker } } },
      ],
    )
    await page.waitForTimeout(700)
    const viewText = await viewFrame(page, sandboxOrigin)
      ?.evaluate(() => document.documentElement?.outerHTML ?? '')
      .catch(() => '')
    const teardown: TeardownAnswer = await onPage((api, ms) => api.teardown(ms), 3000)
    const recorded = await onPage((api) => ({ trace: api.trace, forgedReplies: api.forgedReplies, diagnostics: api.diagnostics }), null)
    return {
      preset: input.preset,
      supportedVersions: SUPPORTED_PROTOCOL_VERSIONS,
      messages: recorded.trace,
      initialized,
      forgedMarker: marker,
      forgedMarkerShown: (viewText ?? '').includes(marker),
      forgedIds: [FORGED_PING],
      forgedReplies: recorded.forgedReplies,
      teardown,
      console: recorded.diagnostics.filter((d) => d.level === 'error').map(toConsoleEntry),
      render,
    }
  } finally {
    await context.close()
  }
}

// Errors only: warnings are advice, not a conformance failure.
function toConsoleEntry(d: { kind: string; text: string }): ConsoleEntry {
  const kind = d.kind === 'csp' ? 'csp' : d.kind === 'uncaught' || d.kind === 'unhandledrejection' ? 'exception' : 'error'
  return { kind, text: d.text }
}

// The view's frame: the one inside the sandbox proxy's page.
function viewFrame(page: Page, sandboxOrigin: string): Frame | undefined {
  return page.frames().find((f) => f.parentFrame()?.url().startsWith(sandboxOrigin))
}

async function sample(page: Page, sandboxOrigin: string, theme: 'light' | 'dark', shots?: string): Promise<RenderSample> {
  const frame = viewFrame(page, sandboxOrigin)
  const box = await page.locator('[data-testid=app-frame]').boundingBox()
  const height = Math.round(box?.height ?? 0)
  let shot: string | undefined
  if (shots && height > 0) {
    mkdirSync(shots, { recursive: true })
    shot = join(shots, `view-${theme}.png`)
    await page.locator('[data-testid=app-frame]').screenshot({ path: shot })
  }
  if (!frame) return { theme, visible: false, detail: 'no view frame inside the sandbox proxy', shot }
  const seen = await frame
    .evaluate(() => {
      const body = document.body
      if (!body) return { text: 0, elements: 0 }
      const elements = [...body.querySelectorAll('*')].filter((el) => {
        const r = el.getBoundingClientRect()
        return r.width > 0 && r.height > 0 && el.tagName !== 'SCRIPT' && el.tagName !== 'STYLE'
      }).length
      // biome-ignore lint/performance/useDomNodeTextContent: the text a person sees, not the scripts' source
      return { text: body.innerText.trim().length, elements }
    })
    .catch(() => ({ text: 0, elements: 0 }))
  const visible = height > 0 && (seen.text > 0 || seen.elements > 0)
  const detail = visible
    ? `${seen.elements} elements, ${seen.text} characters, ${height} px`
    : `blank (${seen.elements} visible elements, frame ${height} px high)`
  return { theme, visible, detail, shot }
}
