import { describe, expect, it } from 'vitest'
import { useDisplayStage } from './display-stage.js'
import { askAbout, shotPath, spawnDuet, spawnWait } from './display-e2e-harness.js'

// The whole loop in real parts: a `duet serve` process, the SDK client as the agent, Chromium with the
// official AppBridge as host (forwarding the view's tool calls to the same server), and `duet wait`.

const ASK_FRAGMENT = `<style>
  .ask { display: grid; gap: 8px; padding: 12px; }
  .ask input { font: inherit; padding: 6px; }
  .answer { margin: 0; font-weight: 600; }
  .item { padding: 4px 0; border-bottom: 1px solid #8883; }
</style>
<div class="ask">
  <label for="question">Ask the agent about the report</label>
  <input id="question" placeholder="Your question">
  <button id="send" type="button">Ask</button>
  <p id="answer" class="answer"></p>
  <div id="items"></div>
</div>
<script>
  // Tall content with no pixel height anywhere: the view must grow to show it all.
  for (let i = 1; i <= 14; i++) {
    const row = document.createElement('div')
    row.className = 'item'
    row.textContent = 'Section ' + i
    document.getElementById('items').appendChild(row)
  }
  document.getElementById('send').addEventListener('click', () => {
    document.getElementById('answer').textContent = 'Waiting for the agent…'
    duet.notifyAgent('ask', { question: document.getElementById('question').value })
  })
  duet.onAgentMessage((m) => {
    if (m.event === 'answer') document.getElementById('answer').textContent = m.data.text
  })
</script>`

const ASK_COMPONENT = `function Ask({ state }) {
  return (
    <div className="ask" style={{ display: 'grid', gap: '8px', padding: '12px' }}>
      <label>Ask the agent about the chart</label>
      <input className="question" value={state.draft} placeholder="Your question" />
      <button type="button" className="send" disabled={!state.draft}>Ask</button>
      <p className="answer">{state.answer}</p>
    </div>
  )
}
Ask.initialState = { draft: '', answer: '' }
Ask.intent = ({ DOM, MCP }) => ({
  DRAFT: DOM.input('.question').value(),
  SEND: DOM.click('.send'),
  MESSAGE: MCP.select('agent-message'),
})
Ask.model = {
  DRAFT: (state, draft) => ({ ...state, draft }),
  SEND: {
    STATE: (state) => ({ ...state, draft: '', answer: 'Waiting for the agent…' }),
    MCP: (state) => ({ notifyAgent: { event: 'ask', data: { question: state.draft } } }),
  },
  MESSAGE: (state, message) => (message.event === 'answer' ? { ...state, answer: message.data.text } : state),
}
export default Ask
`

const stage = useDisplayStage()
const { show } = stage

