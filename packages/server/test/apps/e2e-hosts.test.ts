import { describe, expect, it, vi } from 'vitest'
import type { Frame } from 'playwright-core'
import { SHELL_URI } from '../../src/apps/display-shell.js'
import { useDisplayStage } from './display-stage.js'
import { askAbout, deliverToolCall, openServerView, shotPath } from './display-e2e-harness.js'

// Hosts differ in what of a tool result they pass to the view: some drop structuredContent, some
// _meta. A `duet serve` process, the SDK client as the agent, Chromium with the official AppBridge.

const ASK_COMPONENT = `import { xs } from 'duetkit'
function Ask({ state, props }) {
  return (
    <div className="ask">
      <h3 className="title">{props.heading}</h3>
      <button type="button" className="send">Ask</button>
      <p className="answer">{state.answer}</p>
    </div>
  )
}
Ask.initialState = { answer: '' }
Ask.intent = ({ DOM, MCP }) => ({ SEND: DOM.click('.send'), MESSAGE: MCP.select('agent-message') })
Ask.model = {
  SEND: { MCP: () => ({ notifyAgent: { event: 'ask', data: { q: 'why?' } } }) },
  MESSAGE: (state, m) => ({ ...state, answer: m.data.text }),
}
export default Ask
`

const stage = useDisplayStage()
const { show } = stage

type Strip = { stripMeta?: boolean; stripStructured?: boolean; hostContext?: Record<string, unknown> }

async function roundTrip(options: Strip) {
  const { frame, channel, host, result } = await show('display_component', { source: ASK_COMPONENT, props: { heading: 'Ask me' } }, options)
  // What the view was handed really lacks what the host stripped.
  const sent = (await host.log()).filter((e) => e.dir === 'host->view' && e.data.method === 'ui/notifications/tool-result')
  expect(sent).toHaveLength(1)
  if (options.stripStructured) expect(sent[0].data.params.structuredContent).toBeUndefined()
  if (options.stripMeta) expect(sent[0].data.params._meta).toBeUndefined()
  // The props came from the server (get_render), not from the stripped result.
  await frame.waitForFunction(() => document.querySelector('.title')?.textContent === 'Ask me', undefined, { timeout: 45_000 })
  await frame.click('.send')
  const polled = (await stage.agent.callTool({ name: 'poll_agent_messages', arguments: { channel_id: channel, wait_seconds: 30 } })) as any
  expect(polled.structuredContent.messages).toMatchObject([{ event: 'ask', data: { q: 'why?' } }])
  await stage.agent.callTool({ name: 'notify_ui', arguments: { channel_id: channel, event: 'answer', data: { text: 'Because.' } } })
  await frame.waitForFunction(() => document.querySelector('.answer')?.textContent === 'Because.', undefined, { timeout: 45_000 })
  return { result, host }
}

