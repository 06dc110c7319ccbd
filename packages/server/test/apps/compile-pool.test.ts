// The compile pool with real workers (node + esbuild's service): hostile compiles bounded by the hard
// memory limit and the deadline, the pool's size never exceeded, the line bounded (BUSY) and shared
// fairly between subjects, workers replaced after a crash and recycled, nothing left after close.
import { readdirSync, readFileSync } from 'node:fs'
import { getPriority } from 'node:os'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { DuetError } from 'duetkit/protocol'
import { compileIn } from '../../src/apps/compile-component.js'
import { createCompilePool, type CompilePool, type CompilePoolOptions } from '../../src/apps/compile-pool.js'

// esbuild folds a chain of string literals keeping every partial string: gigabytes from 260 KB.
const BALLOON = `const x = ${'"xxxxxxxxxx"+'.repeat(20_000)}"x"\nexport default () => <p>{x}</p>\n`
// 100,000 nested elements: esbuild needs ~20 s for them (and more memory than any limit here).
const LOOP = `export default () => ${'<b>'.repeat(100_000)}x${'</b>'.repeat(100_000)}\n`
const benign = (i: number | string) => `export default () => <p>${i}</p>\n`

const pools: CompilePool[] = []
function pool(options: CompilePoolOptions): CompilePool {
  const made = createCompilePool(options)
  pools.push(made)
  return made
}
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()))
})

/** The compiler workers this test process runs now, read from /proc (not from the pool). */
function workerPids(): number[] {
  const pids: number[] = []
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      if (fields[0] === 'Z' || Number(fields[1]) !== process.pid) continue
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8').includes('duet-compile-worker')) pids.push(Number(name))
    } catch {
      // Gone while listed.
    }
  }
  return pids
}

/** Every process of the system whose parent is one of `parents` (esbuild's service under a worker). */
function childrenOf(parents: number[]): number[] {
  const found: number[] = []
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      if (fields[0] !== 'Z' && parents.includes(Number(fields[1]))) found.push(Number(name))
    } catch {
      // Gone while listed.
    }
  }
  return found
}

const running = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z'
  } catch {
    return false
  }
}

async function failureOf(promise: Promise<unknown>): Promise<DuetError> {
  try {
    await promise
  } catch (err) {
    return err as DuetError
  }
  throw new Error('expected the compile to fail')
}

const until = (check: () => boolean, ms = 10_000) =>
  vi.waitFor(
    () => {
      if (!check()) throw new Error('timed out waiting')
    },
    { timeout: ms, interval: 20 },
  )

describe('compile pool: hostile compiles', () => {
  it("bounds a flood of hostile compiles: each answered COMPILE_ERROR naming its limit, never more workers than the size, another subject's compile served meanwhile", async () => {
    // Every one of the eight runs (no cool-down: that is tested below), to show each is bounded.
    const compiler = pool({ workers: 2, compileLimits: { maxMemoryMb: 200, timeoutMs: 5000 }, coolDownAfter: 100 })
    let most = 0
    const sampler = setInterval(() => {
      most = Math.max(most, workerPids().length)
    }, 25)
    try {
      const flood = Array.from({ length: 8 }, (_, i) => failureOf(compileIn(compiler, `${i % 2 ? BALLOON : LOOP}// ${i}\n`, 'mallory')))
      const finished: string[] = []
      for (const [i, f] of flood.entries()) f.then(() => finished.push(`mallory ${i}`))
      // Alice comes once the flood is running.
      await until(() => compiler.stats().running > 0)
      const victim = compileIn(compiler, benign('mine'), 'alice').then((r) => {
        finished.push('alice')
        return r
      })
      await expect(victim).resolves.toMatchObject({ script: expect.stringContaining('__duetMount') })
      const errors = await Promise.all(flood)
      for (const err of errors) {
        expect(err.code).toBe('COMPILE_ERROR')
        expect(['memory', 'time']).toContain(err.data!.limit)
        expect(err.message).toMatch(/more than its limit of 200 MB of memory|took longer than its limit of 5000 ms/)
      }
      // The balloons hit memory (they pass 200 MB in well under a second; the time limit leaves room for a loaded machine).
      expect(errors.filter((_, i) => i % 2 === 1).every((e) => e.data!.limit === 'memory')).toBe(true)
      // Alice waited for at most the compile running on the worker she was not given, not for the flood.
      expect(finished.indexOf('alice')).toBeLessThan(4)
      expect(compiler.stats().replaced).toBe(8)
    } finally {
      clearInterval(sampler)
    }
    expect(most).toBeGreaterThan(0)
    expect(most).toBeLessThanOrEqual(2)
  }, 120_000)

  it('kills the whole worker tree at the memory limit, esbuild included, and compiles the next module on a fresh worker', async () => {
    const compiler = pool({ workers: 1, compileLimits: { maxMemoryMb: 150 } })
    await compileIn(compiler, benign(1), 'a')
    const [worker] = compiler.stats().pids
    const tree = [worker!, ...childrenOf([worker!])]
    expect(tree.length).toBeGreaterThan(1)
    const err = await failureOf(compileIn(compiler, BALLOON, 'a'))
    expect(err).toMatchObject({ code: 'COMPILE_ERROR', data: { limit: 'memory', maxMemoryMb: 150 } })
    await until(() => !tree.some(running))
    await expect(compileIn(compiler, benign(2), 'a')).resolves.toMatchObject({ script: expect.stringContaining('__duetMount') })
    expect(compiler.stats().pids).not.toContain(worker)
  }, 60_000)
})