describe('display_ui_to_user end to end', () => {
  it('the user asks in the fragment, duet wait wakes the agent, and the answer shows in the page', { timeout: 90_000 }, async () => {
    const { host, frame, channel, result } = await show('display_ui_to_user', { html: ASK_FRAGMENT, title: 'Report questions' })
    expect(result.content[0].text).toContain(`duet wait ${channel}`)
    // The agent arms its watcher before the user does anything.
    const watcher = spawnWait(channel, stage.tmp.dir)
    await frame.waitForSelector('#send')
    await frame.fill('#question', 'Which colour for the chart?')
    await frame.click('#send')

    const woke = await watcher
    expect(woke.code, woke.stderr).toBe(0)
    expect(woke.stdout).toContain(`1 message waiting on channel ${channel}`)

    const polled = (await stage.agent.callTool({ name: 'poll_agent_messages', arguments: { channel_id: channel } })) as any
    expect(polled.structuredContent.messages).toMatchObject([{ event: 'ask', data: { question: 'Which colour for the chart?' } }])
    await stage.agent.callTool({ name: 'notify_ui', arguments: { channel_id: channel, event: 'answer', data: { text: 'Teal, to match the header.' } } })

    await frame.waitForFunction(() => document.getElementById('answer')?.textContent === 'Teal, to match the header.', undefined, { timeout: 20_000 })
    // It grew to its content without any pixel height in the fragment: nothing is cut off.
    const contentHeight = await frame.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height))
    await host.page.waitForFunction((h) => parseFloat((window as any).__duetHost.iframe.style.height) >= h, contentHeight, { timeout: 20_000 })
    expect(contentHeight).toBeGreaterThan(300)
    expect(await frame.evaluate(() => document.title)).toBe('Report questions')
    await host.page.screenshot({ path: shotPath('display-ui-to-user'), fullPage: true })
  })

  it('a terminal answers the app: duet wait wakes it, duet notify sends the answer the view shows', { timeout: 90_000 }, async () => {
    const { frame, channel } = await show('display_ui_to_user', { html: ASK_FRAGMENT, title: 'Terminal answers' })
    const watcher = spawnWait(channel, stage.tmp.dir)
    await frame.waitForSelector('#send')
    await frame.fill('#question', 'Ship it?')
    await frame.click('#send')
    expect((await watcher).code).toBe(0)

    const sent = await spawnDuet(['notify', channel, 'answer', '{"text":"Yes, from the terminal."}', '--data-dir', stage.tmp.dir, '--json'])
    expect(sent.code).toBe(0)
    expect(JSON.parse(sent.stdout)).toEqual({ channel_id: channel, id: expect.any(String) })
    // The view polled this channel already, so no typo hint.
    expect(sent.stderr).toBe('')
    await frame.waitForFunction(() => document.getElementById('answer')?.textContent === 'Yes, from the terminal.', undefined, { timeout: 20_000 })
    // The question is still queued for the agent: notify only sends, it reads nothing.
    const polled = (await stage.agent.callTool({ name: 'poll_agent_messages', arguments: { channel_id: channel } })) as any
    expect(polled.structuredContent.messages.map((m: { event: string }) => m.event)).toEqual(['ask'])
  })

  it('works when the host strips _meta: fragment from the tool input, channel from structuredContent', { timeout: 60_000 }, async () => {
    const { frame, channel, host } = await show('display_ui_to_user', { html: ASK_FRAGMENT }, { stripMeta: true })
    const sent = (await host.log()).filter((e) => e.dir === 'host->view' && e.data.method === 'ui/notifications/tool-result')
    expect(sent).toHaveLength(1)
    expect(sent[0].data.params._meta).toBeUndefined()
    await frame.fill('#question', 'Still there?')
    await frame.click('#send')
    const polled = (await stage.agent.callTool({ name: 'poll_agent_messages', arguments: { channel_id: channel, wait_seconds: 30 } })) as any
    expect(polled.structuredContent.messages).toMatchObject([{ event: 'ask', data: { question: 'Still there?' } }])
    await stage.agent.callTool({ name: 'notify_ui', arguments: { channel_id: channel, event: 'answer', data: { text: 'Yes.' } } })
    await frame.waitForFunction(() => document.getElementById('answer')?.textContent === 'Yes.', undefined, { timeout: 20_000 })
  })

  it('window.duet reports bad calls as coded DuetError rejections instead of failing silently', { timeout: 60_000 }, async () => {
    const { frame } = await show('display_ui_to_user', { html: '<p id="ok">ready</p>' })
    await frame.waitForSelector('#ok')
    const outcome = await frame.evaluate(async () => {
      const duet = (window as any).duet
      const caught = (e: Error & { code?: unknown }) => ({ name: e.name, code: e.code, message: e.message })
      return {
        tool: await duet.callTool('no_such_tool', {}).catch(caught),
        badKey: await duet.callTool('get_app_data', { app: '../x', key: 'k' }).catch(caught),
        event: await duet.notifyAgent('').catch(caught),
        channel: await duet.ready,
      }
    })
    // A host's refusal is a tool error without a Duet code; a Duet tool's error keeps its own code.
    expect(outcome.tool).toMatchObject({ name: 'DuetError', code: 'TOOL_FAILED', message: expect.stringMatching(/no_such_tool/) })
    expect(outcome.badKey).toEqual({ name: 'DuetError', code: 'INVALID_NAME', message: expect.stringMatching(/^app '\.\.\/x' is not a valid app name/) })
    expect(outcome.event).toEqual({ name: 'DuetError', code: 'INVALID_ARGUMENT', message: 'duet.notifyAgent(event) must be a non-empty string' })
    expect(outcome.channel).toMatch(/^[A-Za-z0-9_-]{20,}$/)
  })

  it("a fragment reads its own app's data through window.duet, and neither another app's nor the saved apps", { timeout: 60_000 }, async () => {
    await stage.agent.callTool({ name: 'put_app_data', arguments: { app: 'e2e-reader', key: 'pages', value: ['one', 'two'] } })
    await stage.agent.callTool({ name: 'put_app_data', arguments: { app: 'e2e-diary', key: 'secret', value: 'private' } })
    const { frame } = await show('display_ui_to_user', { html: '<p id="ok">ready</p>', app: 'e2e-reader' })
    await frame.waitForSelector('#ok')
    const outcome = await frame.evaluate(async () => {
      const duet = (window as any).duet
      const caught = (e: Error & { code?: unknown }) => ({ code: e.code, message: e.message })
      return {
        own: (await duet.callTool('get_app_data', { app: 'e2e-reader', key: 'pages' })).structuredContent.value,
        // Naming another render's channel does not help: the shell puts its own in.
        other: await duet.callTool('get_app_data', { app: 'e2e-diary', key: 'secret', channel_id: 'ch-forged' }).catch(caught),
        write: await duet.callTool('put_app_data', { app: 'e2e-diary', key: 'secret', value: 'forged' }).catch(caught),
        list: await duet.callTool('list_saved_apps', {}).catch(caught),
        remove: await duet.callTool('delete_saved_app', { name: 'anything' }).catch(caught),
      }
    })
    expect(outcome.own).toEqual(['one', 'two'])
    expect(outcome.other).toMatchObject({ code: 'NOT_FOUND' })
    expect(outcome.other.message).not.toContain('private')
    expect(outcome.write).toMatchObject({ code: 'FORBIDDEN' })
    expect(outcome.list).toMatchObject({ code: 'FORBIDDEN' })
    expect(outcome.remove).toMatchObject({ code: 'FORBIDDEN' })
    const kept = (await stage.agent.callTool({ name: 'get_app_data', arguments: { app: 'e2e-diary', key: 'secret' } })) as any
    expect(kept.structuredContent.value).toBe('private')
  })

  it("window.duet's host calls reach the host, and the theme follows the host's", { timeout: 60_000 }, async () => {
    const html = `<p id="theme"></p><script>
      duet.onTheme((theme) => { document.getElementById('theme').textContent = theme })
    </script>`
    const { frame, host } = await show('display_ui_to_user', { html })
    await frame.waitForFunction(() => document.getElementById('theme')?.textContent === 'light', undefined, { timeout: 20_000 })
    await host.sendHostContextChange({ theme: 'dark' })
    await frame.waitForFunction(() => document.getElementById('theme')?.textContent === 'dark', undefined, { timeout: 20_000 })
    expect(await frame.evaluate(() => (window as any).duet.theme)).toBe('dark')
    expect(await frame.evaluate(() => (window as any).duet.host.hostInfo.name)).toBe('DuetTestHost')
    await frame.evaluate(async () => {
      const duet = (window as any).duet
      await duet.updateModelContext('The user picked teal')
      await duet.sendMessage('Make it teal')
      await duet.openLink('https://example.com/palette')
      await duet.log('info', 'picked', { colour: 'teal' })
    })
    expect((await host.waitForEvent('updatemodelcontext')).params).toEqual({ content: [{ type: 'text', text: 'The user picked teal' }] })
    expect((await host.waitForEvent('message')).params).toEqual({ role: 'user', content: [{ type: 'text', text: 'Make it teal' }] })
    expect((await host.waitForEvent('openlink')).params).toEqual({ url: 'https://example.com/palette' })
    const tail = (await stage.agent.callTool({ name: 'tail_server_log', arguments: { n: 1 } })) as any
    expect(tail.structuredContent.entries[0]).toMatchObject({ level: 'info', message: 'picked', data: { colour: 'teal' } })
  })
})

