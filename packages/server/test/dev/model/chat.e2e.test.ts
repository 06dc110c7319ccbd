import type { ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Browser, FrameLocator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchBrowser } from '../../../../../test/support/browser.js'
import { SHOTS_DIR } from '../../../../../test/support/shots.js'
import { startListening } from '../fixtures/forecast-copy.mjs'
import { openDevPage } from '../dev-page.js'
import { startScriptedModel, textOf, type Reply, type ScriptedModel, type SentRequest } from './scripted-model.js'
import { startDevCli, type DevProcess } from './start-dev.js'

// A whole conversation on the real parts: `duet dev --model openai-compatible:…` started from its CLI,
// the AI SDK's OpenAI-compatible provider streaming from a scripted model over loopback HTTP, the
// forecast example's server, `duet serve`, and Chromium.
const repo = (p: string) => fileURLToPath(new URL(`../../../../../${p}`, import.meta.url))
const FORECAST_SERVER = repo('examples/forecast/server/server.js')
const DUET_BIN = repo('packages/server/dist/cli/bin.js')
const WAIT = { timeout: 30_000 }
const KEY = 'sk-test-kept-in-duet-dev'

const ASK = `function Ask({ state }) {
  return (
    <div className="ask" style={{ display: 'grid', gap: '8px', padding: '12px' }}>
      <input className="question" value={state.draft} placeholder="Your question" />
      <button type="button" className="send" disabled={!state.draft}>Ask</button>
      <p className="answer">{state.answer}</p>
    </div>
  )
}
Ask.initialState = { draft: '', answer: '' }
Ask.intent = ({ DOM, MCP }) => ({ DRAFT: DOM.input('.question').value(), SEND: DOM.click('.send'), MESSAGE: MCP.select('agent-message') })
Ask.model = {
  DRAFT: (state, draft) => ({ ...state, draft }),
  SEND: { STATE: (state) => ({ ...state, draft: '', answer: 'Waiting for the agent…' }), MCP: (state) => ({ notifyAgent: { event: 'ask', data: { question: state.draft } } }) },
  MESSAGE: (state, message) => (message.event === 'answer' ? { ...state, answer: message.data.text } : state),
}
export default Ask
`

// The model's side of the conversation: what a real model would do at each point, decided from what it was sent.
function script({ body }: SentRequest): Reply {
  const messages = body.messages
  const last = messages.at(-1)
  const system = messages
    .filter((m) => m.role === 'system')
    .map(textOf)
    .join('\n')
  if (last?.role === 'tool') {
    const call = messages.flatMap((m) => m.tool_calls ?? []).find((c) => c.id === last.tool_call_id)
    const output = textOf(last)
    const channel = /"channel_id":"([^"]+)"/.exec(output)?.[1] ?? JSON.parse(call?.function.arguments ?? '{}').channel_id
    switch (call?.function.name) {
      case 'get_forecast':
        return { text: 'Here is the forecast for Lisbon.' }
      case 'display_component':
      case 'poll_agent_messages':
        // Stay in the turn until the app writes, as the server's instructions tell an agent to.
        if (!output.includes('umbrella?')) return { toolCalls: [{ name: 'poll_agent_messages', arguments: { channel_id: channel, wait_seconds: 20 } }] }
        return { toolCalls: [{ name: 'notify_ui', arguments: { channel_id: channel, event: 'answer', data: { text: 'Yes, take one.' } } }] }
      case 'notify_ui':
        return { text: 'I answered in the app.' }
    }
    return { text: `unexpected tool ${call?.function.name}` }
  }
  const said = textOf(last)
  if (said.includes('weather in Lisbon')) return { toolCalls: [{ name: 'get_forecast', arguments: { city: 'Lisbon' } }] }
  if (said.includes('What should I pack')) {
    // The sky of the day the user picked reaches the model only through the view's ui/update-model-context.
    const sky = /"sky\\?":\\?"([^"\\]+)/.exec(system)?.[1]
    return { text: sky ? `Pack for ${sky.toLowerCase()} weather.` : 'Which day?' }
  }
  if (said.includes('question box')) return { toolCalls: [{ name: 'display_component', arguments: { source: ASK, title: 'Ask' } }] }
  if (said.includes('slowly')) return { text: 'one two three four five six seven eight nine ten eleven twelve', delayMs: 400 }
  if (said.includes('bad key')) return { status: 401, error: { message: 'Incorrect API key provided: sk-bad', type: 'invalid_request_error' } }
  return { text: 'ok' }
}

