// @vitest-environment happy-dom
// A host that sends garbage: seeded runs of malformed and hostile messages (bad framing, bad ids, bad
// params, prototype keys, stray responses, requests for the view's agent tools with junk arguments,
// hostile host contexts) against a view on the full driver under run(). Whatever comes, the view answers
// each well-formed request once with valid JSON-RPC, posts nothing else malformed, pollutes no prototype,
// and afterwards still renders the next real tool input and result.
import { afterEach, describe, expect, it } from 'vitest'
import { run, Collection, type Component, type RunningApp } from 'duetkit'
import { agentChannel, agentTools, makeMcpAppDriver } from 'duetkit/mcp'
import { seededPicks, type SeededPicks } from '../../../../test/support/seeded-random.js'
import { TodoItem } from './todo-item.js'
import { fakeHost, until, type Posted } from './fake-host.js'

let running: RunningApp | undefined
afterEach(() => {
  running?.dispose()
  running = undefined
  document.body.innerHTML = ''
})

// Own `__proto__`, `constructor` and `prototype` keys, as JSON.parse makes them from a host's text.
const PROTO_KEYS = JSON.parse('{"__proto__": {"polluted": 1}, "constructor": {"prototype": {"polluted": 2}}, "prototype": {"polluted": 3}}')

function junk(r: SeededPicks, depth = 0): unknown {
  const kinds = depth > 2 ? 7 : 10
  switch (r.int(kinds)) {
    case 0:
      return null
    case 1:
      return r.pick([0, -1, 1.5, 2 ** 53, Number.MAX_VALUE, -0])
    case 2:
      return r.pick(['', 'x', 'ui/notifications/tool-input', '__proto__', 'a'.repeat(2000), '<img src=x onerror=alert(1)>'])
    case 3:
      return r.pick([true, false])
    case 4:
      return { ...PROTO_KEYS }
    case 5:
      return {}
    case 6:
      return []
    case 7:
      return Array.from({ length: r.int(3) }, () => junk(r, depth + 1))
    default: {
      const out: Record<string, unknown> = {}
      for (let i = r.int(4); i > 0; i--) out[r.pick(['arguments', 'content', 'text', 'theme', 'styles', 'id', 'name', 'x'])] = junk(r, depth + 1)
      return out
    }
  }
}

const NOTIFICATIONS = [
  'ui/notifications/tool-input',
  'ui/notifications/tool-input-partial',
  'ui/notifications/tool-result',
  'ui/notifications/tool-cancelled',
  'ui/notifications/host-context-changed',
  'ui/notifications/initialized',
  'notifications/cancelled',
  'ui/notifications/unknown',
]
const REQUESTS = ['ping', 'tools/list', 'tools/call', 'ui/resource-teardown', 'resources/read', 'nope', '__proto__', 'constructor']

/** One hostile message: framing, ids and params each possibly wrong. Returns whether it is a well-formed request. */
function hostile(r: SeededPicks, nextId: () => number): { data: unknown; request?: number | string } {
  const roll = r.int(12)
  if (roll === 0) return { data: junk(r) }
  if (roll === 1) return { data: { jsonrpc: r.pick(['1.0', 2, undefined]), method: 'ping', id: nextId() } }
  if (roll === 2) return { data: { jsonrpc: '2.0', method: junk(r), id: nextId() } }
  if (roll === 3) return { data: { jsonrpc: '2.0', id: r.pick([0, 1, 2, 999, -1, 'x']), result: junk(r) } }
  if (roll === 4)
    return { data: { jsonrpc: '2.0', id: r.pick([0, 1, 999]), error: r.pick([junk(r), { code: 'x', message: 5 }, { code: -32000, message: 'no' }]) } }
  if (roll === 5) return { data: { jsonrpc: '2.0', method: 'ping', id: r.pick([1.5, {}, [], null, true]) } }
  if (roll === 6) return { data: { ...PROTO_KEYS, jsonrpc: '2.0', method: r.pick(NOTIFICATIONS), params: { ...PROTO_KEYS } } }
  if (roll === 7) {
    const context = r.pick([
      { theme: r.pick(['dark', 'light', 5, 'url(x)']) },
      { styles: { variables: { '--ok': 'red', color: 'blue', '--n': 5, ...PROTO_KEYS }, css: { fonts: r.pick([5, '@import url(x);', {}]) } } },
      { safeAreaInsets: { top: 'x', left: Number.POSITIVE_INFINITY, right: -5, bottom: 1e300 } },
      junk(r),
    ])
    return { data: { jsonrpc: '2.0', method: 'ui/notifications/host-context-changed', params: context } }
  }
  if (roll < 10) {
    const params = r.int(3) === 0 ? junk(r) : { arguments: junk(r), content: junk(r), structuredContent: junk(r) }
    return { data: { jsonrpc: '2.0', method: r.pick(NOTIFICATIONS), ...(params !== undefined && { params }) } }
  }
  // A request: well-formed when its params are an object (or absent); the view must answer it once.
  const id = r.int(4) === 0 ? `s${nextId()}` : nextId()
  const method = r.pick(REQUESTS)
  const params =
    method === 'tools/call'
      ? r.pick([{ name: 'todo_toggle', arguments: junk(r) }, { name: 'todo_rename', arguments: { id: junk(r), input: junk(r) } }, { name: junk(r) }, junk(r)])
      : r.pick([undefined, {}, junk(r)])
  const wellFormed = params === undefined || (typeof params === 'object' && params !== null && !Array.isArray(params))
  return { data: { jsonrpc: '2.0', id, method, ...(params !== undefined && { params }) }, ...(wellFormed && { request: id }) }
}

