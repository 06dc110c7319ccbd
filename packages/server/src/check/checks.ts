import type { HostPreset } from '../dev/presets.js'
import { capabilityFault } from './capabilities.js'
import { jsonRpcFault } from './jsonrpc-shape.js'
import { handshakeOrder, pingAnswered, quietAfterTeardown, uniqueIds } from './lifecycle.js'
import type { RecordedMessage, TeardownAnswer } from './page/contract.js'
import { mimeType, resourceUris, type ServerSample, securityMeta, visibilities } from './server-meta.js'

/** The checks `duet check` runs on the view, in the order it reports them. */
export const CHECK_IDS = [
  'handshake',
  'order',
  'size',
  'jsonrpc',
  'ids',
  'capabilities',
  'ping',
  'sibling',
  'teardown',
  'after-teardown',
  'console',
  'csp',
  'render',
] as const
/** The checks on the server's metadata (a group of their own), when a server is checked. */
export const SERVER_CHECK_IDS = ['resource-uri', 'visibility', 'mime-type', 'security-meta'] as const
export type CheckId = (typeof CHECK_IDS)[number] | (typeof SERVER_CHECK_IDS)[number]

/** One check's verdict: `reason` says what failed, or briefly what was seen when it passed. */
export interface CheckResult {
  id: CheckId
  group: 'view' | 'server'
  title: string
  pass: boolean
  reason: string
}

/** A console error, uncaught exception or CSP violation seen in the view's frames. */
export interface ConsoleEntry {
  kind: 'error' | 'exception' | 'csp'
  text: string
}

/** How the view rendered in one theme. */
export interface RenderSample {
  theme: 'light' | 'dark'
  /** Visible elements or text in the view's document, and the frame's height. */
  visible: boolean
  detail: string
  shot?: string
}

/** Everything one run observed, which {@link evaluateChecks} turns into verdicts. */
export interface Recording {
  preset: HostPreset
  /** Protocol versions the host (the official AppBridge) accepts. */
  supportedVersions: readonly string[]
  messages: RecordedMessage[]
  initialized: boolean
  /** The unique text the forged tool result carried, and whether it reached the view's document. */
  forgedMarker: string
  forgedMarkerShown: boolean
  /** Ids of the forged requests. */
  forgedIds: readonly string[]
  /** Messages the sibling frame received back. */
  forgedReplies: unknown[]
  /** The view's answer to the host's ping, and how long the host waited. */
  ping: TeardownAnswer | 'skipped'
  pingMs: number
  teardown: TeardownAnswer | 'skipped'
  console: ConsoleEntry[]
  render: RenderSample[]
}

const TITLES: Record<CheckId, string> = {
  handshake: 'handshake and protocol version',
  order: 'handshake order',
  size: 'size reported',
  jsonrpc: 'strict JSON-RPC',
  ids: 'request ids never reused',
  capabilities: 'requests only for advertised capabilities',
  ping: 'ping answered',
  sibling: 'forged message from a sibling frame ignored',
  teardown: 'teardown answered',
  'after-teardown': 'nothing sent after teardown',
  console: 'no console errors',
  csp: 'no CSP violations',
  render: 'renders in light and dark',
  'resource-uri': 'tool resourceUri is ui://',
  visibility: 'tool visibility values',
  'mime-type': 'resource MIME type',
  'security-meta': 'CSP and permissions metadata',
}

const PROXY_READY = 'ui/notifications/sandbox-proxy-ready'

/** Judges a recording, one result per check in {@link CHECK_IDS} order. */
export function evaluateChecks(r: Recording): CheckResult[] {
  // What the view sent: everything that came up through the proxy except the proxy's own hello.
  const fromView = r.messages.filter((m) => m.dir === 'view->host' && method(m.message) !== PROXY_READY).map((m) => m.message)
  const verdicts: Record<(typeof CHECK_IDS)[number], [boolean, string]> = {
    handshake: handshake(fromView, r),
    order: handshakeOrder(r.messages),
    size: size(fromView),
    jsonrpc: strict(fromView, r),
    ids: uniqueIds(r.messages),
    capabilities: capabilities(fromView, r.preset),
    ping: pingAnswered(r.ping, r.pingMs),
    sibling: sibling(fromView, r),
    teardown: teardown(r.teardown),
    'after-teardown': quietAfterTeardown(r.messages),
    console: entries(
      r.console.filter((e) => e.kind !== 'csp'),
      'console error',
    ),
    csp: entries(
      r.console.filter((e) => e.kind === 'csp'),
      'CSP violation',
    ),
    render: render(r.render),
  }
  return CHECK_IDS.map((id) => ({ id, group: 'view', title: TITLES[id], pass: verdicts[id][0], reason: verdicts[id][1] }))
}

/** Judges the server's metadata, one result per check in {@link SERVER_CHECK_IDS} order. */
export function evaluateServerChecks(s: ServerSample): CheckResult[] {
  const verdicts: Record<(typeof SERVER_CHECK_IDS)[number], [boolean, string]> = {
    'resource-uri': resourceUris(s.tools),
    visibility: visibilities(s.tools),
    'mime-type': mimeType(s.content),
    'security-meta': securityMeta(s.content),
  }
  return SERVER_CHECK_IDS.map((id) => ({ id, group: 'server', title: TITLES[id], pass: verdicts[id][0], reason: verdicts[id][1] }))
}

