// MCPJam Inspector 1.0.24 (npm, test/mcpjam) as a real host that renders views only in the OpenAI
// Apps SDK dialect: `_meta["openai/outputTemplate"]` → a `text/html+skybridge` page talking through
// its own `window.openai`. The forecast card and both agent-built apps of `duet serve` must render and
// work there. MCPJam runs headless: its server started without the browser-opening launcher, its cloud
// URLs pointed at a dead loopback port, every non-loopback connection refused in its process (a
// --require preload) and in Chromium (page.route).
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, FrameLocator, Page } from 'playwright-core'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { launchBrowser } from '../../../../test/support/browser.js'
import { freePort } from '../../../../test/support/ports.js'
import { SHOTS_DIR } from '../../../../test/support/shots.js'
import type { Listening } from '../../src/server/index.js'
import { createAgentAppsServer } from '../../src/apps/agent-apps-server.js'
import type { AppServer } from '../../src/server/app-server.js'
import { expectForecastCardWorks } from './forecast-card.js'
import { type HostProcess, startForecast, startHost } from './host-process.js'

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url))
const MCPJAM_DIR = here('../../../../test/mcpjam/')
const MCPJAM = join(MCPJAM_DIR, 'node_modules/@mcpjam/inspector')
const LOOPBACK_ONLY = join(MCPJAM_DIR, 'loopback-only.cjs')

let browser: Browser
let page: Page
let forecast: Listening
let duet: AppServer
let duetUrl: string
let mcpjam: HostProcess | undefined
let home: string
let dataDir: string
let ui: number
const logs: string[] = []

beforeAll(async () => {
  if (!existsSync(join(MCPJAM, 'dist/server/index.js')))
    throw new Error(`MCPJam Inspector is not installed: run npm ci --prefix test/mcpjam (looked in ${MCPJAM})`)
  forecast = await startForecast()
  dataDir = mkdtempSync(join(tmpdir(), 'duet-mcpjam-data-'))
  duet = await createAgentAppsServer({ dataDir })
  duetUrl = (await duet.listen({ http: { port: 0, host: '127.0.0.1' }, handleSignals: false })).url!

  home = mkdtempSync(join(tmpdir(), 'duet-mcpjam-'))
  ui = await freePort()
  // Nothing listens there: MCPJam requires these URLs, and its guest mode works without them.
  const dead = `http://127.0.0.1:${await freePort()}`
  mcpjam = await startHost(
    'MCPJam',
    process.execPath,
    ['--require', LOOPBACK_ONLY, 'dist/server/index.js'],
    {
      cwd: MCPJAM,
      env: {
        ...process.env,
        HOME: home,
        NODE_ENV: 'production',
        PORT: String(ui),
        CONVEX_HTTP_URL: dead,
        CONVEX_URL: dead,
        MCP_CONFIG_DATA: JSON.stringify({ mcpServers: { forecast: { type: 'http', url: forecast.url }, duet: { type: 'http', url: duetUrl } } }),
      },
    },
    (output) => output.includes(`127.0.0.1:${ui}`),
  )
  browser = await launchBrowser()
  page = await (await browser.newContext({ viewport: { width: 1400, height: 1000 } })).newPage()
  // Its page reaches for fonts, analytics and its cloud: only loopback is let through.
  await page.route(/^(?!https?:\/\/(127\.0\.0\.1|localhost)[:/]).*/, (route) => route.abort())
  page.on('console', (m) => logs.push(`${m.type()}: ${m.text()}`))
  await page.goto(`http://127.0.0.1:${ui}/`)
  await page.getByText('Or continue as guest').click()
  // Both servers connected (the MCP Servers page shows each one's status).
  await page.getByText('Connected', { exact: true }).nth(1).waitFor({ timeout: 60_000 })
}, 180_000)

afterAll(async () => {
  await browser?.close()
  await mcpjam?.stop()
  await forecast?.close()
  await duet?.close()
  for (const dir of [home, dataDir]) if (dir) rmSync(dir, { recursive: true, force: true })
})

/**
 * Opens the Tools tab on `server`, fills the tool's form and executes it; returns the widget's frame.
 * Stays in the page: a reload makes MCPJam connect again to servers its backend already holds, which
 * it reports as failed.
 */
async function execute(server: string, tool: string, fields: Record<string, string>): Promise<FrameLocator> {
  await page.getByRole('button', { name: 'Tools' }).first().click()
  // With more than one server connected, one tab per server ("forecast HTTP").
  await page.locator('button').filter({ hasText: 'HTTP' }).filter({ hasText: server }).first().click()
  await page.getByText(tool, { exact: true }).first().click()
  for (const [name, value] of Object.entries(fields)) await page.getByPlaceholder(`Enter ${name}`).fill(value)
  await page.getByRole('button', { name: 'Execute' }).click()
  return page.frameLocator('iframe').first()
}

/** Awaits `wait`; when it fails, the error also says what the widget shows and what the page logged last. */
async function explained(view: FrameLocator, wait: Promise<unknown>): Promise<void> {
  try {
    await wait
  } catch (err) {
    const shown = await view
      .locator('body')
      .innerText({ timeout: 2_000 })
      .catch(() => '(no frame)')
    throw new Error(`${(err as Error).message}\nthe widget shows: ${shown.slice(0, 500)}\nthe page's last logs:\n${logs.slice(-20).join('\n')}`)
  }
}