describe('display_component in hosts that strip parts of the result', () => {
  it('keeps the compiled bundle out of what the agent reads; the shell fetches it with the app-only get_render', { timeout: 60_000 }, async () => {
    const result = (await stage.agent.callTool({ name: 'display_component', arguments: { source: ASK_COMPONENT } })) as any
    expect(JSON.stringify(result).length).toBeLessThan(2500)
    expect(result.structuredContent.script).toBeUndefined()
    const { tools } = await stage.agent.listTools()
    expect((tools.find((t) => t.name === 'get_render')?._meta as any)?.ui?.visibility).toEqual(['app'])
  })

  it('shows and wires a component when the host strips structuredContent', { timeout: 90_000 }, async () => {
    const { host } = await roundTrip({ stripStructured: true })
    const calls = (await host.log()).filter((e) => e.dir === 'view->host' && e.data.method === 'tools/call' && e.data.params.name === 'get_render')
    expect(calls).toHaveLength(1)
  })

  it('shows and wires a component when the host strips _meta', { timeout: 90_000 }, async () => {
    await roundTrip({ stripMeta: true })
  })

  it('shows and wires a component when the host strips both (the channel is read from the text)', { timeout: 90_000 }, async () => {
    await roundTrip({ stripMeta: true, stripStructured: true })
  })

  it('shows a fragment when the host strips both (html from the tool input, channel from the text)', { timeout: 90_000 }, async () => {
    const html = notifyingButton('go', { n: 1 })
    const { frame, channel, host } = await show('display_ui_to_user', { html }, { stripMeta: true, stripStructured: true })
    // The shell read the channel from the result's text: the one the agent was given.
    await frame.waitForFunction((id) => (window as any).duet?.channelId === id, channel, { timeout: 20_000 })
    await clickUntilHandled(frame)
    // The view sent it: the host forwarded notify_agent to the server.
    await host.waitForEvent('calltool', { name: 'notify_agent' })
    const polled = (await stage.agent.callTool({ name: 'poll_agent_messages', arguments: { channel_id: channel, wait_seconds: 30 } })) as any
    const failures = polled.structuredContent.messages.length === 0 ? await errorsFor(channel, /./).catch(() => []) : []
    expect(polled.structuredContent.messages, `the view's failures in the server log: ${JSON.stringify(failures)}`).toMatchObject([
      { event: 'go', data: { n: 1 } },
    ])
  })

  it('delivers a notifyAgent made before the tool result named the channel, once it does', { timeout: 90_000 }, async () => {
    const html = notifyingButton('early', { n: 2 })
    const args = { html }
    const result = (await stage.agent.callTool({ name: 'display_ui_to_user', arguments: args })) as any
    const channel = result.structuredContent.channel_id as string
    const host = await openServerView(stage.browser, stage.hostClient, SHELL_URI)
    stage.hosts.push(host)
    await host.initialized()
    await host.sendToolInput(args)
    const frame = host.viewFrame()
    await clickUntilHandled(frame)
    // The click's notifyAgent waits for the channel: nothing reached the server yet.
    expect(await frame.evaluate(() => (window as any).duet.channelId)).toBeUndefined()
    expect((await host.events()).filter((e) => e.name === 'calltool')).toEqual([])
    const { structuredContent: _s, _meta: _m, ...stripped } = result
    await host.sendToolResult(stripped)
    const polled = (await stage.agent.callTool({ name: 'poll_agent_messages', arguments: { channel_id: channel, wait_seconds: 30 } })) as any
    expect(polled.structuredContent.messages).toMatchObject([{ event: 'early', data: { n: 2 } }])
  })
})

/**
 * A fragment whose button #b sends the agent `event` once. Its handler marks the button, so a test can tell a click
 * the browser dropped (Playwright reports a click as done when no pointer event reached the cross-process view frame)
 * from a message the product lost, and a repeated click cannot send twice.
 */
function notifyingButton(event: string, data: unknown): string {
  const send = `duet.notifyAgent(${JSON.stringify(event)}, ${JSON.stringify(data)})`
  return `<button id="b" type="button">Go</button><script>const b = document.getElementById("b"); b.onclick = () => { if (b.dataset.clicked) return; b.dataset.clicked = "yes"; ${send} }</script>`
}

/** Clicks #b until its handler has run (see notifyingButton): a click is repeated only while it has not. */
async function clickUntilHandled(frame: Frame): Promise<void> {
  await expect
    .poll(
      async () => {
        if ((await frame.getAttribute('#b', 'data-clicked')) !== 'yes') await frame.click('#b')
        return frame.getAttribute('#b', 'data-clicked')
      },
      { timeout: 20_000 },
    )
    .toBe('yes')
}

function errorsFor(channel: string, match: RegExp): Promise<Array<{ message: string; data: Record<string, unknown> }>> {
  return vi.waitFor(
    async () => {
      const tail = (await stage.agent.callTool({ name: 'tail_server_log', arguments: { n: 200, level: 'error' } })) as any
      const found = tail.structuredContent.entries.filter((e: any) => e.data?.channel_id === channel && match.test(e.message))
      if (found.length === 0) throw new Error(`no error line for channel ${channel} matching ${match}`)
      return found
    },
    { timeout: 20_000, interval: 200 },
  )
}

