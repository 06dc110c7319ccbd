// @vitest-environment happy-dom
// App.persist under the real runtime and the MCP driver: kept under the result's viewUUID, in
// localStorage or, where the sandbox has none, through the server's duet_view_state tool.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { persistenceOf, run, type Component, type RunningApp } from 'duetkit'
import { makeMcpAppDriver } from 'duetkit/mcp'
import { fakeHost, until } from './fake-host.js'

let running: RunningApp | undefined
afterEach(() => {
  running?.dispose()
  running = undefined
  document.body.innerHTML = ''
  vi.restoreAllMocks()
})

interface State {
  days: string[]
  selected: string | null
  draft: string
}
const Picker: Component<State> = ({ state }) => <p className="out">{`${state.days.join(',')}|${state.selected}|${state.draft}`}</p>
Picker.initialState = { days: [], selected: null, draft: '' }
Picker.persist = ['selected']
Picker.intent = ({ MCP }) => ({ RESULT: MCP.select('tool-result'), PICK: MCP.select('tool-input') })
Picker.model = {
  RESULT: (s, r: any) => ({ ...s, days: r.structuredContent.days, selected: null }),
  PICK: (s, args: any) => ({ ...s, selected: args.day ?? null, draft: args.draft ?? s.draft }),
}

/** A Storage over a Map, as a sandbox with allow-same-origin gives one. */
function memoryStorage(): Storage & { map: Map<string, string> } {
  const map = new Map<string, string>()
  return {
    map,
    get length() {
      return map.size
    },
    clear: () => map.clear(),
    getItem: (k) => map.get(k) ?? null,
    key: (i) => [...map.keys()][i] ?? null,
    removeItem: (k) => void map.delete(k),
    setItem: (k, v) => void map.set(k, String(v)),
  }
}

/** What an iframe without allow-same-origin does: reading localStorage throws. */
function blockedWindow(win: object) {
  return Object.defineProperty(win, 'localStorage', {
    get() {
      throw new DOMException("Failed to read the 'localStorage' property from 'Window': The document is sandboxed", 'SecurityError')
    },
  })
}

/** The server's duet_view_state tool, as a fake host forwards it. */
function serverTool(states = new Map<string, unknown>()) {
  return {
    states,
    'tools/call': (p: any) => {
      if (p.name !== 'duet_view_state') return { content: [], isError: true }
      if (p.arguments.op === 'put') states.set(p.arguments.viewUUID, p.arguments.state)
      return { content: [], structuredContent: { state: states.get(p.arguments.viewUUID) ?? null } }
    },
  }
}

async function mount(win: object, fake: ReturnType<typeof fakeHost>, viewUUID: string) {
  document.body.innerHTML = '<div id="root"></div>'
  running = run(Picker, { MCP: makeMcpAppDriver({ window: Object.assign(win, fake.win, { document }) as any, host: fake.host, autoResize: false }) })
  await fake.waitFor((m) => m.method === 'ui/notifications/initialized')
  fake.notify('ui/notifications/tool-result', { content: [], structuredContent: { days: ['Mon', 'Tue'] }, _meta: { viewUUID } })
}
const out = () => document.querySelector('.out')?.textContent

describe('App.persist with localStorage', () => {
  it('keeps the picked day under the viewUUID, restores it on a re-mount, and a new viewUUID starts fresh', async () => {
    const localStorage = memoryStorage()
    let fake = fakeHost()
    await mount({ localStorage }, fake, 'view-aaaa-1')
    await until(() => out() === 'Mon,Tue|null|', 'result shown')
    fake.notify('ui/notifications/tool-input', { arguments: { day: 'Tue', draft: 'not kept' } })
    await until(() => localStorage.map.get('duet:view-state:view-aaaa-1')?.includes('Tue') === true, 'saved')
    expect(JSON.parse(localStorage.map.get('duet:view-state:view-aaaa-1')!)).toEqual({ selected: 'Tue' })
    running!.dispose()

    // The host re-mounts the same result: same viewUUID.
    fake = fakeHost()
    await mount({ localStorage }, fake, 'view-aaaa-1')
    await until(() => out() === 'Mon,Tue|Tue|', 'restored')

    running!.dispose()
    fake = fakeHost()
    await mount({ localStorage }, fake, 'view-bbbb-2')
    await until(() => out() === 'Mon,Tue|null|', 'fresh')
    // A window, not an event: a late restore of the other view's state would land within it.
    await new Promise((r) => setTimeout(r, 20))
    expect(out()).toBe('Mon,Tue|null|')
  })

  it('restores only the kept keys, whatever else the stored snapshot holds', async () => {
    const localStorage = memoryStorage()
    localStorage.setItem('duet:view-state:view-cccc-3', JSON.stringify({ selected: 'Mon', days: ['forged'], draft: 'forged' }))
    await mount({ localStorage }, fakeHost(), 'view-cccc-3')
    await until(() => out() === 'Mon,Tue|Mon|', 'restored')
  })
})