describe('display_component end to end', () => {
  it('the compiled component asks, the agent waits in its turn, and the answer renders (behind a sandbox proxy)', { timeout: 90_000 }, async () => {
    const { frame, channel } = await show('display_component', { source: ASK_COMPONENT, title: 'Ask' }, { proxy: true })
    await frame.waitForSelector('.question')
    // The foreground way to wait: the poll itself waits for the user.
    const polling = stage.agent.callTool({ name: 'poll_agent_messages', arguments: { channel_id: channel, wait_seconds: 60 } })
    await frame.fill('.question', 'What does the red bar mean?')
    await frame.click('.send')
    const polled = (await polling) as any
    expect(polled.structuredContent.messages).toMatchObject([{ event: 'ask', data: { question: 'What does the red bar mean?' } }])
    await stage.agent.callTool({ name: 'notify_ui', arguments: { channel_id: channel, event: 'answer', data: { text: 'Spending over budget.' } } })
    await frame.waitForFunction(() => document.querySelector('.answer')?.textContent === 'Spending over budget.', undefined, { timeout: 20_000 })
    await stage.hosts.at(-1)!.page.screenshot({ path: shotPath('display-component'), fullPage: true })
  })

  it('the declaration-reader recipe, rendered as the agent would from get_recipe, answers beside the passage', { timeout: 90_000 }, async () => {
    const recipe = (await stage.agent.callTool({ name: 'get_recipe', arguments: { name: 'declaration-reader' } })) as any
    const source = recipe.content[0].text.match(/```jsx duet-component\n([\s\S]*?)\n```/)[1]
    const { frame, channel } = await show('display_component', { source, title: 'Declaration reader' })
    await frame.waitForSelector('#truths')
    await askAbout(frame, 'truths', 'unalienable Rights', 'Which rights?')
    const polled = (await stage.agent.callTool({ name: 'poll_agent_messages', arguments: { channel_id: channel, wait_seconds: 30 } })) as any
    expect(polled.structuredContent.messages).toMatchObject([{ event: 'ask', data: { thread_id: 't1', quote: 'unalienable Rights', paragraph_id: 'truths' } }])
    await stage.agent.callTool({
      name: 'notify_ui',
      arguments: { channel_id: channel, event: 'answer', data: { thread_id: 't1', text: 'Life, Liberty and the pursuit of Happiness.' } },
    })
    await frame.waitForSelector('#truths + .margin .thread.answered')
    expect(await frame.textContent('#truths + .margin .message.agent .text')).toBe('Life, Liberty and the pursuit of Happiness.')
  })

  it('a compile error is a tool error for the agent and is shown in the view, with line and column', { timeout: 60_000 }, async () => {
    const { frame, result } = await show('display_component', { source: 'export default function V() {\n  return <p>{1 +}</p>\n}\n' })
    expect(result.isError).toBe(true)
    expect(result.content[0].text).toMatch(/line 2, column \d+/)
    await frame.waitForFunction(() => /line 2, column \d+/.test(document.getElementById('duet-error')?.textContent ?? ''), undefined, { timeout: 20_000 })
  })
})

