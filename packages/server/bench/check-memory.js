// Peak memory of `duet check` (the whole process tree: node, the stdio server it spawns, Chromium)
// on a 200 MB view over stdio, which it must refuse as it streams in, against the anchor measured in
// the same run: the same check on a normal view (the forecast card), which goes through Chromium.
// `npm run bench:check`; also runs alone after `npm run build`: node packages/server/bench/check-memory.js
import { spawn } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const BIN = fileURLToPath(new URL('../../cli/bin/duet.js', import.meta.url))
const HOSTILE = fileURLToPath(new URL('../test/check/fixtures/hostile-server.mjs', import.meta.url))
const NORMAL_VIEW = fileURLToPath(new URL('../../../examples/forecast/dist/index.html', import.meta.url))
const HUGE_BYTES = 200_000_000
// The bound: refusing a 200 MB view costs at most this much in the whole tree (its cap is 5 MiB).
const BOUND_MB = 300

// Sum of VmRSS over `root` and every process below it, from /proc.
function treeRss(root) {
  const parents = new Map()
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8')
      parents.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]))
    } catch {}
  }
  const tree = new Set([root])
  let grew = true
  while (grew) {
    grew = false
    for (const [pid, ppid] of parents)
      if (tree.has(ppid) && !tree.has(pid)) {
        tree.add(pid)
        grew = true
      }
  }
  let kb = 0
  for (const pid of tree) {
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
      kb += m ? Number(m[1]) : 0
    } catch {}
  }
  return kb / 1024
}

function measure(args) {
  return new Promise((resolve) => {
    const started = Date.now()
    const child = spawn(process.execPath, [BIN, 'check', '--timeout', '90', ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    child.stdout.on('data', (c) => {
      out += c
    })
    child.stderr.on('data', (c) => {
      out += c
    })
    let peak = 0
    const timer = setInterval(() => {
      peak = Math.max(peak, treeRss(child.pid))
    }, 25)
    child.on('close', (code) => {
      clearInterval(timer)
      resolve({ code, peak, ms: Date.now() - started, last: out.trim().split('\n').at(-1) })
    })
  })
}

const stdio = (extra) => ['--stdio', `node ${HOSTILE} ${extra}`, '--tool', 'show']
const normal = await measure(stdio(`--mode ok --view-file ${NORMAL_VIEW}`))
const huge = await measure(stdio(`--mode huge --view-bytes ${HUGE_BYTES}`))
const mb = (n) => `${Math.round(n)} MB`
console.log(`duet check, normal view (forecast card, through Chromium): peak RSS ${mb(normal.peak)} (process tree), exit ${normal.code}, ${normal.ms} ms`)
console.log(`duet check, 200 MB view over stdio: peak RSS ${mb(huge.peak)} (process tree), exit ${huge.code}, ${huge.ms} ms: ${huge.last}`)
const met = huge.code === 1 && huge.peak <= BOUND_MB
console.log(
  `goal: the 200 MB view refused with exit 1 in at most ${BOUND_MB} MB peak RSS (anchor, a normal view: ${mb(normal.peak)}): ${met ? 'met' : 'NOT met'}`,
)
