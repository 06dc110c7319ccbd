// Long-running tools as tasks (MCP 2025-11-25 "tasks" utility): a task-augmented `tools/call` answers at once
// with a `CreateTaskResult`, the tool runs on, and the client polls `tasks/get`, fetches `tasks/result`, lists
// with `tasks/list` or stops it with `tasks/cancel`. SDK 2.x keeps the task wire types but dropped the task
// runtime (tasks left the core protocol for an extension in 2026-07-28, SEP-2663), so this file is that runtime.
//
// Many users, one server: every task belongs to its caller (token subject, else client address); another
// caller's task id answers exactly as an unknown one. Live tasks are capped per caller and in total, and each
// task lives for its TTL at most (a task still running when its TTL ends is aborted and dropped).
import { randomUUID } from 'node:crypto'
import { isInputRequiredResult, ProtocolError, ProtocolErrorCode, type McpServer, type ServerContext } from '@modelcontextprotocol/server'
import * as z from 'zod'
import { BoundedMap } from './bounded-map.js'
import { DuetError, invalidOption } from './errors.js'
import { callerOf } from './subject.js'

/** Whether a tool may be called as a task: `'optional'` (either way) or `'required'` (only as a task). */
export type TaskSupport = 'optional' | 'required'

/** Limits of the tasks a server keeps (the `tasks` option of `createAppServer`). */
export interface TaskOptions {
  /** Tasks kept in all (running or finished, until their TTL). Default 1000. */
  maxTasks?: number
  /** Tasks one caller may keep; past it, its oldest finished one goes, and a call finding them all running is refused. Default 20. */
  maxTasksPerSubject?: number
  /** A task's lifetime when the client asks for none, in ms. Default 600 000 (10 min). */
  defaultTtlMs?: number
  /** The longest lifetime a client may ask for; longer asks get this. Default 3 600 000 (1 h). */
  maxTtlMs?: number
  /** The polling interval suggested to clients, in ms. Default 1000. */
  pollIntervalMs?: number
}

type Status = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled'

/** The protocol's `Task`, as `tasks/get` and `tasks/cancel` answer it (a type, not an interface: results are records). */
type TaskState = {
  taskId: string
  status: Status
  statusMessage?: string
  createdAt: string
  lastUpdatedAt: string
  ttl: number
  pollInterval: number
}

type Outcome = { result: Record<string, unknown> } | { error: ProtocolError }

interface TaskRecord {
  id: string
  status: Status
  statusMessage?: string
  createdAt: number
  lastUpdatedAt: number
  ttl: number
  expiresAt: number
  /** Drops the task when its TTL ends, even when nobody asks about it again. */
  expiry?: ReturnType<typeof setTimeout>
  controller: AbortController
  /** Questions to the client (elicitation, sampling) still waiting for an answer: the task is `input_required` meanwhile. */
  asking: number
  outcome?: Outcome
  /** Settles once the task is in a terminal status (what `tasks/result` waits for). */
  finished: Promise<void>
  finish(): void
}

/** The wire handler of `tools/call` as the SDK registered it (request validation, input, the tool, its output). */
type CallHandler = (request: { method: string; params?: Record<string, unknown> }, ctx: ServerContext) => Promise<Record<string, unknown>>

const RELATED_TASK = 'io.modelcontextprotocol/related-task'
const PAGE = 50
const TERMINAL = new Set<Status>(['completed', 'failed', 'cancelled'])
const taskIdParams = z.object({ taskId: z.string() })
const listParams = z.object({ cursor: z.string().optional() })

/** The tasks one app server keeps, shared by every SDK server instance it builds (sessions and per-request ones alike). */
export class TaskRegistry {
  readonly #tasks: BoundedMap<string, TaskRecord>
  readonly #defaultTtl: number
  readonly #maxTtl: number
  readonly #pollInterval: number