describe('runtime failures of agent-built apps reach tail_server_log with the channel id', () => {
  it("a fragment's script error, thrown before the tool result arrives", { timeout: 60_000 }, async () => {
    const { channel, result } = await show('display_ui_to_user', { html: '<p>x</p><script>missingFunction()</script>' })
    expect(result.content[0].text).toMatch(/tail_server_log/)
    const found = await errorsFor(channel, /Script error: .*missingFunction/)
    expect(found).toHaveLength(1)
    expect(found[0].data).toMatchObject({ channel_id: channel, line: expect.any(Number) })
  })

  it("a component's view that throws", { timeout: 60_000 }, async () => {
    const source = `function Boom() { throw new Error('kaboom in view') }\nexport default Boom\n`
    const { channel, frame } = await show('display_component', { source })
    await frame.waitForSelector('[data-duet-error]')
    const found = await errorsFor(channel, /Component error: .*kaboom in view/)
    expect(found.length).toBeGreaterThan(0)
  })

  it('a failed notifyAgent (the channel was closed), in a fragment and in a component with an error action', { timeout: 90_000 }, async () => {
    const html = `<button id="b" type="button">Go</button><p id="out"></p><script>
      document.getElementById('b').onclick = () => duet.notifyAgent('go').catch((e) => { document.getElementById('out').textContent = e.code })
    </script>`
    const fragment = await show('display_ui_to_user', { html })
    await stage.agent.callTool({ name: 'close_channel', arguments: { channel_id: fragment.channel } })
    await fragment.frame.click('#b')
    await fragment.frame.waitForFunction(() => document.getElementById('out')?.textContent !== '', undefined, { timeout: 20_000 })
    expect(await errorsFor(fragment.channel, /notifyAgent\('go'\) failed/)).toHaveLength(1)

    const source = `function V({ state }) { return <div><button type="button" className="go">Go</button><p className="out">{state.failed}</p></div> }
V.initialState = { failed: '' }
V.intent = ({ DOM }) => ({ GO: DOM.click('.go') })
V.model = {
  GO: { MCP: () => ({ notifyAgent: { event: 'go' }, error: 'FAILED' }) },
  FAILED: (state, failure) => ({ failed: failure.error }),
}
export default V
`
    const component = await show('display_component', { source })
    await component.frame.waitForSelector('.go')
    await stage.agent.callTool({ name: 'close_channel', arguments: { channel_id: component.channel } })
    await component.frame.click('.go')
    // The component's error action still runs, and the agent can read the failure too.
    await component.frame.waitForFunction(() => document.querySelector('.out')?.textContent !== '', undefined, { timeout: 20_000 })
    expect(await errorsFor(component.channel, /notifyAgent\('go'\) failed/)).toHaveLength(1)
  })
})

const PLAIN = `<h2>Reading list</h2>
<p>Plain HTML with no style of its own: <code>notify_ui</code> answers land here.</p>
<table><thead><tr><th>Title</th><th>Pages</th></tr></thead><tbody><tr><td>Walden</td><td>352</td></tr><tr><td>Emma</td><td>474</td></tr></tbody></table>
<p><input id="q" placeholder="Ask about a book"> <button id="ask" type="button">Ask</button></p>`

const STYLES = {
  light: { '--color-background-secondary': 'rgb(230, 240, 255)', '--color-text-primary': 'rgb(20, 20, 60)', '--font-sans': 'Georgia, serif' },
  dark: { '--color-background-secondary': 'rgb(40, 44, 70)', '--color-text-primary': 'rgb(235, 235, 250)', '--font-sans': 'Verdana, sans-serif' },
}