describe.skipIf(!existsSync(DUET_BIN) || !existsSync(FORECAST_SERVER))('duet dev --model with a scripted OpenAI-compatible model', { timeout: 120_000 }, () => {
  let dataDir: string
  let forecast: ChildProcess
  let serve: ChildProcess
  let model: ScriptedModel
  let dev: DevProcess
  let browser: Browser
  let page: Page
  const turn = (n: number) => page.locator(`[data-testid=chat-turn][data-turn="${n}"]`)
  const viewOf = (tool: string): FrameLocator =>
    page.locator(`[data-testid=chat-tool][data-tool=${tool}] [data-testid=app-frame]`).contentFrame().frameLocator('iframe')
  const say = async (text: string) => {
    await page.getByTestId('chat-input').fill(text)
    await page.getByTestId('chat-send').click()
  }

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'duet-dev-model-'))
    const [f, s, m] = await Promise.all([
      startListening([FORECAST_SERVER], { PORT: '0' }),
      startListening([DUET_BIN, 'serve', '--http', '--port', '0', '--data-dir', dataDir]),
      startScriptedModel(script),
    ])
    forecast = f.child
    serve = s.child
    model = m
    dev = await startDevCli(['--model', 'openai-compatible:scripted', '--model-base-url', model.url, '--server', f.url, '--server', s.url, '--port', '0'], {
      DUET_MODEL_API_KEY: KEY,
    })
    browser = await launchBrowser()
    page = await openDevPage(browser, dev.url)
    await page.getByTestId('server-status-s1').filter({ hasText: 'connected' }).waitFor(WAIT)
    await page.getByTestId('server-status-s2').filter({ hasText: 'connected' }).waitFor(WAIT)
  })

  afterAll(async () => {
    await browser?.close()
    await dev?.stop()
    await model?.close()
    forecast?.kill()
    serve?.kill()
    if (dataDir) rmSync(dataDir, { recursive: true, force: true })
  })

  it('the model calls get_forecast, the card renders in the chat, a click comes back as a turn with the context, and the model answers', async () => {
    await page.getByTestId('chat-model').filter({ hasText: 'openai-compatible:scripted' }).waitFor(WAIT)
    await say("What's the weather in Lisbon?")
    const card = viewOf('get_forecast')
    await card.locator('h1').filter({ hasText: 'Forecast for Lisbon' }).waitFor(WAIT)
    await turn(1).getByTestId('chat-assistant').filter({ hasText: 'Here is the forecast for Lisbon.' }).waitFor(WAIT)
    // Two model calls in the turn (the tool call, then the answer), each with the scripted counts.
    await turn(1).getByTestId('chat-usage').filter({ hasText: 'tokens: 203 in, 14 out, 217 total' }).waitFor(WAIT)

    // The model saw the forecast's tools and the channel tools, and none of the app-only ones.
    const tools = model.requests[0].body.tools?.map((t) => t.function.name) ?? []
    expect(tools).toContain('get_forecast')
    expect(tools).toContain('poll_agent_messages')
    expect(tools.some((t) => t.includes('duet_view_state') || t.includes('get_render'))).toBe(false)

    const day = card.locator('button.day').first()
    await day.click()
    await page.getByTestId('model-context').filter({ hasText: 'selectedDay' }).waitFor(WAIT)
    await card.locator('button.ask').click()
    await turn(2).getByTestId('chat-user').filter({ hasText: 'from the view of get_forecast' }).waitFor(WAIT)
    await turn(2).getByTestId('chat-user').filter({ hasText: 'What should I pack for Lisbon' }).waitFor(WAIT)
    const sky = /: ([^,]+),/.exec((await day.textContent()) ?? '')?.[1] ?? '(no sky on the card)'
    await turn(2)
      .getByTestId('chat-assistant')
      .filter({ hasText: `Pack for ${sky.toLowerCase()} weather.` })
      .waitFor(WAIT)
    // The card stays live in the transcript under the new turn.
    await card.locator('h1').filter({ hasText: 'Forecast for Lisbon' }).waitFor(WAIT)
    await page.getByTestId('chat').screenshot({ path: `${SHOTS_DIR}/dev-chat-forecast.png` })
    await page.screenshot({ path: `${SHOTS_DIR}/dev-chat-page.png` })

    // The whole exchange is in the trace, both ways.
    await page
      .getByTestId('trace')
      .locator('[data-dir="host->model"]')
      .first()
      .waitFor({ state: 'attached', ...WAIT })
    await page
      .getByTestId('trace')
      .locator('[data-dir="model->host"]')
      .first()
      .waitFor({ state: 'attached', ...WAIT })
  })

  it('keeps the API key in the duet dev process: the model got it, the page never did', async () => {
    expect(model.requests.every((r) => r.authorization === `Bearer ${KEY}`)).toBe(true)
    const state = await page.evaluate(async () => (await fetch('/api/state')).text())
    expect(state).toContain('openai-compatible:scripted')
    expect(state).not.toContain(KEY)
    expect(await page.content()).not.toContain(KEY)
  })

  it('the model displays a component, waits on the channel, and answers a click there', async () => {
    await say('Show me a question box')
    const ask = viewOf('display_component')
    await ask.locator('.question').fill('umbrella?')
    await ask.locator('.send').click()
    await ask.locator('.answer').filter({ hasText: 'Yes, take one.' }).waitFor(WAIT)
    await turn(3).getByTestId('chat-assistant').filter({ hasText: 'I answered in the app.' }).waitFor(WAIT)
    const calls = await turn(3)
      .getByTestId('chat-tool')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-tool')))
    expect(calls[0]).toBe('display_component')
    expect(calls).toContain('poll_agent_messages')
    expect(calls.at(-1)).toBe('notify_ui')
  })

  it('stops a turn with the stop button, keeping what was said', async () => {
    await say('Count slowly')
    await turn(4).getByTestId('chat-assistant').filter({ hasText: 'one' }).waitFor(WAIT)
    await page.getByTestId('chat-stop').click()
    await turn(4).getByTestId('chat-usage').filter({ hasText: 'stopped' }).waitFor(WAIT)
    expect(await turn(4).getByTestId('chat-assistant').textContent()).not.toContain('twelve')
    await expect(page.getByTestId('chat-stop').count()).resolves.toBe(0)
  })

  it("shows the provider's error plainly, and the next turn works", async () => {
    await say('a bad key')
    await turn(5).getByTestId('chat-error').filter({ hasText: 'HTTP 401' }).waitFor(WAIT)
    await turn(5).getByTestId('chat-error').filter({ hasText: 'Incorrect API key provided' }).waitFor(WAIT)
    await say('hello again')
    await turn(6).getByTestId('chat-assistant').filter({ hasText: 'ok' }).waitFor(WAIT)
  })
})
