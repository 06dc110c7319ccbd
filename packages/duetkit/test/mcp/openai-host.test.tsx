// @vitest-environment happy-dom
// The MCP driver on `window.openai` (an Apps SDK host), against an emulation written from OpenAI's
// reference: the same sources and sinks as under an MCP Apps host, capability-aware.
import { afterEach, describe, expect, it } from 'vitest'
import { run, type Component, type RunningApp } from 'duetkit'
import { makeMcpAppDriver } from 'duetkit/mcp'
import { collect, fakeHost, harness, sinkValue, until } from './fake-host.js'
import { emulateOpenAi, markTwin } from './openai-emulation.js'

const cleanups: Array<() => void> = []
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c()
  delete (window as unknown as { openai?: unknown }).openai
  delete (window as unknown as { duetAppsSdkHost?: unknown }).duetAppsSdkHost
  document.head.innerHTML = ''
  document.body.innerHTML = ''
  document.documentElement.removeAttribute('data-theme')
})

const forecast = { city: 'Oslo', days: [{ date: 'Mon' }, { date: 'Tue' }] }

function start(options: Parameters<typeof makeMcpAppDriver>[0] = {}) {
  const h = harness()
  cleanups.push(() => h.dispose())
  const MCP = makeMcpAppDriver({ appInfo: { name: 'v', version: '1' }, autoResize: false, ...options })(h.sink$, h.context)
  return { h, MCP }
}

describe('choosing the dialect', () => {
  it('stays on MCP Apps where the page is not the Apps SDK twin, even with window.openai present', async () => {
    emulateOpenAi(window, { toolOutput: forecast })
    const { h } = start()
    const call = sinkValue({ callTool: 'get_forecast', ok: 'OK', error: 'ERR' })
    h.send(call.value)
    expect((await call.replied).data.code).toBe('NO_HOST')
  })

  it('stays on MCP Apps in the twin when window.openai is absent', async () => {
    markTwin(document)
    const { h } = start()
    const call = sinkValue({ callTool: 'get_forecast', ok: 'OK', error: 'ERR' })
    h.send(call.value)
    expect((await call.replied).data.code).toBe('NO_HOST')
  })
})