describe('saved apps and stale channels in the browser', () => {
  it('load_app shows the app again on a fresh channel; the old copy gets nothing meant for the new one', { timeout: 90_000 }, async () => {
    const first = await show('display_ui_to_user', { html: ASK_FRAGMENT, title: 'Asker' })
    await first.frame.waitForSelector('#send')
    const saved = (await stage.agent.callTool({ name: 'save_app', arguments: { name: 'asker', channel_id: first.channel } })) as any
    expect(saved.isError).toBeFalsy()

    const again = await show('load_app', { name: 'asker' })
    expect(again.channel).not.toBe(first.channel)
    await again.frame.waitForSelector('#send')

    await stage.agent.callTool({ name: 'notify_ui', arguments: { channel_id: again.channel, event: 'answer', data: { text: 'For the new copy' } } })
    await again.frame.waitForFunction(() => document.getElementById('answer')?.textContent === 'For the new copy', undefined, { timeout: 20_000 })
    // The old copy is still listening on its own channel: a message there arrives, the new one never did.
    await stage.agent.callTool({ name: 'notify_ui', arguments: { channel_id: first.channel, event: 'answer', data: { text: 'For the old copy' } } })
    await first.frame.waitForFunction(() => document.getElementById('answer')?.textContent === 'For the old copy', undefined, { timeout: 20_000 })
    const oldAnswers = (await first.host.log()).filter((e) => e.dir === 'host->view' && JSON.stringify(e.data).includes('For the new copy'))
    expect(oldAnswers).toEqual([])

    // Asking in the new copy reaches the new channel only.
    await again.frame.fill('#question', 'new?')
    await again.frame.click('#send')
    const fresh = (await stage.agent.callTool({ name: 'poll_agent_messages', arguments: { channel_id: again.channel, wait_seconds: 30 } })) as any
    expect(fresh.structuredContent.messages).toMatchObject([{ event: 'ask', data: { question: 'new?' } }])
    const stale = (await stage.agent.callTool({ name: 'poll_agent_messages', arguments: { channel_id: first.channel } })) as any
    expect(stale.structuredContent.messages).toEqual([])
  })
})
