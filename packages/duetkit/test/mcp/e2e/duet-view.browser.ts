// The conformance view on Duet's driver. It feeds the driver a hand-made sink stream and a
// minimal app handle, so this suite tests the driver alone against the official AppBridge.
import { Stream } from 'xstream'
import { z } from 'zod'
import { agentTools, makeMcpAppDriver, type McpSourceName } from 'duetkit/mcp'
import type { AgentInstance, AppHandle } from '../../../src/runtime/driver.js'
import { render, receive, view } from './view-shell.js'

const flushes = new Set<() => void>()
const flush = () => {
  render()
  for (const l of [...flushes]) l()
}

const card: AgentInstance = {
  id: 'card-1',
  component: 'Card',
  agent: {
    name: 'card',
    description: 'The forecast card',
    read: (s: any) => ({ city: s.city, selected: s.selected }),
    actions: {
      SELECT: { description: 'Select a day', input: z.enum(['Mon', 'Tue', 'Wed']) },
      CLEAR: { description: 'Clear the selection', when: (s: any) => s.selected !== null },
    },
  },
  state: () => view.state,
  async dispatch(action, data) {
    await Promise.resolve()
    if (action === 'SELECT') view.state.selected = data as string
    if (action === 'CLEAR') view.state.selected = null
    flush()
  },
}
const app: AppHandle = {
  agents: () => [card],
  onFlush: (l) => {
    flushes.add(l)
    return () => void flushes.delete(l)
  },
}

const sink$ = Stream.create<unknown>()
const MCP = makeMcpAppDriver({ appInfo: { name: 'duet-conformance', version: '1.0.0' }, availableDisplayModes: ['inline', 'fullscreen'], tools: agentTools })(
  sink$,
  { name: 'MCP', app },
)

for (const name of ['tool-input', 'tool-input-partial', 'tool-result', 'tool-cancelled', 'host-context-changed', 'teardown', 'host'] as McpSourceName[]) {
  MCP.select(name).addListener({
    next: (value) => {
      receive(name, value)
      if (name === 'teardown')
        queueMicrotask(() => {
          view.state.result = 'bye'
          flush()
        })
    },
  })
}

const REPLY = Symbol.for('duet.reply')
;(window as any).__send = (value: Record<string, unknown>) => {
  Object.defineProperty(value, REPLY, {
    value: (kind: 'ok' | 'error', data: unknown) => {
      const action = value[kind]
      if (typeof action !== 'string') return false
      view.replies.push({ kind, action, data: JSON.parse(JSON.stringify(data ?? null)) })
      return true
    },
  })
  sink$.shamefullySendNext(value)
}
;(window as any).__setTall = (tall: boolean) => {
  view.state.tall = tall
  render()
}
