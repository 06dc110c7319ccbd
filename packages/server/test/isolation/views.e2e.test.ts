// The view's app-only calls come through the host with the user's own token: one user's agent and app share
// a space, and a view shown to another user (a leaked result) reaches nothing of the first user's. Real
// Chromium with the official AppBridge as the host, an agent-apps server over HTTP with bearer tokens.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { OAuthError, OAuthErrorCode, type AuthInfo } from '@modelcontextprotocol/server'
import type { Browser } from 'playwright-core'
import { createAgentAppsServer } from '../../src/apps/agent-apps-server.js'
import { SHELL_URI } from '../../src/apps/display-shell.js'
import type { AppServer, Listening } from '../../src/server/app-server.js'
import { launchBrowser } from '../../../../test/support/browser.js'
import type { HostPage } from '../../../../test/support/host/index.js'
import { deliverToolCall, openServerView } from '../apps/display-e2e-harness.js'
import { tempDir } from '../channel/temp-dir.js'

const ASK = `function Ask({ state, props }) {
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

async function verifier(token: string): Promise<AuthInfo> {
  if (!/^[a-z]+$/.test(token)) throw new OAuthError(OAuthErrorCode.InvalidToken, 'Unknown token')
  return { token, clientId: 'test', scopes: [], expiresAt: Math.floor(Date.now() / 1000) + 3600, extra: { sub: token } }
}

let data: ReturnType<typeof tempDir>
let app: AppServer
let listening: Listening
let browser: Browser
const clients: Client[] = []
const hosts: HostPage[] = []

async function connect(token: string): Promise<Client> {
  const client = new Client({ name: `test-${token}`, version: '1' })
  await client.connect(new StreamableHTTPClientTransport(new URL(listening.url!), { requestInit: { headers: { authorization: `Bearer ${token}` } } }))
  clients.push(client)
  return client
}

/** A host client that remembers the answers to the view's calls, as a host's trace would. */
function recording(client: Client, answers: Array<{ name: string; result: any }>): Client {
  return new Proxy(client, {
    get(target, prop, receiver) {
      if (prop !== 'callTool') return Reflect.get(target, prop, receiver)
      return async (params: { name: string; arguments?: Record<string, unknown> }) => {
        const result = await target.callTool(params)
        answers.push({ name: params.name, result })
        return result
      }
    },
  })
}

beforeAll(async () => {
  data = tempDir('duet-isolation-views-')
  app = await createAgentAppsServer({ dataDir: data.dir, auth: { verifier } })
  ;[listening, browser] = await Promise.all([app.listen({ http: { port: 0 }, handleSignals: false }), launchBrowser()])
})
afterAll(async () => {
  for (const host of hosts) await host.close()
  for (const client of clients) await client.close().catch(() => {})
  await browser?.close()
  await app?.close()
  data?.remove()
})

describe('views under authorization', () => {
  it("a user's view and agent share its channel; the same view shown to another user reaches none of it", async () => {
    const agent = await connect('alice')
    const args = { source: ASK, props: { heading: 'Ask me' } }
    const result = (await agent.callTool({ name: 'display_component', arguments: args })) as any
    const channel = result.structuredContent.channel_id as string

    // Alice's host forwards her view's calls with her token: get_render, the poll and notify_agent all work.
    const own = await openServerView(browser, await connect('alice'), SHELL_URI)
    hosts.push(own)
    await deliverToolCall(own, args, result)
    const frame = own.viewFrame()
    await frame.waitForFunction(() => document.querySelector('.title')?.textContent === 'Ask me', undefined, { timeout: 20_000 })
    await frame.click('.send')
    const polled = (await agent.callTool({ name: 'poll_agent_messages', arguments: { channel_id: channel, wait_seconds: 30, after: '0' } })) as any
    expect(polled.structuredContent.messages).toMatchObject([{ event: 'ask', data: { q: 'why?' } }])
    await agent.callTool({ name: 'notify_ui', arguments: { channel_id: channel, event: 'answer', data: { text: 'Because.' } } })
    await frame.waitForFunction(() => document.querySelector('.answer')?.textContent === 'Because.', undefined, { timeout: 20_000 })

    // Bob's host is handed alice's result (a leak): with his token the view gets neither her render nor her channel.
    const answers: Array<{ name: string; result: any }> = []
    const leaked = await openServerView(browser, recording(await connect('bob'), answers), SHELL_URI)
    hosts.push(leaked)
    await deliverToolCall(leaked, args, result)
    await expect.poll(() => answers.find((a) => a.name === 'get_render')?.result.structuredContent?.error?.code, { timeout: 20_000 }).toBe('NOT_FOUND')
    expect(await leaked.viewFrame().$('.title')).toBeNull()
    const polls = answers.filter((a) => a.name === 'poll_ui_messages')
    for (const poll of polls) expect(JSON.stringify(poll.result)).not.toContain('Because.')
    // Nothing bob's view did reached alice's agent.
    const after = (await agent.callTool({ name: 'poll_agent_messages', arguments: { channel_id: channel, after: polled.structuredContent.next_after } })) as any
    expect(after.structuredContent.messages).toEqual([])
  })
})
