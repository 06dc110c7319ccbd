import { afterAll, beforeAll, expect, it } from 'vitest'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Client } from '@modelcontextprotocol/client'
import type { Browser, Frame } from 'playwright-core'
import type { AppServer, Listening } from '@duetkit/server'
import { launchBrowser } from '../../../../test/support/browser.js'
import { exampleView } from '../../../../test/support/built.js'
import type { HostPage } from '../../../../test/support/host/index.js'
import { tempDataDir } from './harness.js'
import { askAbout, connectHttp, deliverToolCall, openServerView, shotPath } from './display-e2e-harness.js'

// The Declaration reader, built as its example ships it, shown by its example server's open_reader
// tool in the official AppBridge host; the SDK client answers its questions as the agent would.

let tmp: ReturnType<typeof tempDataDir>
let server: AppServer
let listening: Listening
let agent: Client
let hostClient: Client
let browser: Browser
let host: HostPage | undefined

beforeAll(async () => {
  tmp = tempDataDir()
  const viewFile = join(tmp.dir, 'reader.html')
  const [html, b] = await Promise.all([exampleView('reader'), launchBrowser()])
  browser = b
  writeFileSync(viewFile, html)
  const { createReaderServer } = await import('../../../../examples/reader/server/server.js')
  server = await createReaderServer({ dataDir: tmp.dir, viewFile })
  listening = await server.listen({ http: { port: 0 }, handleSignals: false })
  ;[agent, hostClient] = await Promise.all([connectHttp(listening.url!, 'agent'), connectHttp(listening.url!, 'host')])
})
afterAll(async () => {
  await host?.close()
  await agent?.close()
  await hostClient?.close()
  await browser?.close()
  await server?.close()
  tmp?.remove()
})

/** Drains the reader's questions until `count` have arrived, waiting in the turn as an agent would. */
async function questions(channel: string, count: number): Promise<any[]> {
  const got: any[] = []
  while (got.length < count) {
    const result = (await agent.callTool({ name: 'poll_agent_messages', arguments: { channel_id: channel, wait_seconds: 30 } })) as any
    expect(result.isError, result.content?.[0]?.text).toBeFalsy()
    got.push(...result.structuredContent.messages)
  }
  return got
}

const answer = (channel: string, threadId: string, text: string) =>
  agent.callTool({ name: 'notify_ui', arguments: { channel_id: channel, event: 'answer', data: { thread_id: threadId, text } } })

const agentText = (frame: Frame, threadId: string) =>
  frame.$$eval(`.thread[data-thread="${threadId}"] .message.agent .text`, (els) => els.map((e) => e.textContent))

it('two threads: each question reaches the agent with its passage, and each answer lands beside its own passage', { timeout: 120_000 }, async () => {
  const opened = (await agent.callTool({ name: 'open_reader', arguments: {} })) as any
  const channel = opened.structuredContent.channel_id
  expect(channel).toMatch(/^[A-Za-z0-9_-]{20,}$/)
  host = await openServerView(browser, hostClient, 'ui://reader/view.html')
  await deliverToolCall(host, {}, opened)
  const frame = host.viewFrame()
  await frame.waitForSelector('#truths')

  await askAbout(frame, 'truths', 'all men are created equal', 'Who counted as men?')
  await askAbout(frame, 'preamble', 'dissolve the political bands', 'Which bands?')
  const [first, second] = await questions(channel, 2)
  expect(first).toMatchObject({
    event: 'ask',
    data: { thread_id: 't1', quote: 'all men are created equal', question: 'Who counted as men?', paragraph_id: 'truths', history: [] },
  })
  expect(first.data.paragraph).toMatch(/^We hold these truths/)
  expect(second).toMatchObject({
    event: 'ask',
    data: { thread_id: 't2', quote: 'dissolve the political bands', question: 'Which bands?', paragraph_id: 'preamble' },
  })

  // Answered out of order: each answer still finds its thread.
  await answer(channel, 't2', 'The ties of allegiance to the British Crown.')
  await answer(channel, 't1', 'In 1776, in practice, property-owning white men.')
  await frame.waitForSelector('.thread[data-thread="t1"].answered')
  await frame.waitForSelector('.thread[data-thread="t2"].answered')
  expect(await agentText(frame, 't1')).toEqual(['In 1776, in practice, property-owning white men.'])
  expect(await agentText(frame, 't2')).toEqual(['The ties of allegiance to the British Crown.'])
  expect(await frame.$eval('#preamble + .margin .thread', (el) => el.getAttribute('data-thread'))).toBe('t2')

  // A follow-up in the first thread carries the thread so far.
  await frame.fill('.follow-up[data-thread="t1"]', 'And today?')
  await frame.click('.send-follow-up[data-thread="t1"]')
  const [follow] = await questions(channel, 1)
  expect(follow.data).toMatchObject({ thread_id: 't1', question: 'And today?' })
  expect(follow.data.history.map((m: { from: string }) => m.from)).toEqual(['user', 'agent'])
  await answer(channel, 't1', 'Everyone, as the law reads now.')
  await frame.waitForFunction(() => document.querySelectorAll('.thread[data-thread="t1"] .message.agent').length === 2, undefined, { timeout: 20_000 })
  expect(await agentText(frame, 't1')).toEqual(['In 1776, in practice, property-owning white men.', 'Everyone, as the law reads now.'])
  // The reader is thousands of pixels tall; show its top, where both threads are, fully painted.
  await host.page.setViewportSize({ width: 480, height: 1400 })
  await host.page.evaluate(() => window.scrollTo(0, 0))
  await frame.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))))
  await host.page.screenshot({ path: shotPath('reader-two-threads'), clip: { x: 0, y: 0, width: 480, height: 1400 } })
})
