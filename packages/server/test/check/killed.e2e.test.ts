// duet check ended from outside mid-run (CI cancelling a job, a developer's Ctrl-C in another shell, the
// OOM killer): during the browser step, nothing it started may outlive it, and SIGTERM ends it promptly.
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isRunning, killAll, processTree } from '../../src/apps/process-tree.js'
import { rawView } from './fixtures/raw-view.js'
import { marked } from './leftovers.js'
import { HOSTILE } from './fixtures/hostile-http.js'

const BIN = fileURLToPath(new URL('../../../cli/bin/duet.js', import.meta.url))
// How long what the run started may take to go once it is killed, and SIGTERM to end the run itself.
const GONE_MS = 15_000
const PROMPT_MS = 5_000

let dir: string
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'duet-check-killed-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const commandLine = (pid: number): string => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'latin1')
  } catch {
    return ''
  }
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

async function until<T>(what: string, ms: number, probe: () => T | undefined): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    const v = probe()
    if (v !== undefined) return v
    if (Date.now() > deadline) throw new Error(`waited ${ms} ms for ${what}`)
    await sleep(100)
  }
}

/**
 * Starts `duet check` on a stdio server that outlives its stdin (so only duet check can end it) serving
 * a view that spins after `initialized` (so the browser step lasts), with `marker` in the server's
 * command line and in the environment Chromium inherits; resolves once a Chromium renderer runs under it.
 */
async function startMidBrowser(marker: string): Promise<{ child: ChildProcess; tree: number[]; exited: Promise<number> }> {
  const viewFile = join(dir, `${marker}.html`)
  writeFileSync(viewFile, rawView('spin-after-initialized'))
  const child = spawn(
    process.execPath,
    [BIN, 'check', '--stdio', `node ${HOSTILE} --mode ok --linger --view-file ${viewFile}`, '--tool', 'show', '--timeout', '90', '--step-timeout', '60'],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, DUET_LEAK_MARKER: marker } },
  )
  child.stdout?.resume()
  child.stderr?.resume()
  const exited = new Promise<number>((resolve) => child.once('exit', () => resolve(Date.now())))
  const tree = await until('a Chromium renderer under duet check', 60_000, () => {
    const pids = processTree(child.pid!)
    const commands = pids.map(commandLine)
    return commands.some((c) => c.includes('--type=renderer')) && commands.some((c) => c.includes(marker)) ? pids : undefined
  })
  return { child, tree, exited }
}

describe('duet check killed during the browser step', { timeout: 120_000 }, () => {
  for (const signal of ['SIGKILL', 'SIGTERM'] as const) {
    it(`leaves no Chromium, sandbox server or spawned server behind after ${signal}${signal === 'SIGTERM' ? ', and exits promptly' : ''}`, async () => {
      const marker = `duet-leak-${signal}-${process.pid}-${Date.now()}`
      const { child, tree, exited } = await startMidBrowser(marker)
      try {
        const sent = Date.now()
        child.kill(signal)
        const exitedAt = await exited
        if (signal === 'SIGTERM') expect(exitedAt - sent).toBeLessThan(PROMPT_MS)
        // Every process that ran under it (Chromium, its helpers, the server), and any other that carries the marker.
        const left = () => [
          ...tree.filter((pid) => pid !== child.pid && isRunning(pid)).map((pid) => `${pid} ${commandLine(pid).slice(0, 120)}`),
          ...marked(marker).map((p) => `${p.pid} ${p.command.slice(0, 120)}`),
        ]
        await until('what the run started to go', GONE_MS, () => (left().length === 0 ? true : undefined)).catch(() => undefined)
        expect(left()).toEqual([])
      } finally {
        killAll([...tree, ...marked(marker).map((p) => p.pid)])
      }
    })
  }

  it('leaves nothing behind after a run that ends by itself, its reaper included', async () => {
    const marker = `duet-leak-normal-${process.pid}-${Date.now()}`
    const viewFile = join(dir, `${marker}.html`)
    writeFileSync(viewFile, rawView())
    const child = spawn(process.execPath, [BIN, 'check', '--stdio', `node ${HOSTILE} --mode ok --linger --view-file ${viewFile}`, '--tool', 'show'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, DUET_LEAK_MARKER: marker },
    })
    let stdout = ''
    child.stdout?.on('data', (c) => {
      stdout += c
    })
    child.stderr?.resume()
    const status = await new Promise<number | null>((resolve) => child.once('exit', resolve))
    try {
      expect(stdout).toMatch(/PASS/)
      expect(status).toBe(0)
      await until('what the run started to go', GONE_MS, () => (marked(marker).length === 0 ? true : undefined)).catch(() => undefined)
      expect(marked(marker).map((p) => `${p.pid} ${p.command.slice(0, 120)}`)).toEqual([])
    } finally {
      killAll(marked(marker).map((p) => p.pid))
    }
  })
})