describe('compile pool: cool-down', () => {
  it('cools down a subject whose compiles keep hitting a limit: BUSY at once (its waiting compiles too), no worker restarted for it, another subject served', async () => {
    const compiler = pool({ workers: 1, compileLimits: { maxMemoryMb: 150 }, coolDownAfter: 2, coolDownSeconds: 3 })
    await compileIn(compiler, benign('warm'), 'alice')
    // Two balloons, then two benign compiles of hers waiting behind them, then alice's.
    const balloons = [failureOf(compileIn(compiler, BALLOON, 'mallory')), failureOf(compileIn(compiler, `${BALLOON}// 2\n`, 'mallory'))]
    const waiting = [failureOf(compileIn(compiler, benign('m1'), 'mallory')), failureOf(compileIn(compiler, benign('m2'), 'mallory'))]
    const alice = compileIn(compiler, benign('alice'), 'alice')
    for (const err of await Promise.all(balloons)) expect(err).toMatchObject({ code: 'COMPILE_ERROR', data: { limit: 'memory' } })
    for (const err of await Promise.all(waiting)) {
      expect(err).toMatchObject({ code: 'BUSY', data: { queue: 'cool-down', coolDownAfter: 2, coolDownSeconds: 3 } })
      expect(err.data!.retryAfterSeconds).toBeGreaterThanOrEqual(1)
      expect(err.data!.retryAfterSeconds).toBeLessThanOrEqual(3)
      expect(err.message).toMatch(/paused for 3 s.*retry in \d+ s/)
    }
    await expect(alice).resolves.toMatchObject({ script: expect.stringContaining('__duetMount') })
    expect(compiler.stats()).toMatchObject({ replaced: 2, coolingDown: 1 })
    // While cooled down, another balloon of hers is answered at once and costs no worker.
    const again = await failureOf(compileIn(compiler, `${BALLOON}// 3\n`, 'mallory'))
    expect(again).toMatchObject({ code: 'BUSY', data: { queue: 'cool-down' } })
    expect(compiler.stats().replaced).toBe(2)
    // Answered before its source is looked at: even one past the size limit is BUSY, not a size error.
    expect(await failureOf(compileIn(compiler, 'x'.repeat(2 * 1024 * 1024), 'mallory'))).toMatchObject({ code: 'BUSY', data: { queue: 'cool-down' } })
    expect(compiler.coolingDown('mallory')).toMatchObject({ code: 'BUSY' })
    expect(compiler.coolingDown('alice')).toBeUndefined()
    // Once it is over, her compiles run again.
    await until(() => compiler.stats().coolingDown === 0, 10_000)
    await expect(compileIn(compiler, benign('m3'), 'mallory')).resolves.toMatchObject({ script: expect.stringContaining('__duetMount') })
  }, 60_000)

  it('forgets limit hits older than the window: one hit now and then never cools a subject down', async () => {
    const compiler = pool({ workers: 1, compileLimits: { maxMemoryMb: 150 }, coolDownAfter: 2, coolDownSeconds: 1 })
    expect(await failureOf(compileIn(compiler, BALLOON, 'mallory'))).toMatchObject({ data: { limit: 'memory' } })
    await new Promise((r) => setTimeout(r, 1100))
    expect(await failureOf(compileIn(compiler, `${BALLOON}// 2\n`, 'mallory'))).toMatchObject({ data: { limit: 'memory' } })
    expect(compiler.stats().coolingDown).toBe(0)
    await expect(compileIn(compiler, benign('m'), 'mallory')).resolves.toBeTruthy()
  }, 60_000)
})

