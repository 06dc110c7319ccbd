// Long-running app tools as tasks (MCP 2025-11-25), driven by the SDK's own Client over real Streamable HTTP,
// with two real subjects of the test issuer: a task call answers at once, tasks/get follows it to its end,
// tasks/result gives the tool's own result, tasks/cancel fires the handler's signal, and one user can never
// see, read or cancel another's task (the same answer as an unknown id). Session mode and the stateless
// default serve 2025-era clients alike; 2026-07-28 clients call the same tools plainly.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import * as z from 'zod'
import { createAppServer, type AppServer } from '../../src/server/index.js'
import { startIssuer, type TestIssuer } from '../auth/oidc-issuer.js'

// The wire shapes of the 2025-11-25 schema (the SDK's client entry does not export its task schemas).
const taskShape = z.object({
  taskId: z.string(),
  status: z.enum(['working', 'input_required', 'completed', 'failed', 'cancelled']),
  statusMessage: z.string().optional(),
  createdAt: z.string(),
  lastUpdatedAt: z.string(),
  ttl: z.number().nullable(),
  pollInterval: z.number().optional(),
})
const createTaskResult = z.object({ task: taskShape })
const callToolResult = z.looseObject({
  content: z.array(z.looseObject({ type: z.string() })),
  structuredContent: z.record(z.string(), z.unknown()).optional(),
  isError: z.boolean().optional(),
  _meta: z.record(z.string(), z.unknown()).optional(),
})
const listTasksResult = z.object({ tasks: z.array(taskShape), nextCursor: z.string().optional() })

/** A promise the test settles by hand: each slow call waits on one, keyed by its argument. */
function gates() {
  const open = new Map<string, () => void>()
  const waiting = new Map<string, Promise<void>>()
  const gate = (key: string) => {
    let promise = waiting.get(key)
    if (!promise) {
      promise = new Promise<void>((resolve) => open.set(key, resolve))
      waiting.set(key, promise)
    }
    return promise
  }
  const release = (key: string) => {
    void gate(key)
    open.get(key)!()
  }
  return { wait: gate, release }
}

const slow = gates()
/** Each cancelled handler's abort reason, by its argument. */
const aborted = new Map<string, string>()

function tasksServer(issuerUrl: string): AppServer {
  return createAppServer({ name: 'tasks', version: '1', auth: { issuer: issuerUrl }, tasks: { maxTasksPerSubject: 3 } })
    .appTool(
      'slow_forecast',
      {
        description: 'A forecast that takes a while',
        inputSchema: { city: z.string() },
        outputSchema: { city: z.string(), high: z.number() },
        view: { html: '<p>forecast</p>' },
        task: 'optional',
      },
      async ({ city }, extra) => {
        await Promise.race([slow.wait(city), new Promise((resolve) => extra.mcpReq.signal.addEventListener('abort', resolve))])
        if (extra.mcpReq.signal.aborted) aborted.set(city, String((extra.mcpReq.signal.reason as Error)?.message))
        return { content: [{ type: 'text', text: `${city}: 21°` }], structuredContent: { city, high: 21 } }
      },
    )
    .tool('batch_job', { description: 'Runs until cancelled', inputSchema: { label: z.string() }, task: 'required' }, async ({ label }, extra) => {
      await new Promise<void>((resolve) => {
        if (extra.mcpReq.signal.aborted) return resolve()
        extra.mcpReq.signal.addEventListener('abort', () => resolve())
      })
      aborted.set(label, String((extra.mcpReq.signal.reason as Error)?.message))
      return { content: [{ type: 'text', text: 'stopped' }] }
    })
    .tool('failing_job', { description: 'Fails', task: 'optional' }, async () => ({ content: [{ type: 'text', text: 'disk full' }], isError: true }))
    .tool('quick', { description: 'Answers at once' }, async () => ({ content: [{ type: 'text', text: 'quick' }] }))
}