  constructor(options: Required<TaskOptions>) {
    const { maxTasks, maxTasksPerSubject, defaultTtlMs, maxTtlMs, pollIntervalMs } = options
    // Only a finished task may make room: a running one is the caller's work in progress, never dropped for another.
    this.#tasks = new BoundedMap({
      maxEntries: maxTasks,
      maxPerGroup: maxTasksPerSubject,
      evictable: (task) => TERMINAL.has(task.status),
      onEvict: (_id, task) => clearTimeout(task.expiry),
    })
    this.#defaultTtl = defaultTtlMs
    this.#maxTtl = maxTtlMs
    this.#pollInterval = pollIntervalMs
  }

  /**
   * Puts the task machinery on one SDK server instance: the `tasks` capability, the `tasks/*` methods, and a
   * front for `tools/call` that turns task calls of the tools in `support` into tasks (read at each call, so
   * tools registered later count too). Run after a tool is registered: the SDK sets up `tools/call` with the first.
   * `known` says whether a tool of that name exists at all (an unknown one gets the SDK's own "not found").
   */
  install(mcp: McpServer, support: ReadonlyMap<string, TaskSupport>, known: (name: string) => boolean): void {
    mcp.server.registerCapabilities({ tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } })
    // The SDK's own `tools/call` wrapper validates every result as a `CallToolResult` and so refuses a
    // `CreateTaskResult`; the front therefore replaces the entry in its handler table, keeping the SDK's
    // handler for everything that is not a task call (and for running the task itself).
    const table = (mcp.server as unknown as { _requestHandlers?: Map<string, CallHandler> })._requestHandlers
    const sdkCall = table?.get('tools/call')
    if (!(table instanceof Map) || typeof sdkCall !== 'function')
      throw new DuetError('UNSUPPORTED', 'Tasks need the tools/call handler table of @modelcontextprotocol/server 2.4; this SDK version has none', {})
    table.set('tools/call', (request, ctx) => this.#call(mcp, request, ctx, sdkCall, support, known))

    const legacyOnly = (ctx: ServerContext, method: string) => {
      if (isModern(mcp, ctx))
        throw new ProtocolError(
          ProtocolErrorCode.MethodNotFound,
          `${method} is the 2025-11-25 tasks method; on 2026-07-28 this server runs tools without tasks (the SEP-2663 tasks extension is not served)`,
        )
    }
    mcp.server.setRequestHandler('tasks/get', { params: taskIdParams }, (params, ctx) => {
      legacyOnly(ctx, 'tasks/get')
      return this.#state(this.#find(ctx, params.taskId))
    })
    mcp.server.setRequestHandler('tasks/result', { params: taskIdParams }, async (params, ctx) => {
      legacyOnly(ctx, 'tasks/result')
      return this.#result(this.#find(ctx, params.taskId), ctx.mcpReq.signal)
    })
    mcp.server.setRequestHandler('tasks/cancel', { params: taskIdParams }, (params, ctx) => {
      legacyOnly(ctx, 'tasks/cancel')
      return this.#cancel(this.#find(ctx, params.taskId))
    })
    mcp.server.setRequestHandler('tasks/list', { params: listParams }, (params, ctx) => {
      legacyOnly(ctx, 'tasks/list')
      return this.#list(callerOf(ctx), params.cursor)
    })
  }

  /** Aborts every running task and forgets them all (the server is closing). */
  close(): void {
    for (const [, task] of [...this.#tasks.entries()]) {
      clearTimeout(task.expiry)
      this.#end(task, 'cancelled', 'The server closed')
    }
    this.#tasks.clear()
  }

  async #call(
    mcp: McpServer,
    request: Parameters<CallHandler>[0],
    ctx: ServerContext,
    sdkCall: CallHandler,
    support: ReadonlyMap<string, TaskSupport>,
    known: (name: string) => boolean,
  ) {
    const params = request.params ?? {}
    const name = typeof params.name === 'string' ? params.name : ''
    const taskSupport = support.get(name)
    // 2026-07-28 dropped these tasks: such a client's call runs as a plain call, whatever the tool declares.
    // A tool that does not exist gets the SDK's own "not found", task field or not.
    if (isModern(mcp, ctx) || !known(name)) return sdkCall(request, ctx)
    const asked = params.task
    if (asked === undefined) {
      if (taskSupport === 'required')
        throw new ProtocolError(
          ProtocolErrorCode.MethodNotFound,
          `Tool '${name}' must be called as a task (execution.taskSupport is 'required'): send tools/call with a task field`,
          {
            code: 'UNSUPPORTED',
            tool: name,
          },
        )
      return sdkCall(request, ctx)
    }
    if (taskSupport === undefined)
      throw new ProtocolError(
        ProtocolErrorCode.MethodNotFound,
        `Tool '${name}' cannot be called as a task (it declares no execution.taskSupport): call it without the task field`,
        {
          code: 'UNSUPPORTED',
          tool: name,
        },
      )
    const ttl = this.#ttl(asked)
    const caller = callerOf(ctx)
    const task = this.#create(caller, ttl, name)
    const { task: _asked, ...plain } = params
    void this.#run(task, () => sdkCall({ ...request, params: plain }, taskContext(mcp, ctx, task)))
    return { task: this.#state(task) }
  }

  #ttl(asked: unknown): number {
    if (asked === null || typeof asked !== 'object' || Array.isArray(asked))
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid task field: expected an object like { ttl: 60000 }, got ${JSON.stringify(asked)}`, {
        code: 'INVALID_ARGUMENT',
      })
    const ttl = (asked as { ttl?: unknown }).ttl
    if (ttl === undefined || ttl === null) return this.#defaultTtl
    if (typeof ttl !== 'number' || !Number.isFinite(ttl) || ttl <= 0)
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid task.ttl: expected a positive number of milliseconds, got ${JSON.stringify(ttl)}`, {
        code: 'INVALID_ARGUMENT',
      })
    // The server may shorten what is asked (the spec lets it); the answer says what was granted.
    return Math.min(Math.ceil(ttl), this.#maxTtl)
  }

  #create(caller: string, ttl: number, tool: string): TaskRecord {
    const now = Date.now()
    let finish!: () => void
    const finished = new Promise<void>((resolve) => {
      finish = resolve
    })
    const task: TaskRecord = {
      id: randomUUID(),
      status: 'working',
      statusMessage: `Running ${tool}`,
      createdAt: now,
      lastUpdatedAt: now,
      ttl,
      expiresAt: now + ttl,
      controller: new AbortController(),
      asking: 0,
      finished,
      finish,
    }
    if (!this.#tasks.set(task.id, task, caller)) {
      const mine = this.#tasks.sizeOf(caller)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidRequest,
        mine > 0 && [...this.#tasks.entriesOf(caller)].every(([, t]) => !TERMINAL.has(t.status))
          ? `Too many running tasks: this caller has ${mine} still working; wait for one to finish or cancel one (tasks/cancel)`
          : 'Too many running tasks on this server right now; try again shortly',
        { code: 'LIMIT_REACHED', running: mine },
      )
    }
    task.expiry = setTimeout(() => this.#drop(task), ttl)
    task.expiry.unref()
    return task
  }

  async #run(task: TaskRecord, call: () => Promise<Record<string, unknown>>): Promise<void> {
    let outcome: Outcome
    try {
      const result = await call()
      if (isInputRequiredResult(result))
        outcome = {
          error: new ProtocolError(
            ProtocolErrorCode.InternalError,
            'The tool asked the client for input, which a task cannot do here; call it without the task field',
          ),
        }
      else outcome = { result }
    } catch (err) {
      outcome = {
        error: err instanceof ProtocolError ? err : new ProtocolError(ProtocolErrorCode.InternalError, err instanceof Error ? err.message : String(err)),
      }
    }
    // Cancelled (or dropped) first: it stays so, whatever the tool did after.
    if (TERMINAL.has(task.status)) return
    task.outcome = outcome
    if ('error' in outcome) this.#end(task, 'failed', outcome.error.message)
    else if (outcome.result.isError === true) this.#end(task, 'failed', `The tool reported an error: ${firstText(outcome.result) ?? 'no message'}`)
    else this.#end(task, 'completed', 'Done')
  }

  #end(task: TaskRecord, status: Status, message: string): void {
    if (TERMINAL.has(task.status)) return
    task.status = status
    task.statusMessage = message
    task.lastUpdatedAt = Date.now()
    if (status === 'cancelled') task.controller.abort(new DuetError('ABORTED', `Task ${task.id} was cancelled: ${message}`, { taskId: task.id }))
    task.finish()
  }

  /** The caller's task; an unknown id, an expired task and another caller's task get the very same error. */
  #find(ctx: ServerContext, taskId: string): TaskRecord {
    const task = this.#tasks.peek(taskId)
    if (task && this.#tasks.groupOf(taskId) === callerOf(ctx)) {
      if (task.expiresAt > Date.now()) return task
      this.#drop(task)
    }
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Failed to retrieve task: no task '${taskId}' (unknown, expired, or not yours)`, {
      code: 'NOT_FOUND',
      kind: 'task',
      name: taskId,
    })
  }

  #state(task: TaskRecord): TaskState {
    return {
      taskId: task.id,
      status: task.status,
      ...(task.statusMessage !== undefined && { statusMessage: task.statusMessage }),
      createdAt: new Date(task.createdAt).toISOString(),
      lastUpdatedAt: new Date(task.lastUpdatedAt).toISOString(),
      ttl: task.ttl,
      pollInterval: this.#pollInterval,
    }
  }

  /** What the call itself would have answered, once the task is done (waiting for it while it runs). */
  async #result(task: TaskRecord, signal: AbortSignal): Promise<Record<string, unknown>> {
    if (!TERMINAL.has(task.status)) {
      await new Promise<void>((resolve, reject) => {
        const stop = () => reject(new ProtocolError(ProtocolErrorCode.InternalError, 'tasks/result was cancelled before the task finished'))
        if (signal.aborted) return stop()
        signal.addEventListener('abort', stop, { once: true })
        void task.finished.then(() => {
          signal.removeEventListener('abort', stop)
          resolve()
        })
      })
    }
    const outcome = task.outcome
    if (task.status === 'cancelled' || !outcome)
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Task '${task.id}' was cancelled: it has no result (${task.statusMessage ?? 'cancelled'})`, {
        code: 'ABORTED',
        taskId: task.id,
      })
    if ('error' in outcome) throw outcome.error
    const meta = (outcome.result._meta as Record<string, unknown> | undefined) ?? {}
    return { ...outcome.result, _meta: { ...meta, [RELATED_TASK]: { taskId: task.id } } }
  }

  #cancel(task: TaskRecord): TaskState {
    if (TERMINAL.has(task.status))
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Cannot cancel task '${task.id}': it is already ${task.status}`, {
        code: 'INVALID_ARGUMENT',
        status: task.status,
      })
    this.#end(task, 'cancelled', 'Cancelled by request (tasks/cancel)')
    return this.#state(task)
  }

  #list(caller: string, cursor: string | undefined): { tasks: TaskState[]; nextCursor?: string } {
    const mine = [...this.#tasks.entriesOf(caller)].map(([, task]) => task).sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1))
    let start = 0
    if (cursor !== undefined) {
      start = mine.findIndex((task) => task.id === cursor) + 1
      if (start === 0)
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid cursor for tasks/list: start again without one', { code: 'INVALID_ARGUMENT' })
    }
    const page = mine.slice(start, start + PAGE)
    const next = start + PAGE < mine.length ? page.at(-1)?.id : undefined
    return { tasks: page.map((task) => this.#state(task)), ...(next !== undefined && { nextCursor: next }) }
  }

  /** Forgets a task; one still running is aborted, since nobody can ask for its result any more. */
  #drop(task: TaskRecord): void {
    clearTimeout(task.expiry)
    this.#end(task, 'cancelled', 'Its TTL ran out')
    if (this.#tasks.peek(task.id) === task) this.#tasks.delete(task.id)
  }
}

/**
 * What the tool of a task sees instead of the creating request's context, which ends as the task is created:
 * the task's signal (tasks/cancel, TTL, shutdown), and messages marked with the task they belong to.
 */
function taskContext(mcp: McpServer, ctx: ServerContext, task: TaskRecord): ServerContext {
  const related = { [RELATED_TASK]: { taskId: task.id } }
  const mark = <P extends { _meta?: Record<string, unknown> }>(params: P): P => ({ ...params, _meta: { ...params._meta, ...related } })
  // While the client is asked something, tasks/get says `input_required` (and `working` again once answered).
  const asking = async <R>(ask: () => Promise<R>): Promise<R> => {
    if (++task.asking === 1 && task.status === 'working') setStatus(task, 'input_required')
    try {
      return await ask()
    } finally {
      if (--task.asking === 0 && task.status === 'input_required') setStatus(task, 'working')
    }
  }
  return {
    ...ctx,
    mcpReq: {
      ...ctx.mcpReq,
      signal: task.controller.signal,
      // The creating request's stream is gone: notifications (progress) go out on the session instead. They are
      // fire-and-forget, so one with nowhere to go (no session: the stateless default) is dropped, never failing the tool.
      notify: (notification) => mcp.server.notification({ ...notification, params: mark(notification.params ?? {}) }).catch(() => undefined),
      elicitInput: (params, options) => asking(() => ctx.mcpReq.elicitInput(mark(params), options)),
      requestSampling: (params, options) => asking(() => ctx.mcpReq.requestSampling(mark(params), options)),
    },
  }
}

function setStatus(task: TaskRecord, status: Status): void {
  task.status = status
  task.lastUpdatedAt = Date.now()
}

/** Whether a request is served on the 2026-07-28 era (its envelope says so, or the instance is bound to it). */
function isModern(mcp: McpServer, ctx: ServerContext): boolean {
  if ((ctx.mcpReq as { envelope?: unknown }).envelope !== undefined) return true
  const version = mcp.server.getNegotiatedProtocolVersion()
  return version !== undefined && version >= '2026-07-28'
}

function firstText(result: Record<string, unknown>): string | undefined {
  const content = result.content
  if (!Array.isArray(content)) return undefined
  const text = content.find((item): item is { type: 'text'; text: string } => item?.type === 'text' && typeof item.text === 'string')
  return text?.text
}

/** Checks the `tasks` option of `createAppServer` (at startup, even before a task tool exists) and fills in the defaults. */
export function resolveTaskOptions(options: TaskOptions | undefined): Required<TaskOptions> {
  if (options !== undefined && (options === null || typeof options !== 'object')) invalidOption('createAppServer', 'tasks', 'must be an object of limits')
  const { maxTasks = 1000, maxTasksPerSubject = 20, defaultTtlMs = 600_000, maxTtlMs = 3_600_000, pollIntervalMs = 1000 } = options ?? {}
  const resolved = { maxTasks, maxTasksPerSubject, defaultTtlMs, maxTtlMs, pollIntervalMs }
  for (const [name, value] of Object.entries(resolved))
    if (!Number.isSafeInteger(value) || value < 1) invalidOption('createAppServer', `tasks.${name}`, `must be an integer >= 1, got ${JSON.stringify(value)}`)
  // A TTL is kept by a timer, and Node's timers reach 2^31 - 1 ms (about 24.8 days).
  if (maxTtlMs > 2 ** 31 - 1) invalidOption('createAppServer', 'tasks.maxTtlMs', `must be at most ${2 ** 31 - 1} ms, got ${maxTtlMs}`)
  if (defaultTtlMs > maxTtlMs) invalidOption('createAppServer', 'tasks.defaultTtlMs', `must not exceed tasks.maxTtlMs (${maxTtlMs})`)
  return resolved
}

/** Checks a tool's `task` option. */
export function checkTaskSupport(where: string, value: unknown): TaskSupport | undefined {
  if (value === undefined) return undefined
  if (value !== 'optional' && value !== 'required') invalidOption(where, 'task', `must be 'optional' or 'required', got ${JSON.stringify(value)}`)
  return value
}
