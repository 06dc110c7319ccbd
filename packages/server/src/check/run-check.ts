import { randomBytes } from 'node:crypto'
import { mkdirSync, openSync, closeSync, fstatSync, readSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { Browser, Frame, Page } from 'playwright-core'
import { SUPPORTED_PROTOCOL_VERSIONS, type McpUiHostContext } from '@modelcontextprotocol/ext-apps/app-bridge'
import { DuetError } from 'duetkit/protocol'
import type { ServerSpec } from '../dev/connections.js'
import { type HostPreset, presetById } from '../dev/presets.js'
import { launchChromium } from './browser.js'
import { type CheckResult, type ConsoleEntry, evaluateChecks, evaluateServerChecks, type RenderSample } from './checks.js'
import { StepFailed, Steps } from './deadlines.js'
import { startCheckHost } from './host-server.js'
import type { CheckPageApi, MountConfig, TeardownAnswer } from './page/contract.js'
import { type CheckServer, connectCheckServer } from './server-client.js'
import type { ServerSample } from './server-meta.js'

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
  /** The whole run's deadline in ms (default 60 s). */
  timeoutMs?: number
  /** Each step's deadline in ms (default 15 s, never past the whole run's). */
  stepTimeoutMs?: number
  /** The largest view accepted, in bytes (default 5 MiB); larger ones are refused before the browser sees them. */
  maxViewBytes?: number
  /** How long the view is left to settle after the tool result, before it is probed and rendered, in ms (default 1000). */
  settleMs?: number
  /** How long the view is left to repaint after the switch to dark, in ms (default 400). */
  themeSettleMs?: number
  /** How long the view has to act on the sibling frame's forged messages before it is judged, in ms (default 700). */
  forgeWaitMs?: number
  /** How long the view is still listened to after its teardown answer, in ms (default 500). */
  afterTeardownMs?: number
  /** Runs Chromium without its sandbox even when not root. */
  noSandbox?: boolean
  /** A Chromium already running (e.g. a test run's shared one), used instead of launching one and left open. */
  browser?: Browser
  /** Hears the stdio server's pid once spawned (the CLI kills it if the process is ended mid-run). */
  onServerPid?: (pid: number) => void
  /** Hears the launched Chromium's pid (the CLI has it killed if the process is ended, even by SIGKILL). */
  onBrowserPid?: (pid: number) => void
  /** Loads playwright-core (for tests of the missing-peer message). */
  loadPlaywright?: () => Promise<unknown>
}

/** The outcome of one `duet check`: `pass` only when every check passed. */
export interface CheckReport {
  target: string
  preset: string
  pass: boolean
  checks: CheckResult[]
  /** The step the run stopped at, when the view or server kept it from finishing (the checks are then those judged so far). */
  stopped?: { step: string; reason: string }
  /** Things said about the run itself (Chromium's sandbox off, and why). */
  notes: string[]
}

/** Defaults: the whole run, each step, the largest view. */
export const DEFAULT_TIMEOUT_MS = 60_000
export const DEFAULT_STEP_TIMEOUT_MS = 15_000
export const DEFAULT_MAX_VIEW_BYTES = 5 * 1024 * 1024
/** Defaults of the judgement windows: long enough for a real view on a loaded machine; tests pass shorter ones. */
export const DEFAULT_WAITS = { settleMs: 1000, themeSettleMs: 400, forgeWaitMs: 700, afterTeardownMs: 500 } as const
type Waits = Record<keyof typeof DEFAULT_WAITS, number>

// `claude` is the CLI's short name for the dev host's Claude Desktop preset.
const PRESET_ALIASES: Record<string, string> = { claude: 'claude-desktop' }
const PRESET_NAMES = ['full', 'claude', 'chatgpt', 'vscode']
const FORGED_PING = 'duet-check-forged-ping'
const PING_MS = 3000
const LAUNCH_MS = 30_000

/** Checks the options up front, naming the one at fault. */
export function resolvePreset(name = 'full'): HostPreset {
  if (!PRESET_NAMES.includes(name) && name !== 'claude-desktop')
    throw new DuetError('INVALID_OPTION', `preset '${name}' is not one of ${PRESET_NAMES.join(', ')}`, { option: 'preset' })
  return presetById(PRESET_ALIASES[name] ?? name)
}

function positive(o: CheckOptions, key: 'timeoutMs' | 'stepTimeoutMs' | 'maxViewBytes' | keyof Waits): void {
  const v = o[key]
  if (v !== undefined && (!Number.isInteger(v) || v <= 0)) throw new DuetError('INVALID_OPTION', `${key} must be a positive integer, got ${v}`, { option: key })
}

