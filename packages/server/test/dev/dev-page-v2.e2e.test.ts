import { readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/client'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import type { Browser, FrameLocator, Page } from 'playwright-core'
import { openDevPage } from './dev-page.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as z from 'zod'
import { openChannelStore, registerChannelTools, type ChannelStore } from '../../src/channel/index.js'
import { startDevServer, type DevServer } from '../../src/dev/dev-server.js'
import { createAppServer, type AppServer } from '../../src/server/app-server.js'
import { launchBrowser } from '../../../../test/support/browser.js'
import { SHOTS_DIR as SHOTS } from '../../../../test/support/shots.js'
import { tempDir } from '../channel/temp-dir.js'
import { writeView } from './fixtures/build-view.js'

const WAIT = { timeout: 20_000 }

// The dev page's fixes of issue 13 (items 1, 2, 4, 5), against a real Duet server: createAppServer with
// the real channel tools on a SQLite file, the counter view under the official App, an SDK client as the agent.
describe('duet dev page v2 in Chromium', { timeout: 120_000 }, () => {
  let dir: ReturnType<typeof tempDir>
  let viewPath: string
  let store: ChannelStore
  let app: AppServer
  let serverUrl: string
  let agent: Client
  let dev: DevServer
  let browser: Browser
  let page: Page
  const channels: string[] = []

  const view = (): FrameLocator => page.frameLocator('[data-testid=app-frame]').frameLocator('iframe')
  const panel = (id: string) => page.getByTestId(id)
  const waitText = (id: string, text: string) => panel(id).filter({ hasText: text }).first().waitFor(WAIT)
  // The agent panel's own polls, as the trace shows them (request and answer): a count that grows with each one.
  const panelPolls = () => panel('trace').locator('.trace-entry').filter({ hasText: 'poll_agent_messages' }).count()
  const agentWatch = async (channel: string) => {
    const r = (await agent.callTool({ name: 'poll_agent_messages', arguments: { channel_id: channel, since: '0' } })) as {
      structuredContent?: { messages?: unknown[] }
    }
    return r.structuredContent?.messages ?? []
  }
  const agentPoll = async (channel: string) => {
    const r = (await agent.callTool({ name: 'poll_agent_messages', arguments: { channel_id: channel } })) as { structuredContent?: { messages?: unknown[] } }
    return r.structuredContent?.messages ?? []
  }
  const callCounter = async (label: string) => {
    await page.getByTestId('tool-show_counter').click()
    await page.getByTestId('field-label').fill(label)
    await page.getByTestId('call-button').click()
    await view().locator('#label').filter({ hasText: label }).waitFor(WAIT)
  }

  beforeAll(async () => {
    dir = tempDir('duet-dev-v2-')
    viewPath = join(dir.dir, 'counter.html')
    await writeView(viewPath, 'v1')
    store = await openChannelStore({ backend: 'sqlite', dataDir: dir.dir })
    app = createAppServer({ name: 'dev-v2', version: '1.0.0' })
    registerChannelTools(app, store)
    app.appTool(
      'show_counter',
      {
        description: 'Shows a counter on a fresh channel',
        inputSchema: {
          label: z.string().describe('What to count'),
          page_html: z.string().optional().describe('Markup (shown monospace)'),
          start: z.number().int().optional(),
        },
        view: { file: viewPath, uri: 'ui://dev-v2/counter.html' },
      },
      async ({ label, start }) => {
        const channel_id = await store.open()
        channels.push(channel_id)
        return { content: [{ type: 'text', text: `Counter for ${label}` }], structuredContent: { label, count: start ?? 0, channel_id } }
      },
    )
    app.tool('bump', { description: 'App-only: add one', inputSchema: { count: z.number() }, visibility: ['app'] }, async ({ count }) => ({
      content: [{ type: 'text', text: String(count + 1) }],
      structuredContent: { count: count + 1 },
    }))
    app.tool('fail_tool', { description: 'Always fails', inputSchema: {} }, async () => ({ content: [{ type: 'text', text: 'boom' }], isError: true }))
    const listening = await app.listen({ http: { port: 0 }, handleSignals: false })
    serverUrl = listening.url!
    agent = new Client({ name: 'agent', version: '1.0.0' })
    await agent.connect(new StreamableHTTPClientTransport(new URL(serverUrl)))
    dev = await startDevServer({ servers: [{ kind: 'http', url: serverUrl }], port: 0, pollMs: 300 })
    browser = await launchBrowser()
    page = await openDevPage(browser, dev.url, { context: { acceptDownloads: true } })
    await waitText('server-status-s1', 'connected')
  })

  afterAll(async () => {
    await browser?.close()
    await dev?.close()
    await agent?.close()
    await app?.close()
    await store?.dispose()
    dir?.remove()
  })

  it('edits strings in auto-growing text areas that keep newlines, code-like ones in monospace', async () => {
    await page.getByTestId('tool-show_counter').click()
    const label = page.getByTestId('field-label')
    const html = page.getByTestId('field-page_html')
    expect(await label.evaluate((el) => el.tagName)).toBe('TEXTAREA')
    expect(await html.evaluate((el) => getComputedStyle(el).fontFamily)).toMatch(/monospace/)
    expect(await label.evaluate((el) => getComputedStyle(el).fontFamily)).not.toMatch(/monospace/)
    const oneLine = await html.evaluate((el) => el.getBoundingClientRect().height)
    await html.fill('<div>\n  // a comment\n  <b>one</b>\n  <b>two</b>\n  <b>three</b>\n</div>')
    expect(await html.evaluate((el) => el.getBoundingClientRect().height)).toBeGreaterThan(oneLine * 3)
    await label.fill('two\nlines')
    await page.getByTestId('call-button').click()
    await view().locator('#label').filter({ hasText: 'two' }).waitFor(WAIT)
    // The view got the newlines: its tool input is the JSON of what was typed (textContent: innerText folds spaces).
    const input = JSON.parse((await view().locator('#input').textContent()) ?? '')
    expect(input).toEqual({ label: 'two\nlines', page_html: '<div>\n  // a comment\n  <b>one</b>\n  <b>two</b>\n  <b>three</b>\n</div>' })
    await page.screenshot({ path: `${SHOTS}/dev-v2-textarea.png` })
  })

  it('edits arguments as raw JSON: switching keeps values, invalid JSON is an inline error and nothing is sent', async () => {
    await page.getByTestId('tool-show_counter').click()
    await page.getByTestId('field-label').fill('pears')
    await page.getByTestId('field-start').fill('not a number')
    await page.getByTestId('args-mode').click()
    // What does not parse yet is kept as typed, not dropped.
    expect(JSON.parse(await page.getByTestId('args-json').inputValue())).toEqual({ label: 'pears', start: 'not a number' })
    const json = page.getByTestId('args-json')
    await json.fill('{"label": "plums",')
    await waitText('args-json-error', 'not valid JSON')
    const calls = () => panel('trace').locator('.trace-entry').filter({ hasText: '"name": "show_counter"' }).count()
    const before = await calls()
    await page.getByTestId('call-button').click()
    await waitText('form-errors', 'not valid JSON')
    expect(await calls()).toBe(before)
    // Back to the form is refused while the JSON is broken or holds what the form cannot show.
    await page.getByTestId('args-mode').click()
    expect(await json.isVisible()).toBe(true)
    await json.fill('{"label": "plums", "bogus": 1}')
    await page.getByTestId('args-mode').click()
    await waitText('args-json-error', 'bogus is not in the tool')
    await json.fill('{"label": "plums\\nand figs", "start": 4}')
    await page.getByTestId('args-mode').click()
    expect(await page.getByTestId('field-label').inputValue()).toBe('plums\nand figs')
    expect(await page.getByTestId('field-start').inputValue()).toBe('4')
    // A call from JSON mode sends exactly the JSON.
    await page.getByTestId('args-mode').click()
    await page.getByTestId('call-button').click()
    await view().locator('#count').filter({ hasText: '4' }).waitFor(WAIT)
    expect(JSON.parse((await view().locator('#input').textContent()) ?? '')).toEqual({ label: 'plums\nand figs', start: 4 })
    await page.getByTestId('args-mode').click()
  })

  it('watches the channel without taking: the agent polls and gets the message the panel shows', async () => {
    await callCounter('apples')
    const first = channels.at(-1)!
    expect(await page.getByTestId('agent-channel').inputValue()).toBe(first)
    expect(await page.getByTestId('agent-consume').isChecked()).toBe(false)
    await view().locator('#ask').click()
    await waitText('agent-inbox', 'what next?')
    // Let the panel poll a few more times: watching must still leave the message queued.
    const polls = await panelPolls()
    await expect.poll(panelPolls, WAIT).toBeGreaterThanOrEqual(polls + 4)
    const got = await agentPoll(first)
    expect(got).toHaveLength(1)
    expect(got[0]).toMatchObject({ event: 'ask', data: { question: 'what next?' } })
    expect(await panel('agent-inbox').locator('.entry').first().innerText()).toContain(`[${first}] ask (watched)`)
  })

  it('follows the newest channel, labels entries by channel, clears, and takes only when asked to play the agent', async () => {
    const before = channels.at(-1)!
    await callCounter('bananas')
    const second = channels.at(-1)!
    expect(second).not.toBe(before)
    expect(await page.getByTestId('agent-channel').inputValue()).toBe(second)
    await view().locator('#ask').click()
    await panel('agent-inbox').locator(`.entry[data-channel="${second}"]`).first().waitFor(WAIT)
    // Both channels' entries, each labelled with its own.
    expect(await panel('agent-inbox').locator(`.entry[data-channel="${before}"]`).count()).toBe(1)
    expect(await agentPoll(second)).toHaveLength(1)

    await page.getByTestId('agent-clear').click()
    expect(await panel('agent-inbox').locator('.entry').count()).toBe(0)

    await page.getByTestId('agent-consume').check()
    await view().locator('#ask').click()
    await waitText('agent-inbox', '(taken)')
    // Taking reads with `after`, so the message leaves the queue when the panel's next poll acknowledges it;
    // watching (which removes nothing) shows when that has happened.
    await expect.poll(() => agentWatch(second), WAIT).toEqual([])
    expect(await agentPoll(second)).toEqual([])
    await page.getByTestId('agent-consume').uncheck()
  })

  it('shows the trace newest first with time, direction, method, durations, failures and collapsed payloads', async () => {
    await page.getByTestId('tool-fail_tool').click()
    await page.getByTestId('call-button').click()
    await waitText('tool-result', 'isError')
    const rows = panel('trace').locator('.trace-entry')
    const heads = await panel('trace').locator('.trace-entry:not([hidden]) .trace-head').allInnerTexts()
    expect(heads.length).toBeGreaterThan(10)
    for (const head of heads.slice(0, 20)) expect(head).toMatch(/^\d\d:\d\d:\d\d\.\d{3}\s+(→|←) (view|server)/)
    // Newest first: the failed call's answer is above its request, and both are marked.
    const failed = panel('trace').locator('.trace-entry.failed').filter({ hasText: 'tools/call' })
    expect(await failed.count()).toBe(2)
    expect(await failed.first().innerText()).toMatch(/tools\/call \(answer\)[\s\S]*\d+ ms[\s\S]*tool result isError/)
    expect(await failed.nth(1).innerText()).toMatch(/→ server[\s\S]*tools\/call/)
    // The view's HTML went out in sandbox-resource-ready: collapsed behind a toggle, with a short preview.
    const ready = rows.filter({ hasText: 'ui/notifications/sandbox-resource-ready' }).first()
    expect(await ready.locator('[data-testid=trace-collapsed]').count()).toBe(1)
    expect((await ready.innerText()).length).toBeLessThan(600)
    expect(await ready.innerText()).toMatch(/"html":"<!doctype html>.*… \(\d+ chars\)"/i)
    await ready.locator('[data-testid=trace-collapsed] summary').click()
    await expect.poll(async () => (await ready.innerText()).length).toBeGreaterThan(10_000)
    await ready.locator('[data-testid=trace-collapsed] summary').click()
    // Bounded: the trace scrolls inside its box.
    const box = await panel('trace').evaluate((el) => ({ client: el.clientHeight, scroll: el.scrollHeight }))
    expect(box.client).toBeLessThanOrEqual(1000 * 0.6 + 1)
    expect(box.scroll).toBeGreaterThan(box.client)
    await page.screenshot({ path: `${SHOTS}/dev-v2-trace.png` })
    expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThan(3000)
  })

  it("hides the agent panel's watching polls unless asked, so they do not bury the trace", async () => {
    // A watching poll carries `since`; its answer `next_since`.
    const watching = /"since"|next_since/
    await panel('trace')
      .locator('.trace-entry')
      .filter({ hasText: watching })
      .first()
      .waitFor({ state: 'attached', ...WAIT })
    expect(await panel('trace').locator('.trace-entry:not([hidden])').filter({ hasText: watching }).count()).toBe(0)
    await page.getByTestId('trace-background').check()
    await panel('trace').locator('.trace-entry:not([hidden])').filter({ hasText: watching }).first().waitFor(WAIT)
    await page.getByTestId('trace-background').uncheck()
  })

  it('marks -32601 answers, filters errors only and by direction, and exports the trace as JSON', async () => {
    // VS Code offers no updateModelContext: the bridge answers the view's request with Method not found.
    await page.getByTestId('preset-select').selectOption('vscode')
    await waitText('logs', 'host preset changed')
    await view().locator('#plus').click()
    await panel('trace').locator('.trace-entry.failed').filter({ hasText: '-32601' }).first().waitFor(WAIT)
    await page.getByTestId('trace-errors').check()
    const shown = await panel('trace').locator('.trace-entry:not([hidden])').allInnerTexts()
    expect(shown.length).toBeGreaterThan(0)
    expect(shown.every((t) => /error -?\d+|isError/.test(t))).toBe(true)
    expect(shown.some((t) => t.includes('ui/update-model-context') && t.includes('error -32601'))).toBe(true)
    await page.getByTestId('trace-errors').uncheck()
    await page.getByTestId('trace-dir').selectOption('view->host')
    const fromView = await panel('trace').locator('.trace-entry:not([hidden]) .trace-head').allInnerTexts()
    expect(fromView.length).toBeGreaterThan(0)
    expect(fromView.every((t) => t.includes('← view'))).toBe(true)
    await page.getByTestId('trace-dir').selectOption('')
    await page.getByTestId('preset-select').selectOption('full')
    await waitText('logs', 'host preset changed')

    const before = await panel('trace').locator('.trace-entry').count()
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('trace-export').click()])
    // saveAs, not path(): the run's shared Chromium is a remote connection, which keeps downloads on its side.
    const file = join(tmpdir(), `duet-trace-${process.pid}-${Date.now()}.json`)
    await download.saveAs(file)
    const data = JSON.parse(readFileSync(file, 'utf8')) as { at: string; dir: string; method?: string; durationMs?: number; failed?: string }[]
    expect(download.suggestedFilename()).toMatch(/^duet-trace-.*\.json$/)
    // Every entry shown at the click (the trace keeps growing while the view runs).
    expect(data.length).toBeGreaterThanOrEqual(before)
    expect(data.length).toBeLessThanOrEqual(await panel('trace').locator('.trace-entry').count())
    expect(data.every((e) => !Number.isNaN(Date.parse(e.at)) && typeof e.dir === 'string')).toBe(true)
    expect(data.some((e) => e.method === 'tools/call' && typeof e.durationMs === 'number')).toBe(true)
    expect(data.some((e) => e.failed?.startsWith('error -32601'))).toBe(true)
  })

  it('clears model context, messages and the old view’s logs on remount', async () => {
    await callCounter('cherries')
    await view().locator('#plus').click()
    await waitText('model-context', 'count is 1')
    await view().locator('#say').click()
    await waitText('messages', 'the count is 1')
    await waitText('logs', 'counter view ready')
    const ready = () => panel('logs').locator('.entry').filter({ hasText: 'counter view ready' }).count()
    expect(await ready()).toBe(1)
    await writeView(viewPath, 'v2')
    await view().locator('#version').filter({ hasText: 'v2' }).waitFor(WAIT)
    await waitText('logs', 'the view changed on the server')
    expect(await panel('model-context').innerText()).toBe('')
    expect(await panel('messages').innerText()).toBe('')
    // The new view's own log line, and only it.
    await waitText('logs', 'counter view ready')
    expect(await ready()).toBe(1)
  })

  it('gives full screen a host bar with Exit, leaves on Escape, and keeps the header reachable', async () => {
    await page.getByTestId('display-select').selectOption('fullscreen')
    await page.getByTestId('host-bar').waitFor({ state: 'visible', ...WAIT })
    // The header is on top, not under the app.
    const onTop = await page.evaluate(() => {
      const header = document.querySelector('header')!
      const r = header.getBoundingClientRect()
      return header.contains(document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2))
    })
    expect(onTop).toBe(true)
    const frame = await page.getByTestId('app-frame').boundingBox()
    const bar = await page.getByTestId('host-bar').boundingBox()
    expect(frame!.y).toBeGreaterThanOrEqual(bar!.y + bar!.height - 1)
    await page.screenshot({ path: `${SHOTS}/dev-v2-fullscreen.png` })
    await page.getByTestId('exit-fullscreen').click()
    expect(await page.getByTestId('display-select').inputValue()).toBe('inline')
    expect(await page.getByTestId('host-bar').isVisible()).toBe(false)
    // The view is told it is inline again.
    await page.getByTestId('trace-filter').fill('host-context-changed')
    await panel('trace').locator('.trace-entry:not([hidden])').first().filter({ hasText: '"displayMode": "inline"' }).waitFor(WAIT)
    await page.getByTestId('trace-filter').fill('')

    await page.getByTestId('display-select').selectOption('fullscreen')
    await page.getByTestId('host-bar').waitFor({ state: 'visible', ...WAIT })
    await page.locator('header h1').click()
    await page.keyboard.press('Escape')
    expect(await page.getByTestId('display-select').inputValue()).toBe('inline')
    expect(await page.getByTestId('host-bar').isVisible()).toBe(false)
  })
})
