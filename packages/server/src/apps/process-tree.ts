// A process and everything it started, read from Linux's /proc: the compile pool's memory watch sums
// the resident memory of a worker and of esbuild's service process under it, and kills them together.
// Where there is no /proc (macOS, Windows) the tree is the process alone and its memory unknown.
import { existsSync, readdirSync, readFileSync } from 'node:fs'

/** True where /proc can be read, so a tree's memory can be watched. */
export const CAN_READ_PROCESSES = existsSync('/proc/self/status')

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8')
  } catch {
    return undefined
  }
}

/** The direct children of `pid`, over all its threads (a child belongs to the thread that forked it). */
function childrenOf(pid: number): number[] {
  let tasks: string[]
  try {
    tasks = readdirSync(`/proc/${pid}/task`)
  } catch {
    return []
  }
  const children: number[] = []
  for (const task of tasks) {
    for (const word of (read(`/proc/${pid}/task/${task}/children`) ?? '').split(' ')) if (word !== '') children.push(Number(word))
  }
  return children
}

/** `pid` and all its descendants, parents first; only `pid` where /proc cannot be read. */
export function processTree(pid: number): number[] {
  if (pid <= 1) return []
  if (!CAN_READ_PROCESSES) return [pid]
  const seen = [pid]
  for (let i = 0; i < seen.length; i++) for (const child of childrenOf(seen[i]!)) if (!seen.includes(child)) seen.push(child)
  return seen
}

/** The resident memory of one process in bytes (0 once it is gone, or where /proc cannot be read). */
export function residentBytes(pid: number): number {
  const kb = /VmRSS:\s+(\d+)\s+kB/.exec(read(`/proc/${pid}/status`) ?? '')?.[1]
  return kb === undefined ? 0 : Number(kb) * 1024
}

/** The resident memory of `pid` and its descendants together, in bytes. */
export function treeResidentBytes(pid: number): number {
  let sum = 0
  for (const p of processTree(pid)) sum += residentBytes(p)
  return sum
}

/** True while `pid` runs: a process that exited but is not yet reaped (a zombie) counts as gone. */
export function isRunning(pid: number): boolean {
  if (CAN_READ_PROCESSES) {
    const stat = read(`/proc/${pid}/stat`)
    if (stat === undefined) return false
    // The state follows the command name, which is in parentheses and may itself hold spaces.
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z'
  }
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** SIGKILLs every process of `pids` (a tree read before): a process that already exited is skipped. */
export function killAll(pids: readonly number[]): void {
  for (const pid of pids) {
    // 0 and negative ids signal groups (-1: every process we may signal), never meant here.
    if (!Number.isSafeInteger(pid) || pid <= 1) continue
    try {
      process.kill(pid, 'SIGKILL')
    } catch {
      // Already gone.
    }
  }
}