function validate(o: CheckOptions): void {
  if (!o.server === !o.viewFile)
    throw new DuetError('INVALID_OPTION', 'duet check needs either a server (--server or --stdio) with --tool, or a view HTML file', { option: 'server' })
  if (o.server && (typeof o.tool !== 'string' || o.tool === ''))
    throw new DuetError('INVALID_OPTION', 'tool: name the app tool to call (--tool NAME)', { option: 'tool' })
  if (o.args !== undefined && (typeof o.args !== 'object' || o.args === null || Array.isArray(o.args)))
    throw new DuetError('INVALID_OPTION', 'args must be a JSON object of the tool arguments', { option: 'args' })
  positive(o, 'timeoutMs')
  positive(o, 'stepTimeoutMs')
  positive(o, 'maxViewBytes')
  for (const key of Object.keys(DEFAULT_WAITS) as (keyof Waits)[]) positive(o, key)
}

/**
 * Runs every check on one view in headless Chromium, behind the dev host's sandbox proxy with the
 * official AppBridge, playing the preset's host. Every step has a deadline and so does the whole
 * run: a view or server that stops answering ends the run with `stopped` naming the step (a failed
 * report). Throws (DuetError) only when the run cannot start: bad options, the server unreachable,
 * the tool or its view missing, no browser.
 */
export async function runCheck(options: CheckOptions): Promise<CheckReport> {
  validate(options)
  const preset = resolvePreset(options.preset)
  const args = options.args ?? {}
  const maxView = options.maxViewBytes ?? DEFAULT_MAX_VIEW_BYTES
  const steps = new Steps({ totalMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS, stepMs: options.stepTimeoutMs ?? DEFAULT_STEP_TIMEOUT_MS })
  const cleanup: (() => Promise<unknown>)[] = []
  const notes: string[] = []
  let target = options.viewFile
    ? resolve(options.viewFile)
    : `${options.tool} on ${options.server?.kind === 'http' ? options.server.url : options.server?.line}`
  const partial: CheckResult[] = []
  try {
    let html: string
    let resourceMeta: { csp?: unknown; permissions?: unknown } = {}
    let toolResult: unknown
    let server: CheckServer | null = null
    if (options.server) {
      const spec = options.server
      // JSON escaping can double a view's bytes on the wire; past that, the message is refused as it streams.
      const wireCap = maxView * 2 + 64 * 1024
      server = await steps.run('connect', `the server's answer to initialize and tools/list (${target})`, () =>
        connectCheckServer(spec, wireCap, (what) =>
          steps.fail(
            new StepFailed(
              steps.current,
              `step "${steps.current}": ${what}: the view is over --max-view-bytes (${maxView}); refused before the browser`,
              'target',
            ),
          ),
        ).catch((err) => {
          throw new DuetError('NOT_CONNECTED', `cannot reach ${spec.kind === 'http' ? spec.url : spec.line}: ${(err as Error).message}`)
        }),
      )
      const conn = server
      cleanup.push(() => conn.close())
      if (conn.pid !== null) options.onServerPid?.(conn.pid)
      target = `${options.tool} on ${conn.label}`
      const tool = conn.tool(options.tool as string)
      if (!tool)
        throw new DuetError('NOT_FOUND', `the server has no tool '${options.tool}'; it has ${conn.tools.map((t) => t.name).join(', ') || 'none'}`, {
          kind: 'tool',
          name: options.tool,
        })
      const meta = (tool._meta ?? {}) as { ui?: { resourceUri?: unknown }; 'ui/resourceUri'?: unknown }
      const uri = meta.ui?.resourceUri ?? meta['ui/resourceUri']
      if (typeof uri !== 'string')
        throw new DuetError('INVALID_ARGUMENT', `tool '${options.tool}' has no _meta.ui.resourceUri: it is not an app tool`, { name: options.tool })
      toolResult = await steps.run('tools/call', `the server's answer to tools/call ${options.tool}`, () =>
        conn.request('tools/call', { name: options.tool as string, arguments: args }),
      )
      const read = (await steps.run('resources/read', `the server's answer to resources/read ${uri}`, () => conn.request('resources/read', { uri }))) as {
        contents?: (ServerSample['content'] & { text?: string; blob?: string })[]
      }
      const content = read.contents?.[0]
      if (!content || (content.text === undefined && content.blob === undefined)) throw new DuetError('VIEW_UNAVAILABLE', `${uri} returned no HTML`, { uri })
      const bytes = content.text !== undefined ? Buffer.byteLength(content.text) : Math.floor((content.blob as string).length * 0.75)
      if (bytes > maxView) throw tooLarge('resources/read', `${uri} is ${bytes} bytes`, maxView)
      html = content.text ?? Buffer.from(content.blob as string, 'base64').toString('utf8')
      resourceMeta = content._meta?.ui ?? {}
      partial.push(...evaluateServerChecks({ tools: conn.tools, content }))
    } else {
      html = readView(target, maxView)
    }

    const host = await steps.run('start host', 'the check host page and sandbox origins to listen', () => startCheckHost(server), { blame: 'environment' })
    cleanup.push(() => host.close())
    // A cold Chromium on a loaded machine can take a while: its own deadline, still inside the run's.
    // A browser handed in (a test run's shared Chromium) is used as it is and left open.
    const chromium = options.browser
      ? { browser: options.browser, note: undefined, close: async () => {} }
      : await steps.run('launch browser', 'headless Chromium to start', () => launchChromium(options.chromiumPath, options.loadPlaywright, options.noSandbox), {
          blame: 'environment',
          ms: Math.max(steps.stepMs, LAUNCH_MS),
        })
    cleanup.push(() => chromium.close())
    if ('pid' in chromium && chromium.pid !== undefined) options.onBrowserPid?.(chromium.pid)
    if (chromium.note) notes.push(chromium.note)
    const recording = await drive(chromium.browser, host, steps, {
      html,
      resourceMeta,
      toolResult,
      args,
      preset,
      withServer: !!options.server,
      shots: options.shots,
      waits: {
        settleMs: options.settleMs ?? DEFAULT_WAITS.settleMs,
        themeSettleMs: options.themeSettleMs ?? DEFAULT_WAITS.themeSettleMs,
        forgeWaitMs: options.forgeWaitMs ?? DEFAULT_WAITS.forgeWaitMs,
        afterTeardownMs: options.afterTeardownMs ?? DEFAULT_WAITS.afterTeardownMs,
      },
    })
    const checks = [...evaluateChecks(recording), ...partial]
    return { target, preset: preset.id, pass: checks.every((c) => c.pass), checks, notes }
  } catch (err) {
    if (!(err instanceof StepFailed)) throw err
    if (err.blame === 'environment') throw new DuetError('BROWSER_UNAVAILABLE', err.message)
    return { target, preset: preset.id, pass: false, checks: partial, stopped: { step: err.step, reason: err.message }, notes }
  } finally {
    // Ends the browser first: a view spinning in it must not keep the run alive.
    for (const step of cleanup.reverse()) await step().catch(() => {})
  }
}