let issuer: TestIssuer
const clients: Client[] = []
const apps: AppServer[] = []

async function connect(url: string, subject: string, era: 'legacy' | 'modern' = 'legacy'): Promise<Client> {
  const token = await issuer.tokenFor(subject, { audience: url })
  const client = new Client({ name: subject, version: '1' }, era === 'modern' ? { versionNegotiation: { mode: 'auto' as const } } : {})
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }))
  clients.push(client)
  return client
}

const callAsTask = (client: Client, name: string, args: Record<string, unknown>, ttl = 60_000) =>
  client.request({ method: 'tools/call', params: { name, arguments: args, task: { ttl } } }, createTaskResult)
const getTask = (client: Client, taskId: string) => client.request({ method: 'tasks/get', params: { taskId } }, taskShape)
const taskResult = (client: Client, taskId: string) => client.request({ method: 'tasks/result', params: { taskId } }, callToolResult)
const cancelTask = (client: Client, taskId: string) => client.request({ method: 'tasks/cancel', params: { taskId } }, taskShape)
const listTasks = (client: Client, cursor?: string) => client.request({ method: 'tasks/list', params: cursor ? { cursor } : {} }, listTasksResult)

/** The error a promise rejects with, as `{ code, message, data }`. */
async function failure(promise: Promise<unknown>): Promise<{ code: number; message: string; data?: { code?: string } }> {
  try {
    await promise
  } catch (err) {
    const { code, message, data } = err as { code: number; message: string; data?: { code?: string } }
    return { code, message, data }
  }
  throw new Error('expected the request to fail')
}

/** Polls tasks/get (at the interval the server suggests) until the task leaves `working`. */
async function settled(client: Client, taskId: string) {
  for (;;) {
    const task = await getTask(client, taskId)
    if (task.status !== 'working' && task.status !== 'input_required') return task
    await new Promise((resolve) => setTimeout(resolve, Math.min(task.pollInterval ?? 100, 100)))
  }
}

