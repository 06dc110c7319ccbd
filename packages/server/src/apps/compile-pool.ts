// The compile pool: a bounded set of long-lived compiler workers (see compile-worker.ts) and a fair,
// bounded line of compiles waiting for them. A warm worker compiles a component in milliseconds, where
// a fresh process per compile cost 100-300 ms; what makes that safe for untrusted source is that each
// compile is still watched as if it had its own process: a deadline, and a hard limit on the resident
// memory of the worker's whole process tree (Node and esbuild's Go service, whose own memory limit is
// only soft). A compile past either is answered COMPILE_ERROR naming the limit and its worker killed
// and replaced; workers are also replaced after a crash and recycled after a number of compiles, so
// nothing one source did lingers for the next. Past the line's bounds a call is answered BUSY at once.
// Two things keep a hostile user's compiles from eating the CPU others need: workers run at a lower
// scheduling priority than the server (its event loop wins a contended core), and a subject whose
// compiles keep hitting a limit is cooled down: its compiles are answered BUSY for a while instead of
// killing and restarting workers, each restart costing a Node and an esbuild start.
import { spawn, type ChildProcess } from 'node:child_process'
import type { Socket } from 'node:net'
import { availableParallelism } from 'node:os'
import { DuetError } from 'duetkit/protocol'
import { BoundedMap } from '../server/bounded-map.js'
import { invalidOption } from '../server/errors.js'
import { FairQueue, type Refusal } from '../server/fair-queue.js'
import { limitError, resolveCompileLimits, type CompileLimits } from './compile-limits.js'
import { COMPILE_WORKER_MARK, COMPILE_WORKER_PROGRAM, type CompileReply, type CompileRequest, type CompileWorkerMessage } from './compile-worker.js'
import { resolveEsbuild } from './esbuild-peer.js'
import { isRunning, killAll, processTree, residentBytes } from './process-tree.js'

/** Options of {@link createCompilePool}; every one has a default. */
export interface CompilePoolOptions {
  /** Compiler workers at most (default: the CPU count, at least 2 and at most 4). */
  workers?: number
  /** Limits of each compile; `maxMemoryMb` is the hard limit of one worker's process tree (default `DEFAULT_COMPILE_LIMITS`). */
  compileLimits?: Partial<CompileLimits>
  /** Compiles a worker serves before it is replaced by a fresh one (default 200). */
  compilesPerWorker?: number
  /** Compiles waiting for a worker, over all subjects; past it, BUSY (default 64). */
  maxQueued?: number
  /** Compiles one subject may have waiting; past it, BUSY for that subject only (default 8). */
  maxQueuedPerSubject?: number
  /** Workers one subject may hold at once (default: all but one, at least 1), so another subject always finds one soon. */
  maxRunningPerSubject?: number
  /**
   * The workers' niceness (0 to 19; higher yields the CPU sooner), so the server's own requests win a
   * contended core from compiles (default 10). Where it cannot be set, workers run at the server's priority.
   */
  niceness?: number
  /**
   * Compiles of one subject stopped at a limit (memory, time or a crash: each costs a worker restart)
   * within {@link coolDownSeconds} that cool the subject down (default 2).
   */
  coolDownAfter?: number
  /**
   * How long a cooled-down subject's compiles are answered BUSY (its waiting ones too), in seconds; also
   * the window its limit hits are counted in (default 30). Other subjects are not affected.
   */
  coolDownSeconds?: number
}

/** Subjects whose limit hits are remembered, in all (a few hundred bytes each). */
const MAX_STRUCK_SUBJECTS = 10_000

/** What a pool has done, for tests, benches and operators. */
export interface CompilePoolStats {
  /** The configured size: workers at most. */
  size: number
  /** Worker processes running now (busy, idle, starting or being ended). */
  live: number
  /** Of those, the ones whose esbuild is running, ready to compile at once. */
  ready: number
  /** Compiles running now. */
  running: number
  /** Compiles waiting for a worker. */
  queued: number
  /** Compiles the workers answered (compiled or not) since the pool started. */
  compiles: number
  /** Workers ended for a limit (time, memory) or a crash and replaced. */
  replaced: number
  /** Workers ended after `compilesPerWorker` compiles and replaced. */
  recycled: number
  /** Subjects cooled down now (their compiles answered BUSY). */
  coolingDown: number
  /** The process id of every live worker (each has esbuild's service as its child). */
  pids: number[]
}