describe('compile pool: the line', () => {
  it('answers BUSY with retryAfterSeconds past the per-subject and the total bound, harming nothing queued or running', async () => {
    const compiler = pool({ workers: 1, maxQueued: 3, maxQueuedPerSubject: 2, compileLimits: { timeoutMs: 1500 } })
    // The one worker is busy with a slow compile; two more of mallory's wait.
    const slow = failureOf(compileIn(compiler, LOOP, 'mallory'))
    await until(() => compiler.stats().running === 1)
    const waiting = [compileIn(compiler, benign('m1'), 'mallory'), compileIn(compiler, benign('m2'), 'mallory')]
    const own = await failureOf(compileIn(compiler, benign('m3'), 'mallory'))
    expect(own).toMatchObject({ code: 'BUSY', data: { queue: 'subject', limit: 2 } })
    expect(own.data!.retryAfterSeconds).toBeGreaterThanOrEqual(1)
    // Alice is under her own bound: she waits in the line, which is then full for everyone.
    const alice = compileIn(compiler, benign('a1'), 'alice')
    const all = await failureOf(compileIn(compiler, benign('b1'), 'bob'))
    expect(all).toMatchObject({ code: 'BUSY', data: { queue: 'all', limit: 3 } })
    expect(all.data!.retryAfterSeconds).toBeGreaterThanOrEqual(1)
    expect(all.message).toMatch(/Retry in \d+ s/)
    // Nothing admitted was harmed.
    expect((await slow).data!.limit).toMatch(/time|memory/)
    await expect(Promise.all([...waiting, alice])).resolves.toHaveLength(3)
    // And the line takes compiles again once it drained.
    await expect(compileIn(compiler, benign('b2'), 'bob')).resolves.toBeTruthy()
  }, 60_000)

  it("serves subjects in turn: alice's one compile does not wait behind mallory's fifty", async () => {
    const compiler = pool({ workers: 2, maxQueued: 100, maxQueuedPerSubject: 60 })
    // Both workers warm: each has compiled once (a subject holds at most one of the two).
    await Promise.all([compileIn(compiler, benign('w1'), 'w1'), compileIn(compiler, benign('w2'), 'w2')])
    expect(compiler.stats().ready).toBe(2)
    // Mallory's compiles take a while each (a few thousand nested elements); alice's is tiny.
    const heavy = (i: number) => `export default () => ${'<b>'.repeat(3000)}${i}${'</b>'.repeat(3000)}\n`
    const order: string[] = []
    const mallory = Array.from({ length: 50 }, (_, i) => compileIn(compiler, heavy(i), 'mallory').then(() => order.push(`m${i}`)))
    const alice = compileIn(compiler, benign('alice'), 'alice').then(() => order.push('alice'))
    await Promise.all([...mallory, alice])
    // In a single line (first come, first served) alice would be 51st.
    expect(order.indexOf('alice')).toBeLessThanOrEqual(2)
  }, 60_000)
})

