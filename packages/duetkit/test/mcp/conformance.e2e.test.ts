import { mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Frame } from 'playwright-core'
import { launchBrowser } from '../../../../test/support/browser.js'
import { bundleScript, htmlPage, openHostPage, type HostPage } from '../../../../test/support/host/index.js'

import { SHOTS_DIR as SHOTS } from '../../../../test/support/shots.js'
const entry = (name: string) => fileURLToPath(new URL(`./e2e/${name}`, import.meta.url))
const IMPLS = [
  { name: 'duet', entry: entry('duet-view.browser.ts') },
  { name: 'official App', entry: entry('official-view.browser.ts') },
] as const

let browser: Browser
beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
})

const viewState = (frame: Frame) => frame.evaluate(() => (window as any).__view as { received: any[]; replies: any[]; renders: number; state: any })
const waitInView = (frame: Frame, fn: string, arg?: unknown) =>
  frame.waitForFunction(new Function('arg', `const v = window.__view; return (${fn})`) as any, arg, { timeout: 20_000 })
const send = (frame: Frame, value: Record<string, unknown>) => frame.evaluate((v) => void (window as any).__send(v), value)
async function sendAndReply(frame: Frame, value: Record<string, unknown>) {
  const before = (await viewState(frame)).replies.length
  await send(frame, value)
  await waitInView(frame, `v.replies.length > ${before}`)
  return (await viewState(frame)).replies[before]
}

