// `duet serve` and its compiler workers: the flags reach the pool, and the workers (with esbuild's
// service under each) end with the server, whether it closes on a signal or is killed outright.
import { spawnSync } from 'node:child_process'
import { readdirSync, readFileSync, rmSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client } from '@modelcontextprotocol/client'
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio'
import { bundle } from '../server/build-fixture.js'
import { tempDir } from '../channel/temp-dir.js'

let bin: string
const data = tempDir('duet-compile-exit-')

beforeAll(async () => {
  bin = await bundle(fileURLToPath(new URL('../../src/cli/bin.ts', import.meta.url)), 'duet-bin-compile-exit')
})
afterAll(() => {
  if (bin) rmSync(bin, { force: true })
  data.remove()
})

/** Parent pid of each live (not zombie) process, read from /proc. */
function parents(): Map<number, number> {
  const map = new Map<number, number>()
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      if (fields[0] !== 'Z') map.set(Number(name), Number(fields[1]))
    } catch {
      // Gone while listed.
    }
  }
  return map
}

/** Every descendant of `pid`. */
function descendants(pid: number): number[] {
  const byParent = parents()
  const found = [pid]
  for (let i = 0; i < found.length; i++) for (const [child, parent] of byParent) if (parent === found[i]) found.push(child)
  return found.slice(1)
}

const alive = (pids: number[]) => {
  const live = parents()
  return pids.filter((pid) => live.has(pid))
}

const cmdline = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8')
  } catch {
    return ''
  }
}

/** What each process is, sorted: a compiler worker, esbuild's service, or its command line. */
const kinds = (pids: number[]) =>
  pids
    .map((p) => {
      const line = cmdline(p)
      return line.includes('duet-compile-worker') ? 'worker' : line.split('\0')[0]!.endsWith('esbuild') ? 'esbuild' : line
    })
    .sort()

/** A `duet serve --stdio` with a compile done: its pid and its compiler processes (workers and their esbuild). */
async function serveAndCompile(): Promise<{ pid: number; compilers: number[]; client: Client }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, 'serve', '--stdio', '--data-dir', data.dir, '--compile-workers', '2', '--compile-memory-mb', '200'],
    stderr: 'ignore',
  })
  const client = new Client({ name: 'exit', version: '1' })
  await client.connect(transport)
  const shown = (await client.callTool({ name: 'display_component', arguments: { source: 'export default () => <p>hi</p>\n' } })) as { isError?: boolean }
  expect(shown.isError).toBeFalsy()
  const pid = transport.pid!
  // The first compile starts the whole pool: two workers, each with esbuild's service once warm. Polled
  // until it settles: a child a worker forks for esbuild shows the worker's command line until it execs,
  // so a single look can see three "workers" (CI did once).
  await expect.poll(() => kinds(descendants(pid)), { timeout: 20_000 }).toEqual(['esbuild', 'esbuild', 'worker', 'worker'])
  return { pid, compilers: descendants(pid), client }
}

describe('duet serve compiler workers', () => {
  it('end when the server is killed outright (SIGKILL), leaving no orphan', async () => {
    const { pid, compilers, client } = await serveAndCompile()
    process.kill(pid, 'SIGKILL')
    await expect.poll(() => alive(compilers), { timeout: 10_000 }).toEqual([])
    await client.close().catch(() => {})
  }, 60_000)

  it('end when the server shuts down on SIGTERM', async () => {
    const { pid, compilers, client } = await serveAndCompile()
    process.kill(pid, 'SIGTERM')
    await expect.poll(() => alive([pid, ...compilers]), { timeout: 10_000 }).toEqual([])
    await client.close().catch(() => {})
  }, 60_000)

  it('refuses a bad --compile-workers or --compile-memory-mb up front, naming it', () => {
    for (const [flag, value, message] of [
      ['--compile-workers', '0', '--compile-workers must be an integer from 1 to 64'],
      ['--compile-workers', 'many', '--compile-workers must be an integer from 1 to 64'],
      ['--compile-memory-mb', '50', '--compile-memory-mb must be an integer of at least 96 (an idle compiler worker holds about 60 MB)'],
    ]) {
      const run = spawnSync(process.execPath, [bin, 'serve', '--stdio', '--data-dir', data.dir, flag!, value!], { encoding: 'utf8', timeout: 20_000 })
      expect(run.status, `${flag} ${value}`).toBe(2)
      expect(run.stderr).toContain(`${message}, got '${value}'`)
    }
  })
})