/** What a valid answer of the view to a host request looks like. */
function validAnswer(m: Posted): boolean {
  const keys = Object.keys(m).sort().join()
  if (keys === 'id,jsonrpc,result') return m.jsonrpc === '2.0' && typeof m.result === 'object' && m.result !== null && !Array.isArray(m.result)
  if (keys !== 'error,id,jsonrpc' || m.jsonrpc !== '2.0') return false
  const e = m.error
  return Number.isInteger(e?.code) && typeof e.message === 'string' && Object.keys(e).every((k) => ['code', 'message', 'data'].includes(k))
}

const SEEDS = 60

describe('a view under a hostile host', () => {
  it(`${SEEDS} seeded runs of garbage: each well-formed request answered once and validly, no prototype touched, the view still renders`, async () => {
    for (let seed = 1; seed <= SEEDS; seed++) {
      const r = seededPicks(seed)
      const App: Component<{ city: string; result: string; items: Array<{ id: string; label: string; done: boolean }> }> = ({ state }) => (
        <main>
          <h1>{state.city}</h1>
          <p className="result">{state.result}</p>
          <ul>
            <Collection of={TodoItem} from="items" />
          </ul>
        </main>
      )
      App.initialState = { city: '', result: '', items: [{ id: 'a', label: 'milk', done: false }] }
      App.intent = ({ MCP }) => ({ INPUT: MCP.select('tool-input'), RESULT: MCP.select('tool-result') })
      // What the sources handed the model: always a JSON object, whatever the host sent as params.
      const handed: unknown[] = []
      const isPlainObject = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v)
      App.model = {
        INPUT: (s, args: { city?: unknown }) => {
          handed.push(args)
          return { ...s, city: typeof args.city === 'string' ? args.city : '' }
        },
        RESULT: (s, result: { content?: unknown }) => {
          handed.push(result)
          const first = Array.isArray(result.content) ? result.content[0] : undefined
          return { ...s, result: typeof first?.text === 'string' ? first.text : '' }
        },
      }
      const fake = fakeHost()
      document.body.innerHTML = '<div id="root"></div>'
      running = run(App, {
        MCP: makeMcpAppDriver({
          window: Object.assign(fake.win, { document }) as never,
          host: fake.host,
          autoResize: false,
          tools: agentTools,
          channel: agentChannel(),
        }),
      })
      await fake.waitFor((m) => m.method === 'ui/notifications/initialized')
      const before = fake.posted.length

      let id = 5000
      const asked: Array<number | string> = []
      // Ids a view may answer: those of JSON-RPC 2.0 requests, well-formed or not, whose id is one.
      const answerable = new Set<unknown>()
      for (let i = 0, n = 20 + r.int(20); i < n; i++) {
        const { data, request } = hostile(r, () => id++)
        if (request !== undefined) asked.push(request)
        const m = data as Record<string, unknown> | null
        if (m && m.jsonrpc === '2.0' && 'method' in m && (typeof m.id === 'string' || Number.isInteger(m.id))) answerable.add(m.id)
        fake.deliver(data)
      }
      const answers = () => fake.posted.slice(before).filter((m) => !('method' in m))
      await until(() => asked.every((a) => answers().some((m) => m.id === a)), `seed ${seed}: an answer to every well-formed request`)

      const context = `seed ${seed}`
      for (const a of asked) expect(answers().filter((m) => m.id === a).length, `${context}: answers to ${a}`).toBe(1)
      for (const m of answers()) expect(validAnswer(m), `${context}: ${JSON.stringify(m).slice(0, 300)}`).toBe(true)
      const ids = answers().map((m) => m.id)
      expect(
        ids.filter((a) => !answerable.has(a)),
        `${context}: answers to no request`,
      ).toEqual([])
      expect(new Set(ids).size, `${context}: one answer per request`).toBe(ids.length)
      for (const m of fake.posted.slice(before)) expect(m.jsonrpc, context).toBe('2.0')
      expect(
        handed.filter((v) => !isPlainObject(v)),
        `${context}: tool input and results handed to the model`,
      ).toEqual([])
      // The host context sets custom properties and the colour scheme on <html>, and nothing else.
      const style = document.documentElement.style
      const set = Array.from({ length: style.length }, (_, i) => style.item(i))
      expect(
        set.filter((p) => !p.startsWith('--') && p !== 'color-scheme'),
        `${context}: properties the host set`,
      ).toEqual([])
      expect(({} as Record<string, unknown>).polluted, context).toBeUndefined()
      expect(Object.hasOwn(Object.prototype, 'polluted'), context).toBe(false)

      // And the next real input and result still land.
      fake.notify('ui/notifications/tool-input', { arguments: { city: `Oslo ${seed}` } })
      fake.notify('ui/notifications/tool-result', { content: [{ type: 'text', text: `Sunny ${seed}` }] })
      await until(
        () => document.querySelector('h1')?.textContent === `Oslo ${seed}` && document.querySelector('.result')?.textContent === `Sunny ${seed}`,
        `${context}: the real input and result rendered`,
      )
      const pong = await fake.request('ping')
      expect(pong, context).toMatchObject({ jsonrpc: '2.0', result: {} })
      running.dispose()
      running = undefined
    }
  }, 120_000)
})