/** A bounded pool of compiler workers; see {@link createCompilePool}. */
export interface CompilePool {
  /** Workers at most. */
  readonly size: number
  /** The limits every compile of this pool runs within. */
  readonly limits: Readonly<CompileLimits>
  /**
   * Runs one build for `subject` (the user; one string for all anonymous callers) and gives back the
   * worker's answer. Rejects with COMPILE_ERROR for a limit hit or a crash (`data.limit`), BUSY when the
   * line is full (`data.retryAfterSeconds`), DISPOSED once the pool is closed.
   */
  run(subject: string, request: CompileRequest): Promise<CompileReply>
  /** The BUSY error `run` would answer `subject` at once for its cool-down, if it is cooled down now (checked before any work on the source). */
  coolingDown(subject: string): DuetError | undefined
  stats(): CompilePoolStats
  /** Ends every worker (and its esbuild) and answers waiting compiles DISPOSED. Idempotent. */
  close(): Promise<void>
}

/** The default worker count: the CPUs, at least 2 (one slow compile never holds everyone) and at most 4 (bounded memory). */
export function defaultCompileWorkers(): number {
  return Math.min(4, Math.max(2, availableParallelism()))
}

// How often a busy worker's memory is read: growth between two reads is what the limit can overshoot.
const WATCH_MS = 10
// How often the tree under a busy worker is listed again (esbuild's service could be restarted).
const TREE_MS = 250
// What V8 and Go print when a heap is exhausted.
const OUT_OF_MEMORY = /heap out of memory|out of memory|Allocation failed|Last few GCs/i

interface Job {
  subject: string
  request: CompileRequest
  resolve(reply: CompileReply): void
  reject(err: Error): void
}

interface Worker {
  child: ChildProcess
  pid: number
  compiles: number
  /** Its esbuild service runs. */
  ready: boolean
  /** The job it runs, when busy. */
  current?: { job: Job; id: number; started: number; deadline: NodeJS.Timeout; watch: NodeJS.Timeout }
  /** Being ended (a limit, a recycle, the pool closing): takes no more jobs. */
  ending: boolean
  stderr: string
  /** The worker and the processes under it, as last listed (esbuild's service outlives nothing it is not listed in). */
  tree: number[]
  gone: Promise<void>
}

// Every live worker of every pool, so the server's exit (even without close) takes them along.
const liveWorkers = new Set<ChildProcess>()
let exitHookSet = false
function killOnExit(): void {
  if (exitHookSet) return
  exitHookSet = true
  process.once('exit', () => {
    for (const child of liveWorkers) killGroup(child.pid)
  })
}

/** Kills a worker's process group (it leads one: esbuild's service is in it too). */
function killGroup(pid: number | undefined): void {
  // Never 0 or -1 (whose negation signals the caller's group or every process): only a real worker's group.
  if (pid === undefined || pid <= 1) return
  try {
    process.kill(-pid, 'SIGKILL')
  } catch {
    // Already gone.
  }
}

function positive(where: string, name: string, value: unknown, max: number): number {
  if (!Number.isSafeInteger(value) || (value as number) < 1 || (value as number) > max)
    invalidOption(where, name, `must be an integer from 1 to ${max}, got ${String(value)}`)
  return value as number
}

/**
 * Makes a compile pool. Workers start when compiles need them (so a server that never compiles pays
 * nothing) and are replaced as soon as one ends, so the pool stays warm once used.
 */