for (const impl of IMPLS) {
  for (const proxy of [false, true]) {
    describe(`${impl.name} view against the official AppBridge${proxy ? ', behind a sandbox proxy' : ''}`, () => {
      let host: HostPage
      let frame: Frame
      beforeAll(async () => {
        const html = htmlPage(await bundleScript(impl.entry), { title: `${impl.name} conformance` })
        host = await openHostPage(browser, {
          viewHtml: html,
          proxy,
          toolResults: { get_forecast: { content: [{ type: 'text', text: 'Sunny all week' }], structuredContent: { days: 7 } } },
        })
        await host.initialized()
        frame = host.viewFrame()
      })
      afterAll(async () => {
        await host?.close()
      })

      it('does the handshake: ui/initialize, its result, then initialized, all strict JSON-RPC', async () => {
        const log = await host.log()
        const fromView = log.filter((e) => e.dir === 'view->host').map((e) => e.data)
        expect(fromView[0]).toMatchObject({
          jsonrpc: '2.0',
          method: 'ui/initialize',
          params: { protocolVersion: '2026-01-26', appCapabilities: { availableDisplayModes: ['inline', 'fullscreen'] } },
        })
        expect(fromView[0].params.appInfo.name).toMatch(/conformance/)
        expect(fromView[1]).toMatchObject({ jsonrpc: '2.0', method: 'ui/notifications/initialized' })
        const answer = log.find((e) => e.dir === 'host->view' && e.data.id === fromView[0].id && 'result' in e.data)
        expect(answer?.data.result.hostInfo).toEqual({ name: 'DuetTestHost', version: '1.0.0' })
        await waitInView(frame, "v.received.some((r) => r.source === 'host')")
        const { received } = await viewState(frame)
        expect(received.find((r) => r.source === 'host').value.hostInfo).toEqual({ name: 'DuetTestHost', version: '1.0.0' })
        expect(received.find((r) => r.source === 'host-context-changed').value).toMatchObject({ theme: 'light', locale: 'en-US', displayMode: 'inline' })
      })

      it('receives partial input, input, result and cancellation', async () => {
        await host.sendToolInputPartial({ city: 'Lis' })
        await host.sendToolInput({ city: 'Lisbon' })
        await host.sendToolResult({ content: [{ type: 'text', text: 'Sunny, 24°' }], structuredContent: { t: 24 } })
        await host.sendToolCancelled('superseded')
        await waitInView(frame, "v.received.some((r) => r.source === 'tool-cancelled')")
        const { received, state } = await viewState(frame)
        const bySource = (s: string) => received.filter((r) => r.source === s).map((r) => r.value)
        expect(bySource('tool-input-partial')).toEqual([{ city: 'Lis' }])
        expect(bySource('tool-input')).toEqual([{ city: 'Lisbon' }])
        expect(bySource('tool-result')).toEqual([{ content: [{ type: 'text', text: 'Sunny, 24°' }], structuredContent: { t: 24 } }])
        expect(bySource('tool-cancelled')).toEqual([{ reason: 'superseded' }])
        expect(state.city).toBe('Lisbon')
        expect(await frame.textContent('#title')).toBe('Forecast for Lisbon')
      })

      it('merges host context changes and follows the theme (screenshots light and dark)', async () => {
        mkdirSync(SHOTS, { recursive: true })
        const tag = `${impl.name.replace(/\W+/g, '-')}${proxy ? '-proxy' : ''}`
        expect(await frame.evaluate(() => document.documentElement.getAttribute('data-theme'))).toBe('light')
        await host.page.locator('#view').screenshot({ path: `${SHOTS}/mcp-${tag}-light.png` })
        await host.sendHostContextChange({
          theme: 'dark',
          styles: { variables: { '--color-background-primary': '#101418', '--color-text-primary': '#e8eef5', '--color-border-info': '#f59e0b' } },
        })
        await waitInView(frame, "document.documentElement.getAttribute('data-theme') === 'dark'")
        const ctx = (await viewState(frame)).received.filter((r) => r.source === 'host-context-changed').at(-1)!.value
        expect(ctx).toMatchObject({ theme: 'dark', locale: 'en-US', displayMode: 'inline', timeZone: 'UTC' })
        const colors = await frame.evaluate(() => ({
          bg: getComputedStyle(document.body).backgroundColor,
          scheme: getComputedStyle(document.documentElement).colorScheme,
        }))
        expect(colors).toEqual({ bg: 'rgb(16, 20, 24)', scheme: 'dark' })
        await host.page.locator('#view').screenshot({ path: `${SHOTS}/mcp-${tag}-dark.png` })
      })

      it('calls a server tool through the host; ok gets the result', async () => {
        const r = await sendAndReply(frame, { callTool: 'get_forecast', args: { city: 'Lisbon' }, ok: 'RESULT', error: 'FAILED' })
        expect(r).toEqual({
          kind: 'ok',
          action: 'RESULT',
          data: expect.objectContaining({ content: [{ type: 'text', text: 'Sunny all week' }], structuredContent: { days: 7 } }),
        })
        expect((await host.waitForEvent('calltool')).params).toMatchObject({ name: 'get_forecast', arguments: { city: 'Lisbon' } })
      })

      it('sends message, model context, link, display mode and log; each reaches its host handler', async () => {
        expect(await sendAndReply(frame, { message: 'What should I pack?', ok: 'SENT' })).toMatchObject({ kind: 'ok', action: 'SENT' })
        expect((await host.waitForEvent('message')).params).toEqual({ role: 'user', content: [{ type: 'text', text: 'What should I pack?' }] })
        await sendAndReply(frame, { updateModelContext: { city: 'Lisbon', selected: 'Tue' }, ok: 'SENT' })
        expect((await host.waitForEvent('updatemodelcontext')).params).toEqual({ structuredContent: { city: 'Lisbon', selected: 'Tue' } })
        await sendAndReply(frame, { openLink: 'https://example.com/forecast', ok: 'SENT' })
        expect((await host.waitForEvent('openlink')).params).toEqual({ url: 'https://example.com/forecast' })
        const mode = await sendAndReply(frame, { displayMode: 'fullscreen', ok: 'MODE' })
        expect(mode.data).toMatchObject({ mode: 'fullscreen' })
        await sendAndReply(frame, { log: 'hello host', level: 'warning', ok: 'LOGGED' })
        expect((await host.waitForEvent('loggingmessage')).params).toMatchObject({ level: 'warning', data: 'hello host' })
      })

      it('reports its size, and again when the content grows', async () => {
        const first = await host.waitForEvent('sizechange')
        expect(first.params.width).toBeGreaterThan(0)
        await frame.evaluate(() => (window as any).__setTall(true))
        const grown = await host.page.waitForFunction(
          (h0) =>
            (window as any).__duetHost.events
              .filter((e: any) => e.name === 'sizechange')
              .map((e: any) => e.params.height)
              .find((h: number) => h >= h0 + 200),
          first.params.height,
          { timeout: 20_000 },
        )
        expect(await grown.jsonValue()).toBeGreaterThanOrEqual(first.params.height + 200)
        const heights = (await host.events()).filter((e) => e.name === 'sizechange').map((e) => e.params.height)
        // Reported only on change: no two consecutive reports are equal.
        expect(heights.every((h, i) => i === 0 || h !== heights[i - 1])).toBe(true)
      })

      it('lists its agent tools and runs one through bridge.callTool', async () => {
        const listed = await host.listTools()
        const select = listed.tools.find((t: any) => t.name === 'card_select')
        expect(select.inputSchema).toMatchObject({ type: 'object', properties: { input: { enum: ['Mon', 'Tue', 'Wed'] } } })
        const r = await host.callTool('card_select', { input: 'Tue' })
        expect(r.structuredContent).toMatchObject({ selected: 'Tue' })
        expect(await frame.textContent('#selected')).toBe('Selected: Tue')
        const bad = await host.callTool('card_select', { input: 'Sun' })
        // Invalid arguments are the caller's mistake: Duet answers -32602 (Invalid params); the
        // official App reports -32603. Both refuse, and neither touched the view.
        expect(bad.rpcError?.code).toBe(impl.name === 'duet' ? -32602 : -32603)
        expect(bad.rpcError?.message).toMatch(/card_select/)
        expect(await frame.textContent('#selected')).toBe('Selected: Tue')
      })

      it('ignores a forged tool result posted from a sibling frame', async () => {
        await host.forgeFromSibling({ jsonrpc: '2.0', method: 'ui/notifications/tool-result', params: { content: [{ type: 'text', text: 'FORGED' }] } })
        await host.sendToolResult({ content: [{ type: 'text', text: 'after the forgery' }] })
        await waitInView(frame, "v.state.result === 'after the forgery'")
        const { received } = await viewState(frame)
        expect(JSON.stringify(received)).not.toContain('FORGED')
      })

      it('answers ui/resource-teardown after the actions it caused have rendered', async () => {
        const r = await host.teardown()
        expect(r).toEqual({})
        const { received, state } = await viewState(frame)
        expect(received.some((e) => e.source === 'teardown')).toBe(true)
        expect(state.result).toBe('bye')
        expect(await frame.textContent('#result')).toBe('bye')
      })

      it('sent only strict JSON-RPC, and the bridge reported no protocol error', async () => {
        const fromView = (await host.log()).filter((e) => e.dir === 'view->host').map((e) => e.data)
        for (const m of fromView) {
          expect(Object.keys(m).every((k) => ['jsonrpc', 'id', 'method', 'params', 'result', 'error'].includes(k))).toBe(true)
          if ('id' in m && typeof m.id === 'number') expect(Number.isInteger(m.id)).toBe(true)
        }
        expect((await host.events()).filter((e) => e.name === 'onerror')).toEqual([])
      })
    })
  }
}