function method(message: unknown): string | undefined {
  const m = (message as { method?: unknown } | null)?.method
  return typeof m === 'string' ? m : undefined
}

function handshake(fromView: unknown[], r: Recording): [boolean, string] {
  const init = fromView.find((m) => method(m) === 'ui/initialize') as { params?: { protocolVersion?: unknown } } | undefined
  if (!init) return [false, 'the view never sent ui/initialize']
  const version = init.params?.protocolVersion
  if (typeof version !== 'string' || !r.supportedVersions.includes(version))
    return [false, `ui/initialize asked for protocol version ${JSON.stringify(version)}; the host supports ${r.supportedVersions.join(', ')}`]
  if (!r.initialized) return [false, `ui/initialize (${version}) was answered, but the view never sent ui/notifications/initialized`]
  return [true, `protocol ${version}, initialized`]
}

function size(fromView: unknown[]): [boolean, string] {
  const sizes = fromView.filter((m) => method(m) === 'ui/notifications/size-changed') as { params?: { width?: unknown; height?: unknown } }[]
  if (sizes.length === 0) return [false, 'the view never sent ui/notifications/size-changed, so the host cannot fit the frame to it']
  const bad = sizes.find((s) => !isSize(s.params?.height) || (s.params?.width !== undefined && !isSize(s.params.width)))
  if (bad) return [false, `size-changed with ${JSON.stringify(bad.params)}: width and height must be non-negative numbers`]
  const last = sizes.at(-1)?.params
  return [true, `${sizes.length} size-changed, last ${last?.width ?? '?'}×${last?.height}`]
}

const isSize = (v: unknown) => typeof v === 'number' && Number.isFinite(v) && v >= 0

function strict(fromView: unknown[], r: Recording): [boolean, string] {
  for (const m of fromView) {
    const fault = jsonRpcFault(m)
    if (fault) return [false, fault]
  }
  // A response must answer something the host asked (answers to forged requests are the sibling check's).
  const asked = new Set(r.forgedIds.map((id) => JSON.stringify(id)))
  for (const id of r.messages.filter((m) => m.dir === 'host->view' && method(m.message)).map((m) => (m.message as { id?: unknown }).id))
    asked.add(JSON.stringify(id))
  const stray = fromView.find((m) => method(m) === undefined && !asked.has(JSON.stringify((m as { id?: unknown }).id)))
  if (stray) return [false, `a response with id ${JSON.stringify((stray as { id?: unknown }).id)}, which the host never used for a request`]
  return [true, `${fromView.length} messages, all well-formed`]
}

function capabilities(fromView: unknown[], preset: HostPreset): [boolean, string] {
  const faults = new Set<string>()
  for (const m of fromView) {
    const name = method(m)
    if (name === undefined) continue
    const fault = capabilityFault(name, (m as { params?: unknown }).params, preset.capabilities, preset.availableDisplayModes)
    if (fault) faults.add(fault)
  }
  if (faults.size) return [false, [...faults].join('; ')]
  const used = [...new Set(fromView.map(method).filter((n): n is string => !!n && !n.startsWith('ui/notifications/')))]
  return [true, `preset ${preset.id}; asked ${used.join(', ') || 'nothing'}`]
}

function sibling(fromView: unknown[], r: Recording): [boolean, string] {
  const answered = [...fromView, ...r.forgedReplies].filter((m) => r.forgedIds.includes((m as { id?: unknown } | null)?.id as string))
  if (answered.length) return [false, `the view answered a request posted by a sibling frame (id ${JSON.stringify((answered[0] as { id: unknown }).id)})`]
  if (r.forgedMarkerShown) return [false, 'the view rendered a tool result posted by a sibling frame']
  return [true, 'forged ping and tool result were ignored']
}

function teardown(answer: TeardownAnswer | 'skipped'): [boolean, string] {
  if (answer === 'skipped') return [false, 'not reached: the view was not mounted']
  if (answer === 'timeout') return [false, 'ui/resource-teardown got no answer in 3 s']
  if ('error' in answer) return [false, `ui/resource-teardown answered with an error: ${answer.error.code} ${answer.error.message}`]
  return [true, 'answered']
}

function entries(list: ConsoleEntry[], what: string): [boolean, string] {
  if (list.length === 0) return [true, 'none']
  const first = list[0]?.text.split('\n')[0] ?? ''
  return [false, `${list.length} ${what}${list.length > 1 ? 's' : ''}, first: ${first.length > 200 ? `${first.slice(0, 197)}...` : first}`]
}

function render(samples: RenderSample[]): [boolean, string] {
  if (samples.length < 2) return [false, 'not reached: the view was not mounted']
  const blank = samples.filter((s) => !s.visible)
  if (blank.length) return [false, blank.map((s) => `${s.theme}: ${s.detail}`).join('; ')]
  const shots = samples.map((s) => s.shot).filter(Boolean)
  return [true, samples.map((s) => `${s.theme}: ${s.detail}`).join('; ') + (shots.length ? ` (shots: ${shots.join(', ')})` : '')]
}
