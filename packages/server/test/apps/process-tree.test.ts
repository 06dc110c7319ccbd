// The /proc reading the compile pool's memory watch relies on, against real processes.
import { spawn } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { isRunning, processTree, residentBytes, treeResidentBytes } from '../../src/apps/process-tree.js'

describe('process tree', () => {
  it('lists a process with its children, sums their resident memory, and sees a killed child gone', async () => {
    // Once it prints, the child runs node (at 'spawn' it may not have loaded yet, and holds under 1 MB).
    const child = spawn(process.execPath, ['-e', "console.log('up'); setInterval(() => {}, 1000)"], { stdio: ['ignore', 'pipe', 'ignore'] })
    await new Promise((resolve) => child.stdout!.once('data', resolve))
    const pid = child.pid!
    expect(processTree(process.pid)).toEqual(expect.arrayContaining([process.pid, pid]))
    expect(processTree(process.pid)[0]).toBe(process.pid)
    expect(residentBytes(pid)).toBeGreaterThan(1024 * 1024)
    expect(treeResidentBytes(process.pid)).toBeGreaterThanOrEqual(residentBytes(process.pid) + residentBytes(pid) / 2)
    expect(isRunning(pid)).toBe(true)
    child.kill('SIGKILL')
    await new Promise((resolve) => child.once('exit', resolve))
    expect(isRunning(pid)).toBe(false)
    expect(residentBytes(pid)).toBe(0)
  })

  it('never takes 0, 1 or a negative id for a tree (those would signal groups or every process)', () => {
    expect(processTree(-1)).toEqual([])
    expect(processTree(0)).toEqual([])
    expect(processTree(1)).toEqual([])
  })
})
