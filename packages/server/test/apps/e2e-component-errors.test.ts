import { describe, expect, it, vi } from 'vitest'
import { useDisplayStage } from './display-stage.js'

// Runtime failures of an agent's component, in real parts (a `duet serve` process, Chromium with the official
// AppBridge): what the agent reads in the server log names its own module's line, column and text, and what
// the recipes say a throwing view or reducer does is what happens.

const THROWS = `function Flaky({ state }) {
  if (state.broken) throw new Error('view broke')
  return (
    <div>
      <p className="count">{state.count}</p>
      <button type="button" className="bump">Bump</button>
      <button type="button" className="reduce">Bad reducer</button>
      <button type="button" className="view">Bad view</button>
    </div>
  )
}
Flaky.initialState = { count: 0, broken: false }
Flaky.intent = ({ DOM }) => ({ BUMP: DOM.click('.bump'), REDUCE: DOM.click('.reduce'), VIEW: DOM.click('.view') })
Flaky.model = {
  BUMP: (state) => ({ ...state, count: state.count + 1 }),
  REDUCE: (state) => { throw new Error('reducer broke') },
  VIEW: (state) => ({ ...state, broken: true }),
}
export default Flaky
`

const READY_FRAGMENT = `<p id="out">waiting</p>
<script>
  duet.ready.then(async (channel) => {
    const result = await duet.callTool('get_app_data', { app: 'claims', key: 'greeting' })
    document.getElementById('out').textContent = JSON.stringify({ channel, value: result.structuredContent.value, content: Array.isArray(result.content) })
  })
</script>`

const stage = useDisplayStage()
const { show } = stage

/** Waits for the newest error line of the log that `match` accepts. */
function errorLine(match: (entry: any) => boolean): Promise<any> {
  return vi.waitFor(
    async () => {
      const tail = (await stage.agent.callTool({ name: 'tail_server_log', arguments: { n: 50, level: 'error' } })) as any
      const found = (tail.structuredContent.entries as any[]).filter(match).at(-1)
      if (!found) throw new Error('no matching error line in the server log')
      return found
    },
    { timeout: 30_000, interval: 200 },
  )
}

describe('a component that throws in the browser', () => {
  it('a throwing reducer keeps the state, and the log names the channel and the agent’s line, column and text', { timeout: 90_000 }, async () => {
    const { frame, channel } = await show('display_component', { source: THROWS, title: 'Flaky' })
    await frame.waitForSelector('.bump')
    await frame.click('.bump')
    await frame.waitForFunction(() => document.querySelector('.count')?.textContent === '1', undefined, { timeout: 20_000 })
    await frame.click('.reduce')
    const line = await errorLine((e) => e.data?.channel_id === channel && /reducer broke/.test(e.message))
    expect(line.message).toMatch(/^Component error: .*REDUCE reducer threw; state kept: reducer broke \(line 16, column \d+: /)
    expect(line.message).toContain(`REDUCE: (state) => { throw new Error('reducer broke') },)`)
    expect(line.data).toMatchObject({ line: 16, lineText: "  REDUCE: (state) => { throw new Error('reducer broke') },", channel_id: channel })
    expect(line.data.stack).toContain('component.jsx:16:')
    expect(line.data.stack).not.toContain('duet-component.js')
    // No fallback: the app still works with the state it had.
    await frame.click('.bump')
    await frame.waitForFunction(() => document.querySelector('.count')?.textContent === '2', undefined, { timeout: 20_000 })
  })

  it('a throwing view shows the fallback, and the log names the agent’s line', { timeout: 90_000 }, async () => {
    const { frame, channel } = await show('display_component', { source: THROWS, title: 'Flaky' })
    await frame.waitForSelector('.view')
    await frame.click('.view')
    await frame.waitForFunction(() => /Flaky failed to render/.test(document.body.textContent ?? ''), undefined, { timeout: 20_000 })
    const line = await errorLine((e) => e.data?.channel_id === channel && /view broke/.test(e.message))
    expect(line.data).toMatchObject({ line: 2, column: expect.any(Number), lineText: "  if (state.broken) throw new Error('view broke')" })
    expect(line.message).toContain('(line 2, column')
  })
})

describe('window.duet as the recipes and tool descriptions list it', () => {
  it('duet.ready resolves with the channel id, and duet.callTool with the tool result ({ content, structuredContent })', { timeout: 90_000 }, async () => {
    await stage.agent.callTool({ name: 'put_app_data', arguments: { app: 'claims', key: 'greeting', value: 'hello' } })
    // The render belongs to the app 'claims', so its view may read that app's data.
    const { frame, channel } = await show('display_ui_to_user', { html: READY_FRAGMENT, app: 'claims' })
    await frame.waitForFunction(() => document.getElementById('out')?.textContent !== 'waiting', undefined, { timeout: 30_000 })
    expect(JSON.parse((await frame.textContent('#out'))!)).toEqual({ channel, value: 'hello', content: true })
  })
})
