// Duet's task tools driven by a second, independent requester: the official Tasks client
// (@modelcontextprotocol/ext-tasks 0.2.2, what MCP Inspector 2.12 uses; installed in test/interop). It reads
// the capability and each tool's execution.taskSupport, creates the task, polls, fetches the result, lists
// and cancels, over real Streamable HTTP, in session mode and the stateless default.
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import * as z from 'zod'
import { createAppServer, type AppServer } from '../../src/server/index.js'

const EXT_TASKS = fileURLToPath(new URL('../../../../test/interop/node_modules/@modelcontextprotocol/ext-tasks/dist/client/index.js', import.meta.url))

// What this test uses of its client entry, typed here so the type check does not need test/interop installed.
interface Outcome {
  status: string
}
interface Execution {
  kind: 'immediate' | 'task'
  handle?: { taskId: string }
  settle(): Promise<{ outcome: Outcome }>
  cancel(): Promise<void>
}
interface TaskSession {
  capabilities: Record<string, unknown>
  callTool(name: string, args?: Record<string, string>, options?: { task?: { preference: 'allow' | 'prefer' | 'require' | 'forbid' } }): Promise<Execution>
  listTasks(): Promise<{ tasks: Array<{ taskId: string }> }>
  close(): Promise<void>
}
interface ExtTasks {
  createTaskSessionFromClient(client: Client, options: { endpointId: string }): TaskSession
  resultFromTaskOutcome(outcome: Outcome): unknown
}

let extTasks: ExtTasks
let release: (city: string) => void
const aborted = new Set<string>()

function reportServer(): AppServer {
  const gates = new Map<string, () => void>()
  const waits = new Map<string, Promise<void>>()
  const gate = (city: string) => {
    if (!waits.has(city)) waits.set(city, new Promise<void>((resolve) => gates.set(city, resolve)))
    return waits.get(city)!
  }
  release = (city) => {
    void gate(city)
    gates.get(city)!()
  }
  return createAppServer({ name: 'reports', version: '1' })
    .appTool(
      'slow_forecast',
      {
        description: 'A forecast that takes a while',
        inputSchema: { city: z.string() },
        outputSchema: { city: z.string() },
        view: { html: '<p>forecast</p>' },
        task: 'optional',
      },
      async ({ city }, extra) => {
        await Promise.race([gate(city), new Promise((resolve) => extra.mcpReq.signal.addEventListener('abort', resolve))])
        if (extra.mcpReq.signal.aborted) aborted.add(city)
        return { content: [{ type: 'text', text: city }], structuredContent: { city } }
      },
    )
    .tool('quick', { description: 'Answers at once' }, async () => ({ content: [{ type: 'text', text: 'quick' }] }))
}

const app = reportServer()
const clients: Client[] = []
beforeAll(async () => {
  extTasks = (await import(EXT_TASKS)) as ExtTasks
})
afterAll(async () => {
  for (const client of clients) await client.close().catch(() => {})
  await app.close()
})

describe.each([
  ['session mode', true],
  ['the stateless default', false],
])('the official Tasks requester against Duet, %s', (mode, sessions) => {
  let session: TaskSession
  beforeAll(async () => {
    const { url } = await app.listen({ http: { port: 0, sessions }, handleSignals: false })
    const client = new Client({ name: 'ext-tasks', version: '1' })
    await client.connect(new StreamableHTTPClientTransport(new URL(url!)))
    clients.push(client)
    session = extTasks.createTaskSessionFromClient(client, { endpointId: `duet-${mode}` })
  })
  afterAll(async () => {
    await session?.close()
  })

  it('sees the tasks capability: execution, cancellation and listing', () => {
    expect(session.capabilities).toMatchObject({ execution: true, cancellation: true })
  })

  it('runs an app tool as a task and settles it with the tool’s own result', async () => {
    const city = `Rome-${sessions}`
    const execution = await session.callTool('slow_forecast', { city }, { task: { preference: 'require' } })
    expect(execution.kind).toBe('task')
    const taskId = execution.handle!.taskId
    release(city)
    const { outcome } = await execution.settle()
    expect(outcome.status).toBe('completed')
    const result = extTasks.resultFromTaskOutcome(outcome) as { structuredContent?: unknown; _meta?: Record<string, unknown> }
    expect(result.structuredContent).toEqual({ city })
    expect(result._meta?.['io.modelcontextprotocol/related-task']).toEqual({ taskId })
    const listed = await session.listTasks()
    expect(listed.tasks.map((task) => task.taskId)).toContain(taskId)
  })

  it('cancels a running task: the tool sees its signal fire and the outcome is cancelled', async () => {
    const city = `Oslo-${sessions}`
    const execution = await session.callTool('slow_forecast', { city }, { task: { preference: 'require' } })
    expect(execution.kind).toBe('task')
    await execution.cancel()
    const { outcome } = await execution.settle()
    expect(outcome.status).toBe('cancelled')
    await expect.poll(() => aborted.has(city)).toBe(true)
  })

  it('calls a tool without task support plainly', async () => {
    const execution = await session.callTool('quick', {})
    expect(execution.kind).toBe('immediate')
    const { outcome } = await execution.settle()
    expect(extTasks.resultFromTaskOutcome(outcome)).toMatchObject({ content: [{ type: 'text', text: 'quick' }] })
  })
})