function tooLarge(step: string, what: string, limit: number): StepFailed {
  return new StepFailed(step, `step "${step}": ${what}, over --max-view-bytes (${limit}); refused before the browser`, 'target')
}

// Reads a view file whose size is known first, so a huge file is refused without being read.
function readView(file: string, limit: number): string {
  let fd: number
  try {
    fd = openSync(file, 'r')
  } catch (err) {
    throw new DuetError('NOT_FOUND', `cannot read the view ${file}: ${(err as Error).message}`, { kind: 'file', name: file })
  }
  try {
    const size = fstatSync(fd).size
    if (size > limit) throw tooLarge('read view', `${file} is ${size} bytes`, limit)
    const buffer = Buffer.alloc(size)
    let read = 0
    while (read < size) {
      const n = readSync(fd, buffer, read, size - read, read)
      if (n === 0) break
      read += n
    }
    return buffer.subarray(0, read).toString('utf8')
  } finally {
    closeSync(fd)
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
  waits: Waits
}

async function drive(browser: Browser, host: { hostUrl: string; sandboxUrl: string }, steps: Steps, input: DriveInput) {
  const context = await steps.run('open page', 'a browser context', () => browser.newContext({ viewport: { width: 480, height: 900 } }), {
    blame: 'environment',
  })
  try {
    const page = await context.newPage()
    const sandboxOrigin = new URL(host.sandboxUrl).origin
    await steps.run(
      'load host page',
      'the check host page to load',
      async () => {
        await page.goto(host.hostUrl)
        await page.waitForFunction(() => 'mount' in ((window as unknown as { __duetCheck?: object }).__duetCheck ?? {}))
      },
      { blame: 'environment' },
    )
    const onPage = <T, A>(fn: (api: CheckPageApi, arg: A) => T | Promise<T>, arg: A): Promise<T> =>
      page.evaluate(([src, a]) => new Function('api', 'a', `return (${src})(api, a)`)((window as unknown as { __duetCheck: CheckPageApi }).__duetCheck, a), [
        fn.toString(),
        arg,
      ] as const) as Promise<T>
    // The page answers only while the view's event loop runs (they share a renderer, or the page waits on the view).
    const viewStep = <T>(step: string, what: string, fn: () => Promise<T>, opts: { ms?: number } = {}) =>
      steps.run(step, `the page's answer while ${what}`, fn, { ...opts, hint: "the page stopped answering: the view's event loop is blocked" })

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
    await viewStep('mount', 'mounting the view', () => onPage((api, c) => api.mount(c), config))
    // A view that never sends initialized fails the handshake check; one that blocks the page is caught here or by the probe.
    const initMs = Math.min(10_000, steps.stepMs, steps.left())
    const initialized = await viewStep('handshake', 'waiting for ui/notifications/initialized', () => onPage((api, ms) => api.waitInitialized(ms), initMs), {
      ms: initMs + 5000,
    })
    await probe(page, sandboxOrigin, steps, 'after handshake')
    if (input.withServer) {
      await viewStep('tool input', 'sending tool-input', () => onPage((api, a) => api.sendToolInput(a), input.args))
      await viewStep('tool result', 'sending tool-result', () => onPage((api, r) => api.sendToolResult(r), input.toolResult))
    }
    await page.waitForTimeout(input.waits.settleMs)
    await probe(page, sandboxOrigin, steps, 'after the tool result')

    // Render before forging, so a view that trusts the forgery is judged on its real state.
    const render: RenderSample[] = []
    for (const theme of ['light', 'dark'] as const) {
      if (theme === 'dark') {
        await viewStep('theme', 'switching to dark', () => onPage((api, t) => api.setTheme(t), theme))
        await page.waitForTimeout(input.waits.themeSettleMs)
      }
      render.push(await viewStep(`render ${theme}`, `sampling the ${theme} render`, () => sample(page, sandboxOrigin, theme, input.shots)))
    }
    const ping: TeardownAnswer | 'skipped' = initialized
      ? await viewStep('ping', 'pinging the view', () => onPage((api, ms) => api.ping(ms), PING_MS), { ms: PING_MS + 5000 })
      : 'skipped'

    const marker = `duet-check-forged-${randomBytes(6).toString('hex')}`
    await viewStep('forge', 'posting from a sibling frame', () =>
      onPage(
        (api, m) => api.forge(m),
        [
          { jsonrpc: '2.0', id: FORGED_PING, method: 'ping', params: {} },
          {
            jsonrpc: '2.0',
            method: 'ui/notifications/tool-result',
            params: { content: [{ type: 'text', text: marker }], structuredContent: { text: marker } },
          },
        ],
      ),
    )
    await page.waitForTimeout(input.waits.forgeWaitMs)
    const viewText = await viewStep(
      'read view',
      'reading the view document',
      async () =>
        (await viewFrame(page, sandboxOrigin)
          ?.evaluate(() => document.documentElement?.outerHTML ?? '')
          .catch(() => '')) ?? '',
    )
    const teardown: TeardownAnswer = await viewStep('teardown', 'tearing down', () => onPage((api, ms) => api.teardown(ms), 3000), { ms: 8000 })
    // Long enough for a view that keeps talking after its teardown answer to be heard.
    await page.waitForTimeout(input.waits.afterTeardownMs)
    const recorded = await viewStep('collect', 'collecting the trace', () =>
      onPage((api) => ({ trace: api.trace, forgedReplies: api.forgedReplies, diagnostics: api.diagnostics }), null),
    )
    return {
      preset: input.preset,
      supportedVersions: SUPPORTED_PROTOCOL_VERSIONS,
      messages: recorded.trace,
      initialized,
      forgedMarker: marker,
      forgedMarkerShown: viewText.includes(marker),
      forgedIds: [FORGED_PING],
      forgedReplies: recorded.forgedReplies,
      ping,
      pingMs: PING_MS,
      teardown,
      console: recorded.diagnostics.filter((d) => d.level === 'error').map(toConsoleEntry),
      render,
    }
  } finally {
    // A context whose renderer spins may never close: the browser's own end (run's cleanup) kills it.
    await Promise.race([context.close().catch(() => {}), new Promise((r) => setTimeout(r, 2000))])
  }
}

const PROBE_MS = 3000

// Asks the host page and the view's frame for a trivial answer: a renderer whose event loop is blocked
// (a view spinning) gives none, which the check reports naming the moment.
async function probe(page: Page, sandboxOrigin: string, steps: Steps, when: string): Promise<void> {
  await steps.run(
    `responsive ${when}`,
    "the page's and the view frame's answer to a ping (evaluating 1)",
    async () => {
      await page.evaluate(() => 1)
      await viewFrame(page, sandboxOrigin)?.evaluate(() => 1)
    },
    { ms: PROBE_MS, hint: "the view's event loop is blocked (a script that never yields); the browser is killed" },
  )
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
