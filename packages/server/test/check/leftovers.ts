import { readdirSync, readFileSync } from 'node:fs'
import { isRunning } from '../../src/apps/process-tree.js'

function read(path: string): string {
  try {
    return readFileSync(path, 'latin1')
  } catch {
    // Gone between the listing and the read, or not ours to read.
    return ''
  }
}

/**
 * Live processes whose command line or environment holds `marker`: what a run left behind, wherever it
 * was reparented after its parent died (Chromium starts in a process group of its own).
 */
export function marked(marker: string): { pid: number; command: string }[] {
  const out: { pid: number; command: string }[] = []
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue
    const command = read(`/proc/${name}/cmdline`).split('\0').join(' ').trim()
    if ((command.includes(marker) || read(`/proc/${name}/environ`).includes(marker)) && isRunning(Number(name))) out.push({ pid: Number(name), command })
  }
  return out
}