async function until(check: () => boolean, what: string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

beforeAll(async () => {
  issuer = await startIssuer()
})
afterAll(async () => {
  for (const client of clients) await client.close().catch(() => {})
  for (const app of apps) await app.close()
  await issuer?.close()
})

describe.each([
  ['session mode (sessions: true)', true],
  ['the stateless default', false],
])('app tools as tasks, 2025-11-25 clients, %s', (_mode, sessions) => {
  let url: string
  let alice: Client
  let bob: Client
  beforeAll(async () => {
    const app = tasksServer(issuer.url)
    apps.push(app)
    url = (await app.listen({ http: { port: 0, sessions }, handleSignals: false })).url!
    alice = await connect(url, 'alice')
    bob = await connect(url, 'bob')
  })

  it('declares the tasks capability and each tool’s execution.taskSupport next to its view', async () => {
    expect(alice.getServerCapabilities()?.tasks).toEqual({ list: {}, cancel: {}, requests: { tools: { call: {} } } })
    const { tools } = await alice.listTools()
    const byName = new Map(tools.map((tool) => [tool.name, tool]))
    expect(byName.get('slow_forecast')?.execution).toEqual({ taskSupport: 'optional' })
    expect(byName.get('slow_forecast')?._meta?.ui).toMatchObject({ resourceUri: 'ui://tasks/slow_forecast.html' })
    expect(byName.get('batch_job')?.execution).toEqual({ taskSupport: 'required' })
    expect(byName.get('quick')?.execution).toBeUndefined()
  })

  it('a task call answers at once; tasks/get shows working, then completed; tasks/result is the tool’s own result', async () => {
    const city = `Lisbon-${sessions}`
    const created = await callAsTask(alice, 'slow_forecast', { city }, 120_000)
    expect(created.task.status).toBe('working')
    expect(created.task.ttl).toBe(120_000)
    expect(Date.parse(created.task.createdAt)).not.toBeNaN()
    expect((await getTask(alice, created.task.taskId)).status).toBe('working')

    // tasks/result waits for the end: asked now, answered once the tool is let go.
    const result = taskResult(alice, created.task.taskId)
    slow.release(city)
    const done = await settled(alice, created.task.taskId)
    expect(done.status).toBe('completed')
    const final = await result
    expect(final.structuredContent).toEqual({ city, high: 21 })
    expect(final.content).toEqual([{ type: 'text', text: `${city}: 21°` }])
    // The app tool's result keeps its view instance id, and names its task.
    expect(final._meta?.viewUUID).toMatch(/^[0-9a-f-]{36}$/)
    expect(final._meta?.['io.modelcontextprotocol/related-task']).toEqual({ taskId: created.task.taskId })
    // Fetched again, the same result.
    expect((await taskResult(alice, created.task.taskId)).structuredContent).toEqual({ city, high: 21 })
  })

  it('the same tool still answers a plain call directly', async () => {
    const city = `Porto-${sessions}`
    slow.release(city)
    const result = await alice.callTool({ name: 'slow_forecast', arguments: { city } })
    expect(result.structuredContent).toEqual({ city, high: 21 })
  })

  it('tasks/cancel aborts the handler’s signal; the task stays cancelled and has no result', async () => {
    const label = `nightly-${sessions}`
    const created = await callAsTask(alice, 'batch_job', { label })
    const cancelled = await cancelTask(alice, created.task.taskId)
    expect(cancelled.status).toBe('cancelled')
    await until(() => aborted.has(label), 'the handler to see its signal fire')
    expect(aborted.get(label)).toMatch(/cancelled/)
    expect((await getTask(alice, created.task.taskId)).status).toBe('cancelled')
    const noResult = await failure(taskResult(alice, created.task.taskId))
    expect(noResult.code).toBe(-32602)
    expect(noResult.message).toMatch(/was cancelled: it has no result/)
    // Terminal: cancelling again is refused with Invalid params, as the spec says.
    const again = await failure(cancelTask(alice, created.task.taskId))
    expect(again.code).toBe(-32602)
    expect(again.message).toMatch(/already cancelled/)
  })

  it('a tool result with isError makes the task failed, and tasks/result returns that result', async () => {
    const created = await callAsTask(alice, 'failing_job', {})
    const done = await settled(alice, created.task.taskId)
    expect(done.status).toBe('failed')
    expect(done.statusMessage).toMatch(/disk full/)
    const result = await taskResult(alice, created.task.taskId)
    expect(result.isError).toBe(true)
  })

  it('arguments the tool refuses fail the task with the error the plain call gives', async () => {
    const plain = await alice.callTool({ name: 'slow_forecast', arguments: { city: 42 } }).then(
      (r) => ({ isError: r.isError, text: (r.content as Array<{ text: string }>)[0]?.text }),
      (err: Error) => ({ isError: true, text: err.message }),
    )
    const created = await callAsTask(alice, 'slow_forecast', { city: 42 })
    const done = await settled(alice, created.task.taskId)
    expect(done.status).toBe('failed')
    const result = await taskResult(alice, created.task.taskId).then(
      (r) => ({ isError: r.isError, text: (r.content[0] as { text?: string } | undefined)?.text }),
      (err: Error) => ({ isError: true, text: err.message }),
    )
    expect(result).toEqual(plain)
  })

  it('another subject cannot get, fetch, cancel or list the task: the same answer as an unknown id', async () => {
    const city = `Oslo-${sessions}`
    const created = await callAsTask(alice, 'slow_forecast', { city })
    const id = created.task.taskId
    const unknown = '00000000-0000-4000-8000-000000000000'
    for (const ask of [getTask, taskResult, cancelTask]) {
      const theirs = await failure(ask(bob, id))
      const none = await failure(ask(bob, unknown))
      expect(theirs.code).toBe(-32602)
      expect(theirs.code).toBe(none.code)
      expect(theirs.message.replace(id, '<id>')).toBe(none.message.replace(unknown, '<id>'))
      expect(theirs.data?.code).toBe('NOT_FOUND')
    }
    expect((await listTasks(bob)).tasks.map((t) => t.taskId)).not.toContain(id)
    expect((await listTasks(alice)).tasks.map((t) => t.taskId)).toContain(id)
    // Bob's attempts changed nothing: Alice's task runs on and completes.
    expect((await getTask(alice, id)).status).toBe('working')
    slow.release(city)
    expect((await settled(alice, id)).status).toBe('completed')
  })

  it('bad input gets a clear error: a task call of a tool without task support or of no tool, a plain call of a task-only tool, a bad ttl or cursor', async () => {
    const notTask = await failure(callAsTask(alice, 'quick', {}))
    expect(notTask.code).toBe(-32601)
    expect(notTask.message).toMatch(/cannot be called as a task/)
    const mustBeTask = await failure(alice.callTool({ name: 'batch_job', arguments: { label: 'x' } }))
    expect(mustBeTask.code).toBe(-32601)
    expect(mustBeTask.message).toMatch(/must be called as a task/)
    const noSuchTool = await failure(callAsTask(alice, 'no_such_tool', {}))
    expect(noSuchTool.code).toBe(-32602)
    expect(noSuchTool.message).toMatch(/no_such_tool not found/)
    const badTtl = await failure(callAsTask(alice, 'slow_forecast', { city: 'x' }, -5))
    expect(badTtl.code).toBe(-32602)
    expect(badTtl.message).toMatch(/task\.ttl/)
    const badCursor = await failure(listTasks(alice, 'not-a-cursor'))
    expect(badCursor.code).toBe(-32602)
    expect(badCursor.message).toMatch(/Invalid cursor/)
    // And the next call is served as usual.
    expect((await alice.callTool({ name: 'quick', arguments: {} })).content).toEqual([{ type: 'text', text: 'quick' }])
  })
})

describe('task options', () => {
  it('a bad limit or task option fails at startup, naming the option', () => {
    const bad = (make: () => unknown, option: string) => {
      expect(make).toThrow(expect.objectContaining({ code: 'INVALID_OPTION', data: expect.objectContaining({ option }) }))
    }
    bad(() => createAppServer({ name: 'x', version: '1', tasks: { maxTasksPerSubject: 0 } }), 'tasks.maxTasksPerSubject')
    bad(() => createAppServer({ name: 'x', version: '1', tasks: { maxTtlMs: 2 ** 31 } }), 'tasks.maxTtlMs')
    bad(() => createAppServer({ name: 'x', version: '1', tasks: { defaultTtlMs: 5000, maxTtlMs: 1000 } }), 'tasks.defaultTtlMs')
    bad(() => createAppServer({ name: 'x', version: '1', tasks: 'many' as never }), 'tasks')
    const app = createAppServer({ name: 'x', version: '1' })
    bad(() => app.tool('job', { description: 'A job', task: 'always' as never }, async () => ({ content: [] })), 'task')
  })
})

describe('task limits and lifetime (session mode)', () => {
  let url: string
  beforeAll(async () => {
    const app = tasksServer(issuer.url)
    apps.push(app)
    url = (await app.listen({ http: { port: 0, sessions: true }, handleSignals: false })).url!
  })

  it('a subject at its cap of running tasks is refused; another subject is not; a finished task makes room', async () => {
    const carol = await connect(url, 'carol')
    const dave = await connect(url, 'dave')
    const running = await Promise.all(['a', 'b', 'c'].map((n) => callAsTask(carol, 'batch_job', { label: `carol-${n}` })))
    const refused = await failure(callAsTask(carol, 'batch_job', { label: 'carol-d' }))
    expect(refused.code).toBe(-32600)
    expect(refused.data?.code).toBe('LIMIT_REACHED')
    expect(refused.message).toMatch(/Too many running tasks: this caller has 3 still working/)
    // Dave is not starved by Carol.
    const daves = await callAsTask(dave, 'batch_job', { label: 'dave-a' })
    expect(daves.task.status).toBe('working')
    // Carol's running tasks were not touched by her refused call.
    for (const { task } of running) expect((await getTask(carol, task.taskId)).status).toBe('working')
    // Once one is cancelled (terminal), it may give its place to a new one.
    await cancelTask(carol, running[0]!.task.taskId)
    const next = await callAsTask(carol, 'batch_job', { label: 'carol-e' })
    expect(next.task.status).toBe('working')
    for (const task of [...running.slice(1).map((r) => r.task), next.task, daves.task])
      await cancelTask(task.taskId === daves.task.taskId ? dave : carol, task.taskId)
  })

  it('a task past its TTL is gone, and its still-running handler is aborted', async () => {
    const erin = await connect(url, 'erin')
    const created = await callAsTask(erin, 'batch_job', { label: 'erin-ttl' }, 300)
    expect(created.task.ttl).toBe(300)
    await until(() => aborted.has('erin-ttl'), 'the expired task to be aborted')
    const gone = await failure(getTask(erin, created.task.taskId))
    expect(gone.code).toBe(-32602)
    expect(gone.data?.code).toBe('NOT_FOUND')
  })
})

describe('closing the server', () => {
  it('aborts running tasks and answers a waiting tasks/result at once', async () => {
    const app = tasksServer(issuer.url)
    const url = (await app.listen({ http: { port: 0, shutdownGraceMs: 20_000 }, handleSignals: false })).url!
    const jack = await connect(url, 'jack')
    const created = await callAsTask(jack, 'batch_job', { label: 'jack-shutdown' })
    const waiting = failure(taskResult(jack, created.task.taskId))
    await new Promise((resolve) => setTimeout(resolve, 100))
    await app.close()
    // Answered by the server (not cut off when the grace period ran out): the task was ended before the listener closed.
    expect((await waiting).message).toMatch(/was cancelled: it has no result \(The server closed\)/)
    expect(aborted.get('jack-shutdown')).toMatch(/The server closed/)
  })
})

describe('task methods under the rate limit', () => {
  it('polling counts per subject and per method: past its burst a caller gets 429, another caller does not', async () => {
    // The whole-caller bucket is off here: this test is about the per-method buckets of the task methods.
    const app = createAppServer({ name: 'polled', version: '1', auth: { issuer: issuer.url }, rateLimit: { burst: 2, perSecond: 0.01, all: false } }).tool(
      'job',
      { description: 'A job', task: 'optional' },
      async () => ({ content: [{ type: 'text', text: 'done' }] }),
    )
    apps.push(app)
    const url = (await app.listen({ http: { port: 0 }, handleSignals: false })).url!
    const hank = await connect(url, 'hank')
    const ivy = await connect(url, 'ivy')
    const created = await callAsTask(hank, 'job', {})
    await getTask(hank, created.task.taskId)
    await getTask(hank, created.task.taskId)
    const limited = await failure(getTask(hank, created.task.taskId))
    expect(limited.message).toMatch(/Too many 'tasks\/get' requests/)
    // Ivy's own bucket is full: her poll reaches the server (and finds no such task of hers).
    const hers = await failure(getTask(ivy, created.task.taskId))
    expect(hers.data?.code).toBe('NOT_FOUND')
  })
})

describe('a task asks back over its session (sessions: true)', () => {
  it('its elicitation and progress carry the task id, and tasks/get says input_required until the user answers', async () => {
    const answer = gates()
    const app = createAppServer({ name: 'asking-task', version: '1', auth: { issuer: issuer.url } }).tool(
      'plan_trip',
      { description: 'Asks where to, then plans', task: 'optional' },
      async (_args, extra) => {
        const reply = await extra.mcpReq.elicitInput({ message: 'Where to?', requestedSchema: { type: 'object', properties: { city: { type: 'string' } } } })
        const token = extra.mcpReq._meta?.progressToken
        if (token !== undefined) await extra.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, progress: 1, total: 1 } })
        return { content: [{ type: 'text', text: `trip to ${String(reply.content?.city)}` }] }
      },
    )
    apps.push(app)
    const url = (await app.listen({ http: { port: 0, sessions: true }, handleSignals: false })).url!
    const token = await issuer.tokenFor('gina', { audience: url })
    const client = new Client({ name: 'gina', version: '1' }, { capabilities: { elicitation: { form: {} } } })
    clients.push(client)
    const asked: Array<Record<string, unknown> | undefined> = []
    const progress: Array<Record<string, unknown> | undefined> = []
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(request.params._meta)
      await answer.wait('trip')
      return { action: 'accept', content: { city: 'Kyoto' } }
    })
    client.setNotificationHandler('notifications/progress', async (notification) => {
      progress.push(notification.params._meta)
    })
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }))

    const created = await client.request(
      { method: 'tools/call', params: { name: 'plan_trip', arguments: {}, task: { ttl: 60_000 }, _meta: { progressToken: 'trip-progress' } } },
      createTaskResult,
    )
    const related = { 'io.modelcontextprotocol/related-task': { taskId: created.task.taskId } }
    await until(() => asked.length === 1, 'the elicitation to reach the client')
    expect(asked[0]).toEqual(related)
    expect((await getTask(client, created.task.taskId)).status).toBe('input_required')
    answer.release('trip')
    const done = await settled(client, created.task.taskId)
    expect(done.status).toBe('completed')
    expect((await taskResult(client, created.task.taskId)).content).toEqual([{ type: 'text', text: 'trip to Kyoto' }])
    await until(() => progress.length === 1, 'the progress notification')
    expect(progress[0]).toEqual(related)
  })
})

