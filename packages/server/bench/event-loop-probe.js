// Preloaded into the server a bench starts (NODE_OPTIONS=--import <this file>, DUET_BENCH_PROBE=<path>):
// the server's event-loop delay, so a bench can tell time lost waiting for the loop from time lost elsewhere.
// On SIGUSR2 it writes the delay since the last signal (p50, p99, max in ms) as JSON to the path, then starts over.
// With DUET_BENCH_PROFILE=<dir> it also profiles the server's CPU (node:inspector) and writes each
// stretch between two signals as <dir>/<n>.cpuprofile (--cpu-prof is not allowed in NODE_OPTIONS).
import { writeFileSync } from 'node:fs'
import { Session } from 'node:inspector'
import { join } from 'node:path'
import { monitorEventLoopDelay } from 'node:perf_hooks'

const out = process.env.DUET_BENCH_PROBE
const profileDir = process.env.DUET_BENCH_PROFILE
if (out) {
  const delay = monitorEventLoopDelay({ resolution: 5 })
  delay.enable()
  let session
  let stretch = 0
  if (profileDir) {
    session = new Session()
    session.connect()
    session.post('Profiler.enable', () => session.post('Profiler.start'))
  }
  process.on('SIGUSR2', () => {
    const ms = (ns) => Math.round(ns / 1e4) / 100
    const figures = { p50: ms(delay.percentile(50)), p99: ms(delay.percentile(99)), max: ms(delay.max), count: delay.count }
    delay.reset()
    if (!session) return writeFileSync(out, JSON.stringify(figures))
    session.post('Profiler.stop', (err, result) => {
      if (!err) writeFileSync(join(profileDir, `${stretch++}.cpuprofile`), JSON.stringify(result.profile))
      session.post('Profiler.start')
      writeFileSync(out, JSON.stringify(figures))
    })
  })
}
