import { type ChildProcess, spawn } from 'node:child_process'
import type { Socket } from 'node:net'

/** Ends the processes it is told of when this process ends, SIGKILL included (see reaper-process.ts). */
export interface Reaper {
  watch(pid: number): void
  /** The processes were ended here: the reaper exits without killing anything. */
  done(): void
}

/**
 * Starts the reaper process: detached (a signal to this process group leaves it running), holding
 * only its stdin, which ends when this process does. It never keeps this process alive.
 */
export function startReaper(): Reaper {
  let child: ChildProcess | null = null
  try {
    child = spawn(process.execPath, [new URL('./reaper-process.js', import.meta.url).pathname], { stdio: ['pipe', 'ignore', 'ignore'], detached: true })
    child.on('error', () => {
      child = null
    })
    child.unref()
    ;(child.stdin as Socket | null)?.unref()
  } catch {
    // Without /proc or a spawnable Node there is no reaper; the exit handlers still end what they can.
    child = null
  }
  const send = (line: string) => {
    child?.stdin?.write(`${line}\n`)
  }
  return {
    watch: (pid) => send(String(pid)),
    done: () => {
      send('done')
      child?.stdin?.end()
    },
  }
}
