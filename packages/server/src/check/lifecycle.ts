// The lifecycle and JSON-RPC MUSTs of the MCP Apps spec that a host sees in the order of the
// messages: the handshake's order, request ids never reused, the answer to ping, silence after teardown.
import type { RecordedMessage } from './page/contract.js'

type Verdict = [boolean, string]
type Msg = { id?: unknown; method?: unknown; result?: unknown; error?: unknown }

const PROXY_READY = 'ui/notifications/sandbox-proxy-ready'
// What a view may send before its ui/initialize is answered: the request itself and pings.
const BEFORE_ANSWER = new Set(['ui/initialize', 'ping'])

const msg = (r: RecordedMessage) => (r.message ?? {}) as Msg
const fromView = (r: RecordedMessage) => r.dir === 'view->host' && msg(r).method !== PROXY_READY
const answerTo = (trace: RecordedMessage[], dir: RecordedMessage['dir'], id: unknown) =>
  trace.findIndex((r) => r.dir === dir && msg(r).method === undefined && JSON.stringify(msg(r).id) === JSON.stringify(id))

/** The view sends nothing but ui/initialize (and pings) until it is answered, and `initialized` only after. */
export function handshakeOrder(trace: RecordedMessage[]): Verdict {
  const init = trace.findIndex((r) => fromView(r) && msg(r).method === 'ui/initialize')
  if (init < 0) return [false, 'the view never sent ui/initialize']
  const answer = answerTo(trace, 'host->view', msg(trace[init] as RecordedMessage).id)
  if (answer < 0) return [false, 'ui/initialize was never answered, so the order cannot be judged']
  const early = trace.slice(0, answer).find((r) => fromView(r) && !BEFORE_ANSWER.has(String(msg(r).method)))
  if (early) {
    const what = msg(early).method === undefined ? `a response (id ${JSON.stringify(msg(early).id)})` : String(msg(early).method)
    return [false, `${what} sent before ui/initialize was answered`]
  }
  const initialized = trace.findIndex((r) => fromView(r) && msg(r).method === 'ui/notifications/initialized')
  if (initialized >= 0 && initialized < answer) return [false, 'ui/notifications/initialized sent before ui/initialize was answered']
  return [true, initialized >= 0 ? 'ui/initialize answered, then initialized' : 'nothing sent before ui/initialize was answered']
}

/** Every request the view sent has an id it never used before in the session. */
export function uniqueIds(trace: RecordedMessage[]): Verdict {
  const seen = new Set<string>()
  let count = 0
  for (const r of trace) {
    const m = msg(r)
    if (!fromView(r) || typeof m.method !== 'string' || !('id' in m)) continue
    const key = JSON.stringify(m.id)
    if (seen.has(key)) return [false, `request id ${key} used twice (the second time by ${m.method})`]
    seen.add(key)
    count++
  }
  return [true, `${count} request${count === 1 ? '' : 's'}, no id reused`]
}

/** The view answered the host's ping with a result (the spec's empty object). */
export function pingAnswered(answer: { result: unknown } | { error: { code: unknown; message: string } } | 'timeout' | 'skipped', ms: number): Verdict {
  // The host may send nothing before initialized, so there is no ping to judge; the handshake check fails instead.
  if (answer === 'skipped') return [true, 'not sent: the view never sent initialized (see the handshake check)']
  if (answer === 'timeout') return [false, `ping got no answer in ${ms} ms`]
  if ('error' in answer) return [false, `ping answered with an error: ${answer.error.code} ${answer.error.message}`]
  const r = answer.result
  if (typeof r !== 'object' || r === null || Array.isArray(r)) return [false, `ping answered with ${JSON.stringify(r)}, not an object`]
  return [true, 'answered {}']
}

/** Once the view answered ui/resource-teardown, it sends nothing more. */
export function quietAfterTeardown(trace: RecordedMessage[]): Verdict {
  const request = trace.findIndex((r) => r.dir === 'host->view' && msg(r).method === 'ui/resource-teardown')
  if (request < 0) return [false, 'not reached: no teardown was sent']
  const answered = answerTo(trace, 'view->host', msg(trace[request] as RecordedMessage).id)
  if (answered < 0) return [false, 'not reached: the teardown was not answered']
  const after = trace.slice(answered + 1).filter(fromView)
  if (after.length)
    return [
      false,
      `${after.length} message${after.length > 1 ? 's' : ''} after the teardown answer, first ${String(msg(after[0] as RecordedMessage).method ?? 'a response')}`,
    ]
  return [true, 'nothing sent after the teardown answer']
}