describe('App.persist without localStorage', () => {
  it('falls back to the server tool duet_view_state through the host, and restores from it', async () => {
    const tool = serverTool()
    let fake = fakeHost({ 'tools/call': tool['tools/call'] })
    await mount(blockedWindow({}), fake, 'view-dddd-4')
    await until(() => out() === 'Mon,Tue|null|', 'result shown')
    fake.notify('ui/notifications/tool-input', { arguments: { day: 'Mon' } })
    await until(() => JSON.stringify(tool.states.get('view-dddd-4'))?.includes('Mon') === true, 'saved on the server')
    expect(tool.states.get('view-dddd-4')).toEqual({ selected: 'Mon' })
    expect(fake.posted.filter((m) => m.method === 'tools/call').map((m) => m.params)).toContainEqual({
      name: 'duet_view_state',
      arguments: { op: 'put', viewUUID: 'view-dddd-4', state: { selected: 'Mon' } },
    })
    running!.dispose()

    fake = fakeHost({ 'tools/call': tool['tools/call'] })
    await mount(blockedWindow({}), fake, 'view-dddd-4')
    await until(() => out() === 'Mon,Tue|Mon|', 'restored from the server')
  })

  it('with no localStorage and no serverTools keeps nothing, warns once naming the tool, and the view works', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const fake = fakeHost({}, { hostCapabilities: {} })
    await mount(blockedWindow({}), fake, 'view-eeee-5')
    fake.notify('ui/notifications/tool-input', { arguments: { day: 'Tue' } })
    await until(() => out() === 'Mon,Tue|Tue|', 'picked').catch((e) => {
      throw new Error(`${e.message}: ${out()} ${JSON.stringify(warn.mock.calls)}`)
    })
    expect(warn.mock.calls.map((c) => String(c[0]))).toEqual([
      '[duetkit/mcp] tools/call duet_view_state: the view state is not kept: the sandbox has no localStorage and the host offers no serverTools',
    ])
    expect(fake.methods()).not.toContain('tools/call')
  })

  it('a server that refuses the state (TOO_LARGE) costs a warning, not the view', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const fake = fakeHost({
      'tools/call': (p: any) =>
        p.arguments.op === 'get'
          ? { content: [], structuredContent: { state: null } }
          : { isError: true, content: [{ type: 'text', text: 'TOO_LARGE: the state is 20000 bytes' }] },
    })
    await mount(blockedWindow({}), fake, 'view-ffff-6')
    fake.notify('ui/notifications/tool-input', { arguments: { day: 'Tue' } })
    await until(() => warn.mock.calls.length > 0, 'warning')
    expect(String(warn.mock.calls[0]![0])).toMatch(/^\[duetkit\/mcp\] view state \(tools\/call duet_view_state\): could not save .*TOO_LARGE/)
    expect(out()).toBe('Mon,Tue|Tue|')
  })
})

describe('App.persist in the runtime', () => {
  it('rejects, when run starts a driver that keeps state, a persist that is neither true nor an array of keys, naming it', () => {
    const Bad: Component<State> = () => null
    Bad.persist = 'selected' as never
    document.body.innerHTML = '<div id="root"></div>'
    let thrown: unknown
    try {
      run(Bad, { MCP: makeMcpAppDriver({ autoResize: false }) })
    } catch (err) {
      thrown = err
    }
    expect(thrown).toMatchObject({ code: 'INVALID_OPTION', data: { option: 'persist' } })
    expect((thrown as Error).message).toMatch(/^App.persist must be true or an array of state keys, got "selected"$/)
  })

  it('restores only the kept keys through persistenceOf, after the queued actions, and refuses a snapshot that is not an object', async () => {
    document.body.innerHTML = '<div id="root"></div>'
    const Kept: Component<State> = ({ state }) => <p className="out">{`${state.selected}|${state.draft}`}</p>
    Kept.initialState = { days: ['Mon'], selected: null, draft: 'mine' }
    Kept.persist = ['selected']
    Kept.model = { DRAFT: (s, draft: string) => ({ ...s, draft }) }
    running = run(Kept)
    const kept = persistenceOf(running.app)!
    expect(kept.keys).toEqual(['selected'])
    expect(kept.snapshot()).toEqual({ selected: null })
    const drafted = running.dispatch('DRAFT', 'queued first')
    // A foreign key (draft) in the snapshot is not written back; the queued DRAFT runs before the restore.
    await kept.restore({ selected: 'Tue', draft: 'foreign' })
    await drafted
    expect(document.querySelector('.out')?.textContent).toBe('Tue|queued first')
    expect(kept.snapshot()).toEqual({ selected: 'Tue' })
    await expect(kept.restore('Tue')).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' })
    // A component that keeps nothing has no handle.
    const Plain: Component<State> = () => null
    running.dispose()
    document.body.innerHTML = '<div id="root"></div>'
    running = run(Plain)
    expect(persistenceOf(running.app)).toBeUndefined()
  })
})