describe('duet view: what the official App lacks a helper for', () => {
  let host: HostPage
  let frame: Frame
  beforeAll(async () => {
    host = await openHostPage(browser, {
      viewHtml: htmlPage(await bundleScript(entry('duet-view.browser.ts'))),
      toolErrors: { get_alerts: 'the alerts service is down' },
      // A host that offers pip: the driver refuses a mode the host does not list (UNSUPPORTED).
      hostContext: { theme: 'light', displayMode: 'inline', availableDisplayModes: ['inline', 'fullscreen', 'pip'], locale: 'en-US', platform: 'web' },
    })
    await host.initialized()
    frame = host.viewFrame()
  })
  afterAll(async () => {
    await host?.close()
  })

  it('downloads, reads and lists resources, lists templates and prompts, and samples', async () => {
    await sendAndReply(frame, { downloadFile: { uri: 'file:///forecast.csv', mimeType: 'text/csv', text: 'Mon,21' }, ok: 'DONE' })
    expect((await host.waitForEvent('downloadfile')).params).toEqual({
      contents: [{ type: 'resource', resource: { uri: 'file:///forecast.csv', mimeType: 'text/csv', text: 'Mon,21' } }],
    })
    expect((await sendAndReply(frame, { readResource: 'file:///a.txt', ok: 'READ' })).data).toEqual({
      contents: [{ uri: 'file:///a.txt', mimeType: 'text/plain', text: 'contents of file:///a.txt' }],
    })
    expect((await sendAndReply(frame, { listResources: true, ok: 'LIST' })).data.resources).toEqual([{ uri: 'file:///a.txt', name: 'a.txt' }])
    expect((await sendAndReply(frame, { listResourceTemplates: true, ok: 'LIST' })).data.resourceTemplates).toHaveLength(1)
    expect((await sendAndReply(frame, { listPrompts: { cursor: 'x' }, ok: 'LIST' })).data.prompts).toEqual([{ name: 'summarize' }])
    expect((await host.waitForEvent('listprompts')).params).toEqual({ cursor: 'x' })
    const sample = await sendAndReply(frame, { createMessage: 'Summarize the week', ok: 'SUMMARY' })
    expect(sample.data).toMatchObject({ role: 'assistant', content: { type: 'text', text: 'a sunny week' }, model: 'test-model' })
    expect((await host.waitForEvent('createmessage')).params).toMatchObject({
      maxTokens: 1024,
      messages: [{ role: 'user', content: { type: 'text', text: 'Summarize the week' } }],
    })
  })

  it('a JSON-RPC error from the host goes to the error action, with its code and message', async () => {
    const r = await sendAndReply(frame, { callTool: 'get_alerts', args: {}, ok: 'ALERTS', error: 'FAILED' })
    expect(r).toMatchObject({ kind: 'error', action: 'FAILED', data: { code: -32603, error: expect.stringContaining('the alerts service is down') } })
  })

  it('asks for pip display mode and a teardown: the host grants the mode and hears the request', async () => {
    const r = await sendAndReply(frame, { displayMode: 'pip', ok: 'MODE', error: 'FAILED' })
    expect(r).toMatchObject({ kind: 'ok', action: 'MODE', data: { mode: 'pip' } })
    await sendAndReply(frame, { requestTeardown: true, ok: 'ASKED' })
    expect(await host.waitForEvent('requestteardown')).toBeTruthy()
  })

  it('tells the host when an agent tool appears (when), and the new tool works', async () => {
    expect((await host.listTools()).tools.map((t: any) => t.name)).not.toContain('card_clear')
    await host.callTool('card_select', { input: 'Mon' })
    await host.waitForEvent('tools/list_changed')
    expect((await host.listTools()).tools.map((t: any) => t.name)).toContain('card_clear')
    expect((await host.callTool('card_clear', {})).structuredContent).toMatchObject({ selected: null })
  })
})

