// CPU time of a process tree, sampled from Linux's /proc: a bench started under load shows where the
// machine's cores went (the server's own thread, its compile workers and their esbuild, the bench itself,
// and everything else on the machine) per phase. Processes that come and go between samples (a compile
// worker killed at its memory limit) are counted up to their last sample.
import { readdirSync, readFileSync } from 'node:fs'

const TICK_MS = 10 // USER_HZ is 100 on Linux
const read = (path) => {
  try {
    return readFileSync(path, 'utf8')
  } catch {
    return undefined
  }
}
/** utime + stime of a process in ms, or undefined once it is gone. */
function cpuMs(pid) {
  const stat = read(`/proc/${pid}/stat`)
  if (!stat) return undefined
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS
}
function children(pid) {
  const found = []
  let tasks = []
  try {
    tasks = readdirSync(`/proc/${pid}/task`)
  } catch {}
  for (const t of tasks) for (const w of (read(`/proc/${pid}/task/${t}/children`) ?? '').split(' ')) if (w) found.push(Number(w))
  return found
}
function descendants(pid) {
  const seen = []
  const todo = children(pid)
  while (todo.length) {
    const p = todo.shift()
    if (!seen.includes(p)) {
      seen.push(p)
      todo.push(...children(p))
    }
  }
  return seen
}
/** Busy and total ms of all CPUs together, from /proc/stat. */
function machine() {
  const line = (read('/proc/stat') ?? '').split('\n')[0].trim().split(/\s+/).slice(1).map(Number)
  const total = line.reduce((a, b) => a + b, 0) * TICK_MS
  const idle = ((line[3] ?? 0) + (line[4] ?? 0)) * TICK_MS
  return { busy: total - idle, total }
}

/**
 * Samples every `everyMs` until `stop()`: the CPU ms of `serverPid` itself, of everything under it, of
 * `benchPid` (this process, both threads), and the machine's busy ms, per named phase (`phase(name)` starts one).
 */
export function sampleCpu(serverPid, { everyMs = 50, benchPid = process.pid, others = [] } = {}) {
  const phases = {}
  let current
  const seen = new Map() // pid -> last cpu ms
  let last = { server: cpuMs(serverPid) ?? 0, bench: cpuMs(benchPid) ?? 0, others: others.map((p) => cpuMs(p) ?? 0), machine: machine(), at: performance.now() }
  for (const p of descendants(serverPid)) seen.set(p, cpuMs(p) ?? 0)
  const sample = () => {
    const now = {
      server: cpuMs(serverPid) ?? last.server,
      bench: cpuMs(benchPid) ?? last.bench,
      others: others.map((p, i) => cpuMs(p) ?? last.others[i]),
      machine: machine(),
      at: performance.now(),
    }
    let workers = 0
    let spawned = 0
    for (const p of descendants(serverPid)) {
      const ms = cpuMs(p)
      if (ms === undefined) continue
      if (!seen.has(p) && children(serverPid).includes(p)) spawned++
      workers += ms - (seen.get(p) ?? 0)
      seen.set(p, ms)
    }
    if (current) {
      const acc = (phases[current] ??= { wallMs: 0, server: 0, workers: 0, spawned: 0, bench: 0, others: 0, machineBusy: 0, machineTotal: 0 })
      acc.wallMs += now.at - last.at
      acc.server += now.server - last.server
      acc.workers += workers
      acc.spawned += spawned
      acc.bench += now.bench - last.bench
      acc.others += now.others.reduce((a, b, i) => a + b - last.others[i], 0)
      acc.machineBusy += now.machine.busy - last.machine.busy
      acc.machineTotal += now.machine.total - last.machine.total
    }
    last = now
  }
  const timer = setInterval(sample, everyMs)
  return {
    phase(name) {
      sample()
      current = name
    },
    stop() {
      sample()
      clearInterval(timer)
      return phases
    },
  }
}