describe('window.openai as the host', () => {
  it('gives tool input, tool result (structuredContent and _meta), host context and capabilities', async () => {
    markTwin(document)
    emulateOpenAi(window, { toolInput: { city: 'Oslo' }, toolOutput: forecast, toolResponseMetadata: { viewUUID: 'v-1' }, theme: 'dark', locale: 'nb-NO' })
    const { MCP } = start()
    const input = collect(MCP.select('tool-input'))
    const result = collect(MCP.select('tool-result'))
    const host = collect(MCP.select('host'))
    const context = collect(MCP.select('host-context-changed'))
    await until(() => result.length === 1 && host.length === 1, 'the tool result')
    expect(input).toEqual([{ city: 'Oslo' }])
    expect(result[0]).toEqual({ content: [], structuredContent: forecast, _meta: { viewUUID: 'v-1' } })
    expect(host[0]!.hostCapabilities).toEqual({ serverTools: {}, message: {}, openLinks: {}, openai: {} })
    expect(context.at(-1)).toMatchObject({ theme: 'dark', locale: 'nb-NO', displayMode: 'inline', containerDimensions: { maxHeight: 600 } })
    expect(document.documentElement.getAttribute('data-theme')).toBe('dark')
  })

  it('follows openai:set_globals: a later tool output, a theme change', async () => {
    markTwin(document)
    const emulation = emulateOpenAi(window, { toolInput: { city: 'Oslo' } })
    const { MCP } = start()
    const result = collect(MCP.select('tool-result'))
    const context = collect(MCP.select('host-context-changed'))
    await until(() => context.length === 1, 'the handshake')
    expect(result).toEqual([])
    emulation.setGlobals({ toolOutput: forecast })
    await until(() => result.length === 1, 'the tool output')
    expect(result[0]!.structuredContent).toEqual(forecast)
    emulation.setGlobals({ theme: 'dark' })
    await until(() => context.length === 2, 'the theme change')
    expect(context[1]!.theme).toBe('dark')
    expect(result).toHaveLength(1)
  })

  it('sends callTool, message, openLink and displayMode through window.openai, with their replies', async () => {
    markTwin(document)
    const emulation = emulateOpenAi(
      window,
      {},
      { tools: { get_forecast: (args) => ({ content: [{ type: 'text', text: 'ok' }], structuredContent: { city: args.city } }) } },
    )
    const { h } = start()
    const call = sinkValue({ callTool: 'get_forecast', args: { city: 'Rome' }, ok: 'OK' })
    h.send(call.value)
    expect((await call.replied).data).toEqual({ content: [{ type: 'text', text: 'ok' }], structuredContent: { city: 'Rome' } })
    const message = sinkValue({ message: 'Compare with Paris', ok: 'OK' })
    h.send(message.value)
    await message.replied
    const link = sinkValue({ openLink: 'https://example.com/', ok: 'OK' })
    h.send(link.value)
    await link.replied
    const mode = sinkValue({ displayMode: 'fullscreen', ok: 'OK' })
    h.send(mode.value)
    expect((await mode.replied).data).toEqual({ mode: 'fullscreen' })
    expect(emulation.calls.filter(([n]) => n !== 'notifyIntrinsicHeight')).toEqual([
      ['callTool', ['get_forecast', { city: 'Rome' }]],
      ['sendFollowUpMessage', [{ prompt: 'Compare with Paris' }]],
      ['openExternal', [{ href: 'https://example.com/' }]],
      ['requestDisplayMode', [{ mode: 'fullscreen' }]],
    ])
  })

  it('a failed or isError tool call reaches the error action; what window.openai lacks is UNSUPPORTED before anything is called', async () => {
    markTwin(document)
    const emulation = emulateOpenAi(
      window,
      {},
      { tools: { bad: () => ({ content: [{ type: 'text', text: 'no such city' }], isError: true }) }, omit: ['sendFollowUpMessage'] },
    )
    const { h } = start()
    const bad = sinkValue({ callTool: 'bad', ok: 'OK', error: 'ERR' })
    h.send(bad.value)
    expect((await bad.replied).data.error).toBe('no such city')
    const missing = sinkValue({ callTool: 'missing', ok: 'OK', error: 'ERR' })
    h.send(missing.value)
    expect((await missing.replied).data.error).toMatch(/Unknown tool missing/)
    const message = sinkValue({ message: 'hi', ok: 'OK', error: 'ERR' })
    h.send(message.value)
    expect((await message.replied).data.code).toBe('UNSUPPORTED')
    const context = sinkValue({ updateModelContext: 'x', ok: 'OK', error: 'ERR' })
    h.send(context.value)
    expect((await context.replied).data.code).toBe('UNSUPPORTED')
    expect(emulation.calls.map(([n]) => n)).toEqual(['callTool', 'callTool'])
  })

  it('runs one tool call at a time, and a channel poll as a short poll', async () => {
    markTwin(document)
    let running = 0
    let most = 0
    const slow = async (args: Record<string, unknown>) => {
      most = Math.max(most, ++running)
      // The tool's own run time: calls overlap only if the adapter lets them.
      await new Promise((r) => setTimeout(r, 20))
      running--
      return { content: [], structuredContent: args }
    }
    const emulation = emulateOpenAi(window, {}, { tools: { a: slow as never, poll_ui_messages: slow as never } })
    const { h } = start()
    const first = sinkValue({ callTool: 'a', args: { n: 1 }, ok: 'OK' })
    const second = sinkValue({ callTool: 'a', args: { n: 2 }, ok: 'OK' })
    const poll = sinkValue({ callTool: 'poll_ui_messages', args: { channel_id: 'ch_1', wait_ms: 25_000 }, ok: 'OK' })
    h.send(first.value)
    h.send(second.value)
    h.send(poll.value)
    await Promise.all([first.replied, second.replied, poll.replied])
    expect(most).toBe(1)
    expect(emulation.calls.map(([n, args]) => [n, args[1]])).toEqual([
      ['callTool', { n: 1 }],
      ['callTool', { n: 2 }],
      ['callTool', { channel_id: 'ch_1', wait_ms: 0 }],
    ])
  })

  it("tries a call again while the host says another one is in progress (MCPJam's 409), and only then", async () => {
    markTwin(document)
    let refusals = 2
    const emulation = emulateOpenAi(
      window,
      {},
      {
        tools: {
          // What MCPJam Inspector 1.0 answers while any other tool call of its page runs: nothing was run.
          busy: () => {
            if (refusals-- > 0) throw new Error('Another execution is already in progress')
            return { content: [], structuredContent: { ran: true } }
          },
          broken: () => {
            throw new Error('the tool failed')
          },
        },
      },
    )
    const { h } = start()
    const busy = sinkValue({ callTool: 'busy', ok: 'OK', error: 'ERR' })
    h.send(busy.value)
    expect((await busy.replied).data).toMatchObject({ structuredContent: { ran: true } })
    expect(emulation.calls.filter(([, args]) => args[0] === 'busy')).toHaveLength(3)
    // Any other failure is the call's answer: not run again.
    const broken = sinkValue({ callTool: 'broken', ok: 'OK', error: 'ERR' })
    h.send(broken.value)
    expect((await broken.replied).data.error).toMatch(/the tool failed/)
    expect(emulation.calls.filter(([, args]) => args[0] === 'broken')).toHaveLength(1)
  })

  it('ChatGPT-only calls run where window.openai has them and are UNSUPPORTED elsewhere', async () => {
    markTwin(document)
    const emulation = emulateOpenAi(window, {}, { extras: true })
    const { h, MCP } = start()
    const host = collect(MCP.select('host'))
    const upload = sinkValue({ openai: 'uploadFile', args: { name: 'a.png' }, ok: 'OK' })
    h.send(upload.value)
    expect((await upload.replied).data).toEqual({ fileId: 'file_1' })
    expect(host[0]!.hostCapabilities.openai).toEqual({ uploadFile: {}, requestModal: {}, requestCheckout: {} })
    const checkout = sinkValue({ openai: 'requestCheckout', args: { id: 'c1' }, ok: 'OK' })
    h.send(checkout.value)
    expect((await checkout.replied).data).toEqual({ status: 'completed' })
    expect(emulation.calls.slice(-2)).toEqual([
      ['uploadFile', [{ name: 'a.png' }]],
      ['requestCheckout', [{ id: 'c1' }]],
    ])
    // An MCP Apps host has none of them.
    const fake = fakeHost()
    const other = harness()
    cleanups.push(() => other.dispose())
    makeMcpAppDriver({ window: fake.win as never, host: fake.host })(other.sink$, other.context)
    const modal = sinkValue({ openai: 'requestModal', args: {}, ok: 'OK', error: 'ERR' })
    other.send(modal.value)
    expect((await modal.replied).data.code).toBe('UNSUPPORTED')
  })
})