export function createCompilePool(options: CompilePoolOptions = {}): CompilePool {
  const where = 'createCompilePool'
  if (typeof options !== 'object' || options === null) invalidOption(where, 'options', 'must be an object')
  const limits = resolveCompileLimits(where, options.compileLimits)
  const size = options.workers === undefined ? defaultCompileWorkers() : positive(where, 'workers', options.workers, 64)
  const compilesPerWorker = options.compilesPerWorker === undefined ? 200 : positive(where, 'compilesPerWorker', options.compilesPerWorker, 1_000_000)
  const coolDownAfter = options.coolDownAfter === undefined ? 2 : positive(where, 'coolDownAfter', options.coolDownAfter, 1_000_000)
  const coolDownMs = 1000 * (options.coolDownSeconds === undefined ? 30 : positive(where, 'coolDownSeconds', options.coolDownSeconds, 86_400))
  if (options.niceness !== undefined && (!Number.isInteger(options.niceness) || options.niceness < 0 || options.niceness > 19))
    invalidOption(where, 'niceness', `must be an integer from 0 to 19, got ${String(options.niceness)}`)
  const niceness = options.niceness ?? 10
  // Per subject: the times of its recent limit hits, and until when it is cooled down.
  const strikes = new BoundedMap<string, { hits: number[]; until: number }>({ maxEntries: MAX_STRUCK_SUBJECTS, maxPerGroup: 1 })
  const queue = new FairQueue<Job>({
    maxQueued: options.maxQueued === undefined ? 64 : positive(where, 'maxQueued', options.maxQueued, 1_000_000),
    maxQueuedPerSubject: options.maxQueuedPerSubject === undefined ? 8 : positive(where, 'maxQueuedPerSubject', options.maxQueuedPerSubject, 1_000_000),
    maxRunningPerSubject:
      options.maxRunningPerSubject === undefined ? Math.max(1, size - 1) : positive(where, 'maxRunningPerSubject', options.maxRunningPerSubject, size),
  })
  // Resolved at the first compile: esbuild is an optional peer, and a server that never compiles needs none.
  let esbuildPath: string | undefined
  const limitBytes = limits.maxMemoryMb * 1024 * 1024
  const workers = new Set<Worker>()
  let closed = false
  let nextId = 1
  let compiles = 0
  let replaced = 0
  let recycled = 0
  // A running mean of compile time, for the retry hint of BUSY.
  let meanMs = 250

  function spawnWorker(): Worker {
    const child = spawn(
      process.execPath,
      [`--max-old-space-size=${limits.maxMemoryMb}`, '-e', COMPILE_WORKER_PROGRAM, esbuildPath as string, COMPILE_WORKER_MARK],
      {
        stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
        // Nothing of the server's environment; Go's soft limit and one thread keep esbuild modest before the hard limit.
        env: { PATH: process.env.PATH ?? '', GOMEMLIMIT: `${limits.maxMemoryMb}MiB`, GOMAXPROCS: '1', DUET_COMPILE_NICENESS: String(niceness) },
        serialization: 'advanced',
        // Its own process group, so one signal ends it and esbuild's service together.
        detached: true,
      },
    )
    const worker: Worker = { child, pid: child.pid ?? -1, compiles: 0, ready: false, ending: false, stderr: '', tree: [], gone: Promise.resolve() }
    workers.add(worker)
    liveWorkers.add(child)
    killOnExit()
    child.stderr!.setEncoding('utf8')
    child.stderr!.on('data', (chunk: string) => {
      // Keep only the head: a Go stack overflow prints megabytes of goroutine traces.
      if (worker.stderr.length < 2000) worker.stderr += chunk
    })
    child.on('message', (message: CompileWorkerMessage) => onMessage(worker, message))
    worker.gone = new Promise((resolve) => {
      let exited = false
      const exit = (code: number | null, signal: NodeJS.Signals | null) => {
        if (exited) return
        exited = true
        liveWorkers.delete(child)
        onExit(worker, code, signal).then(resolve, resolve)
      }
      // A process that could not start (no pid) emits only 'error'.
      child.once('error', () => {
        if (child.pid === undefined) exit(null, null)
      })
      child.once('exit', exit)
    })
    idle(worker)
    return worker
  }

  /** An idle worker does not keep the server's process alive; a busy one does. */
  function idle(worker: Worker): void {
    worker.child.unref()
    worker.child.channel?.unref()
    ;(worker.child.stderr as Socket | null)?.unref()
  }
  function busy(worker: Worker): void {
    worker.child.ref()
    worker.child.channel?.ref()
    ;(worker.child.stderr as Socket | null)?.ref()
  }

  /** Ends the job a worker runs, if any, and gives back the job. */
  function release(worker: Worker): Job | undefined {
    const current = worker.current
    if (!current) return undefined
    worker.current = undefined
    // Every end counts, a limit's too: under a flood of slow compiles the retry hint grows with them.
    meanMs = meanMs * 0.8 + (Date.now() - current.started) * 0.2
    clearTimeout(current.deadline)
    clearInterval(current.watch)
    queue.done(current.job.subject)
    idle(worker)
    return current.job
  }

  /** Kills a worker and everything under it; the slot frees once all of it is gone. */
  function end(worker: Worker): void {
    if (worker.ending) return
    worker.ending = true
    // Held until it is gone, so close() resolves even when nothing else keeps the process alive.
    worker.child.ref()
    if (worker.pid <= 1) return
    const tree = [...new Set([...processTree(worker.pid), ...worker.tree])]
    killGroup(worker.pid)
    killAll(tree)
    worker.gone = worker.gone.then(() => waitGone(tree))
  }

  function onMessage(worker: Worker, message: CompileWorkerMessage): void {
    if (!('id' in message)) {
      worker.ready = true
      return
    }
    if (worker.current?.id !== message.id) return
    const job = release(worker)!
    compiles++
    worker.compiles++
    job.resolve(message.reply)
    if (worker.compiles >= compilesPerWorker) {
      recycled++
      end(worker)
    }
    pump()
  }

  async function onExit(worker: Worker, code: number | null, signal: NodeJS.Signals | null): Promise<void> {
    worker.ending = true
    const job = release(worker)
    if (job) {
      // Not ended by the pool: the compile crashed it (or the system killed it).
      replaced++
      const head =
        worker.stderr
          .split('\n')
          .find((l) => l.trim() !== '')
          ?.trim()
          .slice(0, 200) ?? ''
      strike(job.subject)
      if (OUT_OF_MEMORY.test(worker.stderr)) {
        job.reject(
          limitError('memory', `The compile ran out of its ${limits.maxMemoryMb} MB of memory and was stopped. Simplify the module.`, {
            maxMemoryMb: limits.maxMemoryMb,
          }),
        )
      } else {
        const why = signal ? `signal ${signal}` : `exit code ${code}`
        job.reject(
          limitError('crash', `The compiler crashed on this module (${why}${head ? `: ${head}` : ''}). Simplify the module; the server is unaffected.`),
        )
      }
    }
    // esbuild's service exits when its pipe from the worker closes; make sure before freeing the slot.
    const rest = worker.tree.filter((pid) => pid !== worker.pid)
    killAll(rest)
    await waitGone(rest)
    workers.delete(worker)
    if (closed) return
    // Keep the pool warm: a used pool gets its worker back at once. Not one that never got ready (esbuild
    // missing, say): starting it again at once would loop; compiles that wait still start one each.
    if (worker.ready) spawnWorker()
    pump()
  }

  /** Fails the running job of `worker` with `err`, then kills the worker (it may be in any state). */
  function fail(worker: Worker, err: DuetError): void {
    const job = release(worker)
    if (!job) return
    replaced++
    end(worker)
    job.reject(err)
    strike(job.subject)
  }

  /** Until when `subject` is cooled down (0: it is not). */
  function coolingUntil(subject: string): number {
    const until = strikes.peek(subject)?.until ?? 0
    return until > Date.now() ? until : 0
  }

  /** A compile of `subject` cost a worker; enough of them in the window cool the subject down. */
  function strike(subject: string): void {
    const now = Date.now()
    const entry = strikes.get(subject) ?? { hits: [], until: 0 }
    entry.hits = [...entry.hits.filter((t) => t > now - coolDownMs), now].slice(-coolDownAfter)
    const cooled = entry.hits.length >= coolDownAfter
    if (cooled) {
      entry.until = now + coolDownMs
      entry.hits = []
    }
    strikes.set(subject, entry, subject)
    // Its waiting compiles would each cost a worker too: they are answered now.
    if (cooled) for (const job of queue.drainSubject(subject)) job.reject(coolingError(subject))
  }

  function coolingError(subject: string): DuetError {
    const retryAfterSeconds = Math.max(1, Math.ceil((coolingUntil(subject) - Date.now()) / 1000))
    return new DuetError(
      'BUSY',
      `Your last ${coolDownAfter} compiles were stopped at a limit (memory, time or a crash), so your compiles are paused for ${coolDownMs / 1000} s. Simplify the module, then retry in ${retryAfterSeconds} s.`,
      { retryAfterSeconds, queue: 'cool-down', coolDownAfter, coolDownSeconds: coolDownMs / 1000 },
    )
  }

  function dispatch(worker: Worker, job: Job): void {
    const id = nextId++
    const started = Date.now()
    worker.tree = processTree(worker.pid)
    let listed = started
    const deadline = setTimeout(
      () =>
        fail(
          worker,
          limitError('time', `The compile took longer than its limit of ${limits.timeoutMs} ms and was stopped. Simplify the module.`, {
            timeoutMs: limits.timeoutMs,
          }),
        ),
      limits.timeoutMs,
    )
    const watch = setInterval(() => {
      const now = Date.now()
      if (now - listed >= TREE_MS) {
        worker.tree = processTree(worker.pid)
        listed = now
      }
      let bytes = 0
      for (const pid of worker.tree) bytes += residentBytes(pid)
      if (bytes > limitBytes) {
        fail(
          worker,
          limitError(
            'memory',
            `The compile used more than its limit of ${limits.maxMemoryMb} MB of memory (compiler and esbuild together) and was stopped. Simplify the module.`,
            { maxMemoryMb: limits.maxMemoryMb, usedMb: Math.round(bytes / 1024 / 1024) },
          ),
        )
      }
    }, WATCH_MS)
    worker.current = { job, id, started, deadline, watch }
    busy(worker)
    worker.child.send({ id, request: job.request }, (err) => {
      if (err) fail(worker, limitError('crash', `The compiler could not take the module (${err.message}); try again.`))
    })
  }

  /** Starts waiting compiles on free workers, starting workers up to the size as they are needed. */
  function pump(): void {
    while (!closed && queue.size > 0) {
      let worker: Worker | undefined
      for (const w of workers) if (!w.ending && !w.current) worker = w
      if (!worker) {
        if (workers.size >= size) return
        worker = spawnWorker()
      }
      const next = queue.take()
      if (!next) return
      dispatch(worker, next.item)
    }
  }

  function busyError(refusal: Refusal, subject: string): DuetError {
    const own = refusal === 'subject'
    const ahead = own ? queue.waitingOf(subject) : queue.size
    const lanes = own ? queue.limits.maxRunningPerSubject : size
    const retryAfterSeconds = Math.max(1, Math.ceil(((ahead + 1) * meanMs) / lanes / 1000))
    const message = own
      ? `You already have ${ahead} compiles waiting, the most one user may. Retry in ${retryAfterSeconds} s, once they are done.`
      : `The compiler has ${ahead} compiles waiting, the most it takes. Retry in ${retryAfterSeconds} s.`
    return new DuetError('BUSY', message, {
      retryAfterSeconds,
      queue: own ? 'subject' : 'all',
      limit: own ? queue.limits.maxQueuedPerSubject : queue.limits.maxQueued,
    })
  }

  return {
    size,
    limits,
    run(subject, request) {
      if (closed) return Promise.reject(new DuetError('DISPOSED', 'The compile pool is closed (the server is shutting down).'))
      try {
        esbuildPath ??= resolveEsbuild()
      } catch (err) {
        return Promise.reject(err)
      }
      if (coolingUntil(subject) > 0) return Promise.reject(coolingError(subject))
      // The first compile starts the whole pool, so the next ones find warm workers.
      while (workers.size < size) spawnWorker()
      return new Promise<CompileReply>((resolve, reject) => {
        const refusal = queue.push(subject, { subject, request, resolve, reject })
        if (refusal) reject(busyError(refusal, subject))
        else pump()
      })
    },
    coolingDown(subject) {
      return coolingUntil(subject) > 0 ? coolingError(subject) : undefined
    },
    stats() {
      let running = 0
      let ready = 0
      for (const w of workers) {
        if (w.current) running++
        if (w.ready && !w.ending) ready++
      }
      let coolingDown = 0
      for (const [subject] of strikes.entries()) if (coolingUntil(subject) > 0) coolingDown++
      return { size, live: workers.size, ready, running, queued: queue.size, compiles, replaced, recycled, coolingDown, pids: [...workers].map((w) => w.pid) }
    },
    async close() {
      if (closed) {
        await Promise.all([...workers].map((w) => w.gone))
        return
      }
      closed = true
      const disposed = () => new DuetError('DISPOSED', 'The compile pool closed before this compile ran (the server is shutting down).')
      for (const job of queue.drain()) job.reject(disposed())
      for (const worker of workers) {
        release(worker)?.reject(disposed())
        end(worker)
      }
      await Promise.all([...workers].map((w) => w.gone))
    },
  }
}

/** Resolves once none of `pids` runs (each killed already), or after a second at most. */
async function waitGone(pids: readonly number[]): Promise<void> {
  for (let i = 0; i < 100 && pids.some(isRunning); i++) await new Promise((r) => setTimeout(r, 10))
}