describe('MCPJam Inspector 1.0.24 renders Duet views through the Apps SDK dialect', () => {
  it('the forecast card: renders, picks a day, refreshes through window.openai.callTool', async () => {
    const view = await execute('forecast', 'get_forecast', { city: 'Oslo' })
    await expect.poll(() => view.locator('h1').textContent({ timeout: 30_000 }), { timeout: 60_000 }).toBe('Forecast for Oslo')
    await expect.poll(() => view.locator('.day').count(), { timeout: 30_000 }).toBe(5)
    await expectForecastCardWorks(view)
    await page.screenshot({ path: `${SHOTS_DIR}/mcpjam-forecast.png`, fullPage: true })
  }, 120_000)

  it('display_ui_to_user: the fragment renders and completes a channel round trip with the agent', async () => {
    // No `</script>` in it: MCPJam 1.0.24 embeds the tool input, unescaped, in an inline script of the
    // widget page, and a closing script tag in it breaks that page (README, Host setup). The fragment's
    // code runs from event attributes instead; the pixel's onload starts it.
    const start =
      "duet.ready.then(function (id) { document.getElementById('ch').textContent = id });" +
      "duet.onAgentMessage(function (m) { document.getElementById('got').textContent = m.event + ': ' + m.data.text })"
    const ping = "duet.notifyAgent('ping', { from: 'mcpjam' }).then(function () { document.getElementById('sent').textContent = 'sent' })"
    const fragment =
      `<h2>Round trip</h2><p id="ch">no channel</p><button id="go" onclick="${ping}">Ping the agent</button><p id="sent"></p><p id="got">waiting</p>` +
      `<img alt="" width="1" height="1" src="data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7" onload="${start}">`
    const view = await execute('duet', 'display_ui_to_user', { html: fragment })
    await explained(view, expect.poll(() => view.locator('#ch').textContent({ timeout: 30_000 }), { timeout: 60_000 }).toMatch(/^ch_/))
    const channelId = (await view.locator('#ch').textContent())!
    await view.locator('#go').click()
    await expect.poll(() => view.locator('#sent').textContent(), { timeout: 20_000 }).toBe('sent')

    // The agent's side: an MCP client of the same server reads the ping and answers on the channel.
    const agent = new Client({ name: 'agent', version: '1' })
    await agent.connect(new StreamableHTTPClientTransport(new URL(duetUrl)))
    try {
      const polled = await agent.callTool({ name: 'poll_agent_messages', arguments: { channel_id: channelId, wait_seconds: 10 } })
      expect(JSON.stringify(polled.structuredContent)).toContain('"event":"ping"')
      await agent.callTool({ name: 'notify_ui', arguments: { channel_id: channelId, event: 'pong', data: { text: 'hello from the agent' } } })
    } finally {
      await agent.close()
    }
    await expect.poll(() => view.locator('#got').textContent(), { timeout: 30_000 }).toBe('pong: hello from the agent')
    await page.screenshot({ path: `${SHOTS_DIR}/mcpjam-fragment.png`, fullPage: true })
  }, 120_000)

  it('display_component: the compiled component renders, learns its channel and hears the agent', async () => {
    const source = [
      'export default function Hello({ state }) { return <div><p className="ch">{state.ch}</p><p className="hello">{state.text}</p></div> }',
      "Hello.initialState = { text: 'component ready', ch: '' }",
      "Hello.intent = ({ MCP }) => ({ RESULT: MCP.select('tool-result'), HEARD: MCP.select('agent-message') })",
      'Hello.model = { RESULT: (state, r) => ({ ...state, ch: r.structuredContent.channel_id }), HEARD: (state, m) => ({ ...state, text: "agent said " + m.event }) }',
    ].join(';\n')
    const view = await execute('duet', 'display_component', { source })
    await explained(view, expect.poll(() => view.locator('.hello').textContent({ timeout: 30_000 }), { timeout: 60_000 }).toBe('component ready'))
    await expect.poll(() => view.locator('.ch').textContent(), { timeout: 30_000 }).toMatch(/^ch_/)
    const channelId = (await view.locator('.ch').textContent())!
    const agent = new Client({ name: 'agent', version: '1' })
    await agent.connect(new StreamableHTTPClientTransport(new URL(duetUrl)))
    try {
      await agent.callTool({ name: 'notify_ui', arguments: { channel_id: channelId, event: 'pong', data: {} } })
    } finally {
      await agent.close()
    }
    await expect.poll(() => view.locator('.hello').textContent(), { timeout: 30_000 }).toBe('agent said pong')
    await page.screenshot({ path: `${SHOTS_DIR}/mcpjam-component.png`, fullPage: true })
  }, 120_000)

  it('no frame logged a duetkit driver warning: the views sent nothing window.openai did not offer', () => {
    const noise = logs.filter((line) => /\[duetkit\/mcp\]/.test(line))
    expect(noise).toEqual([])
  })
})
