import { run } from 'duetkit'
import { AgentPanel } from './AgentPanel.js'
import { agentRequests, type AgentRequest } from './agent-poll.js'
import type { ServerView } from './api.js'
import { makePageDriver } from './page-driver.js'

/**
 * The agent panel (the {@link AgentPanel} component) in the page: its polls and notify_ui calls go to
 * the server with the channel tools, preferring `preferred()`, the server whose app is on screen.
 */
export function agentPanel(mountPoint: Element, servers: () => ServerView[], preferred: () => string | undefined): { setChannel(id: string): void } {
  const app = run(AgentPanel, { AGENT: makePageDriver<AgentRequest>(agentRequests(servers, preferred)) }, { mountPoint })
  return { setChannel: (id) => void app.dispatch('SET_CHANNEL', id) }
}