describe('the default stylesheet for agent-written HTML', () => {
  for (const theme of ['light', 'dark'] as const) {
    it(`draws a plain fragment with the host's ${theme} style variables`, { timeout: 60_000 }, async () => {
      const hostContext = {
        theme,
        displayMode: 'inline',
        availableDisplayModes: ['inline', 'fullscreen'],
        containerDimensions: { width: 420, maxHeight: 6000 },
        styles: { variables: STYLES[theme] },
      }
      const { frame, host } = await show('display_ui_to_user', { html: PLAIN }, { hostContext })
      await frame.waitForSelector('#ask')
      const look = await frame.evaluate(() => {
        const css = (sel: string) => getComputedStyle(document.querySelector(sel)!)
        return {
          button: css('#ask').backgroundColor,
          th: css('th').backgroundColor,
          text: css('h2').color,
          font: css('body').fontFamily,
          code: css('code').fontFamily,
          inputFont: css('#q').fontFamily,
        }
      })
      expect(look.button).toBe(STYLES[theme]['--color-background-secondary'])
      expect(look.th).toBe(STYLES[theme]['--color-background-secondary'])
      expect(look.text).toBe(STYLES[theme]['--color-text-primary'])
      expect(look.font).toBe(STYLES[theme]['--font-sans'])
      expect(look.inputFont).toBe(STYLES[theme]['--font-sans'])
      expect(look.code).toMatch(/monospace/)
      await host.page.screenshot({ path: shotPath(`display-default-style-${theme}`), fullPage: true })
    })
  }

  it('yields to a fragment’s own rules, and turns off with data-duet-style="none"', { timeout: 60_000 }, async () => {
    const own = await show('display_ui_to_user', { html: '<style>button { background: rgb(200, 0, 0) }</style><button id="b">Mine</button>' })
    await own.frame.waitForSelector('#b')
    expect(await own.frame.evaluate(() => getComputedStyle(document.getElementById('b')!).backgroundColor)).toBe('rgb(200, 0, 0)')
    const off = await show('display_ui_to_user', { html: '<div data-duet-style="none"><button id="b">Browser default</button></div>' })
    await off.frame.waitForSelector('#b')
    const padding = await off.frame.evaluate(() => getComputedStyle(document.getElementById('duet-root')!).paddingTop)
    expect(padding).toBe('0px')
    expect(await off.frame.evaluate(() => getComputedStyle(document.getElementById('b')!).fontWeight)).toBe('400')
  })
})

describe('the declaration-reader recipe carries its stylesheet', () => {
  it('puts the answer card beside the passage, with the speaker on its own line', { timeout: 90_000 }, async () => {
    const recipe = (await stage.agent.callTool({ name: 'get_recipe', arguments: { name: 'declaration-reader' } })) as any
    const source = recipe.content[0].text.match(/```jsx duet-component\n([\s\S]*?)\n```/)[1]
    const result = (await stage.agent.callTool({ name: 'display_component', arguments: { source, title: 'Declaration reader' } })) as any
    const host = await openServerView(stage.browser, stage.hostClient, SHELL_URI, {
      hostContext: { theme: 'light', displayMode: 'inline', containerDimensions: { width: 900, maxHeight: 6000 } },
    })
    stage.hosts.push(host)
    // A desktop-wide chat column: the reader's stylesheet lays passage and margin side by side there.
    await host.page.setViewportSize({ width: 960, height: 800 })
    await host.page.evaluate(() => {
      ;(window as any).__duetHost.iframe.style.width = '900px'
    })
    await deliverToolCall(host, { source, title: 'Declaration reader' }, result)
    const frame = host.viewFrame()
    await frame.waitForSelector('#truths')
    await askAbout(frame, 'truths', 'unalienable Rights', 'Which rights?')
    const channel = result.structuredContent.channel_id
    await stage.agent.callTool({ name: 'poll_agent_messages', arguments: { channel_id: channel, wait_seconds: 30 } })
    await stage.agent.callTool({
      name: 'notify_ui',
      arguments: { channel_id: channel, event: 'answer', data: { thread_id: 't1', text: 'Life, Liberty and Happiness.' } },
    })
    await frame.waitForSelector('#truths + .margin .thread.answered')
    const layout = await frame.evaluate(() => {
      const passage = document.getElementById('truths')!.getBoundingClientRect()
      const card = document.querySelector('#truths + .margin .thread')!.getBoundingClientRect()
      const who = getComputedStyle(document.querySelector('#truths + .margin .message .who')!).display
      return { passageRight: passage.right, passageTop: passage.top, passageBottom: passage.bottom, cardLeft: card.left, cardTop: card.top, who }
    })
    expect(layout.cardLeft).toBeGreaterThanOrEqual(layout.passageRight)
    expect(layout.cardTop).toBeLessThan(layout.passageBottom)
    expect(layout.who).toBe('block')
    await host.page.screenshot({ path: shotPath('display-reader-recipe-beside'), fullPage: true })
  })
})