describe('2026-07-28 clients (stateless, per request)', () => {
  let url: string
  beforeAll(async () => {
    const app = tasksServer(issuer.url)
    apps.push(app)
    url = (await app.listen({ http: { port: 0 }, handleSignals: false })).url!
  })

  it('see no task vocabulary and call task tools plainly; the 2025 tasks methods are not there', async () => {
    const client = await connect(url, 'frank', 'modern')
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28')
    expect(client.getServerCapabilities()?.tasks).toBeUndefined()
    const { tools } = await client.listTools()
    expect(tools.find((t) => t.name === 'batch_job')?.execution).toBeUndefined()
    const city = 'Riga-modern'
    slow.release(city)
    const result = await client.callTool({ name: 'slow_forecast', arguments: { city } })
    expect(result.structuredContent).toEqual({ city, high: 21 })
    // A task field from such a client is ignored (SEP-2663: servers ignore it): the call runs and answers plainly.
    const asTask = await client.request({ method: 'tools/call', params: { name: 'slow_forecast', arguments: { city }, task: { ttl: 60_000 } } }, callToolResult)
    expect(asTask.structuredContent).toEqual({ city, high: 21 })
    // tasks/get and tasks/cancel reach the server (SEP-2663 reuses their names) and are refused; tasks/result and
    // tasks/list are not methods of that revision at all.
    for (const ask of [getTask, cancelTask]) {
      const refused = await failure(ask(client, '00000000-0000-4000-8000-000000000000'))
      expect(refused.code).toBe(-32601)
      expect(refused.message).toMatch(/2025-11-25 tasks method/)
    }
    // (the SDK's client refuses them itself, before anything is sent)
    for (const ask of [(): Promise<unknown> => taskResult(client, 'x'), (): Promise<unknown> => listTasks(client)]) {
      const refused = await failure(Promise.resolve().then(ask))
      expect(refused.message).toMatch(/not supported by the negotiated protocol version \(wire era 2026-07-28\)/)
    }
  })
})