interface Picked {
  days: string[]
  selected: string | null
}
const Picker: Component<Picked> = ({ state }) => <p className="out">{`${state.days.join(',')}|${state.selected}`}</p>
Picker.initialState = { days: [], selected: null }
Picker.persist = ['selected']
Picker.intent = ({ MCP, DOM }) => ({ RESULT: MCP.select('tool-result'), PICK: DOM.select('.out').events('click') })
Picker.model = {
  RESULT: (s, r: any) => ({ ...s, days: r.structuredContent.days.map((d: { date: string }) => d.date) }),
  PICK: (s) => ({ ...s, selected: 'Tue' }),
}

describe('App.persist through setWidgetState', () => {
  it('keeps the picked day in the widget state and restores it when the host shows the view again', async () => {
    markTwin(document)
    const emulation = emulateOpenAi(window, { toolOutput: forecast, toolResponseMetadata: { viewUUID: 'view-1234' } })
    document.body.innerHTML = '<div id="root"></div>'
    let app: RunningApp = run(Picker, { MCP: makeMcpAppDriver({ autoResize: false }) })
    const out = () => document.querySelector('.out')?.textContent
    await until(() => out() === 'Mon,Tue|null', 'the first render')
    ;(document.querySelector('.out') as HTMLElement).click()
    await until(() => emulation.openai.widgetState?.duet?.state?.selected === 'Tue', 'the saved state')
    expect(emulation.openai.widgetState).toEqual({ duet: { id: 'view-1234', state: { selected: 'Tue' } } })
    app.dispose()

    // The host re-mounts the widget with its widget state.
    document.body.innerHTML = '<div id="root"></div>'
    app = run(Picker, { MCP: makeMcpAppDriver({ autoResize: false }) })
    cleanups.push(() => app.dispose())
    await until(() => out() === 'Mon,Tue|Tue', 'the restored day')
  })
})