describe('compile pool: workers', () => {
  it('replaces a worker that was killed while idle, and answers a compile whose worker crashed with COMPILE_ERROR crash', async () => {
    const compiler = pool({ workers: 1 })
    await compileIn(compiler, benign(1), 'a')
    const [first] = compiler.stats().pids
    process.kill(first!, 'SIGKILL')
    await until(() => compiler.stats().pids.length === 1 && compiler.stats().pids[0] !== first)
    await expect(compileIn(compiler, benign(2), 'a')).resolves.toBeTruthy()

    const [second] = compiler.stats().pids
    const crashed = failureOf(compileIn(compiler, LOOP, 'a'))
    await until(() => compiler.stats().running === 1)
    process.kill(second!, 'SIGKILL')
    expect(await crashed).toMatchObject({ code: 'COMPILE_ERROR', data: { limit: 'crash' }, message: expect.stringMatching(/signal SIGKILL/) })
    await expect(compileIn(compiler, benign(3), 'a')).resolves.toBeTruthy()
    expect(compiler.stats().pids).not.toContain(second)
  }, 60_000)

  it('recycles a worker after compilesPerWorker compiles', async () => {
    const compiler = pool({ workers: 1, compilesPerWorker: 3 })
    const pids: number[] = []
    for (let i = 0; i < 4; i++) {
      await compileIn(compiler, benign(i), 'a')
      pids.push(...compiler.stats().pids.slice(0, 1))
    }
    expect(compiler.stats()).toMatchObject({ compiles: 4, recycled: 1 })
    expect(new Set(pids.slice(0, 2)).size).toBe(1)
    expect(pids[3]).not.toBe(pids[0])
  }, 60_000)

  it('ends every worker and its esbuild on close, and answers what was waiting DISPOSED', async () => {
    const compiler = pool({ workers: 2 })
    await Promise.all([compileIn(compiler, benign(1), 'a'), compileIn(compiler, benign(2), 'b')])
    const workers = compiler.stats().pids
    const tree = [...workers, ...childrenOf(workers)]
    expect(tree.length).toBeGreaterThanOrEqual(4)
    const pending = failureOf(compileIn(compiler, LOOP, 'a'))
    const queued = failureOf(compileIn(compiler, benign(3), 'a'))
    await compiler.close()
    expect(tree.filter(running)).toEqual([])
    expect(workerPids()).toEqual([])
    expect((await pending).code).toBe('DISPOSED')
    expect((await queued).code).toBe('DISPOSED')
    await expect(compileIn(compiler, benign(4), 'a')).rejects.toMatchObject({ code: 'DISPOSED' })
  }, 60_000)

  it("runs workers and their esbuild at the pool's niceness, below the server's priority", async () => {
    const compiler = pool({ workers: 1, niceness: 7 })
    await compileIn(compiler, benign(1), 'a')
    const [worker] = compiler.stats().pids
    const tree = [worker!, ...childrenOf([worker!])]
    expect(tree.length).toBeGreaterThan(1)
    // Field 19 of /proc/<pid>/stat; a process already nicer than 7 cannot lower its niceness, so it keeps its own.
    const niceOf = (pid: number) => {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16])
    }
    for (const pid of tree) expect(niceOf(pid)).toBe(Math.max(7, getPriority()))
  }, 60_000)

  it('refuses bad options, naming them', () => {
    expect(() => createCompilePool({ niceness: 20 })).toThrow(/option 'niceness' must be an integer from 0 to 19, got 20/)
    expect(() => createCompilePool({ coolDownAfter: 0 })).toThrow(/option 'coolDownAfter' must be an integer from 1/)
    expect(() => createCompilePool({ coolDownSeconds: 1.5 })).toThrow(/option 'coolDownSeconds' must be an integer from 1/)
    expect(() => createCompilePool({ workers: 0 })).toThrow(/option 'workers' must be an integer from 1 to 64, got 0/)
    expect(() => createCompilePool({ maxQueued: 1.5 })).toThrow(/option 'maxQueued'/)
    expect(() => createCompilePool({ workers: 2, maxRunningPerSubject: 3 })).toThrow(/option 'maxRunningPerSubject' must be an integer from 1 to 2/)
    expect(() => createCompilePool({ compileLimits: { maxMemoryMb: 50 } })).toThrow(/compileLimits.maxMemoryMb' must be at least 96/)
    expect(() => createCompilePool({ compileLimits: { nope: 1 } as never })).toThrow(/compileLimits.nope' is not a known limit/)
  })
})
