// The reaper: a small process `duet check` starts beside itself, so what it spawned (a stdio server,
// Chromium) dies with it even when it is SIGKILLed and no handler of its own runs. It reads
// "<pid>" lines on stdin and, once stdin ends (its parent is gone, however), kills each process
// and its descendants. "done" means the parent ended them itself: exit without killing.
import { readFileSync } from 'node:fs'
import { killAll, processTree } from '../apps/process-tree.js'

// A pid with the start time it had when it was named: a pid the system reused since is left alone.
function startTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]
  } catch {
    return undefined
  }
}

const watched = new Map<number, string | undefined>()
let done = false
let buffer = ''
// Signals sent to the parent's process group (Ctrl-C) must not end the reaper before it has reaped.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => {})
process.stdin.setEncoding('utf8')
process.stdin.on('data', (chunk: string) => {
  buffer += chunk
  const lines = buffer.split('\n')
  buffer = lines.pop() ?? ''
  for (const line of lines) {
    if (line === 'done') done = true
    else if (/^\d+$/.test(line)) watched.set(Number(line), startTime(Number(line)))
  }
})
process.stdin.on('end', () => {
  if (!done)
    for (const [pid, started] of watched) {
      if (startTime(pid) === started) killAll(processTree(pid))
    }
  process.exit(0)
})
