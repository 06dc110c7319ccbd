import { run } from 'duetkit'
import { AgentPanel } from './AgentPanel.js'
import { agentRequests, type AgentRequest } from './agent-poll.js'
import type { ServerView } from './api.js'
import { h } from './dom.js'
import { makePageDriver } from './page-driver.js'

/**
 * The agent panel (the {@link AgentPanel} component) in the page: its polls and notify_ui calls go to
 * the server with the channel tools, preferring `preferred()`, the server whose app is on screen.
 */
export function agentPanel(servers: () => ServerView[], preferred: () => string | undefined): { element: HTMLElement; setChannel(id: string): void } {
  const element = h('div')
  const app = run(AgentPanel, { AGENT: makePageDriver<AgentRequest>(agentRequests(servers, preferred)) }, { mountPoint: element })
  return { element, setChannel: (id) => void app.dispatch('SET_CHANNEL', id) }
}