describe('duet view: auto-resize of viewport-sized layouts', () => {
  const frames = (frame: Frame, n: number) =>
    frame.evaluate(
      (count) =>
        new Promise<void>((resolve) => {
          let left = count
          const step = () => (--left <= 0 ? resolve() : requestAnimationFrame(step))
          requestAnimationFrame(step)
        }),
      n,
    )

  for (const css of [
    'html, body { margin: 8px !important } body { min-height: 100vh }',
    'main { height: 100vh }',
    'html, body, main { height: 100% } body { margin: 8px !important }',
  ]) {
    it(`settles instead of growing forever: ${css}`, async () => {
      const html = htmlPage(await bundleScript(entry('duet-view.browser.ts')), { head: `<style>${css}</style>` })
      const host = await openHostPage(browser, { viewHtml: html })
      try {
        await host.initialized()
        await host.waitForEvent('sizechange')
        // Enough frames for a feedback loop to show itself (each round trip takes one or two).
        await frames(host.viewFrame(), 60)
        const heights = (await host.events()).filter((e) => e.name === 'sizechange').map((e) => e.params.height)
        expect(heights.length).toBeLessThanOrEqual(2)
        expect(Math.max(...heights)).toBeLessThan(160)
      } finally {
        await host.close()
      }
    })
  }
})
