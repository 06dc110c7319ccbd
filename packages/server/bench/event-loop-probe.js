// Preloaded into the server a bench starts (NODE_OPTIONS=--import <this file>, DUET_BENCH_PROBE=<path>):
// the server's event-loop delay, so a bench can tell time lost waiting for the loop from time lost elsewhere.
// On SIGUSR2 it writes the delay since the last signal (p50, p99, max in ms) as JSON to the path, then starts over.
import { writeFileSync } from 'node:fs'
import { monitorEventLoopDelay } from 'node:perf_hooks'

const out = process.env.DUET_BENCH_PROBE
if (out) {
  const delay = monitorEventLoopDelay({ resolution: 5 })
  delay.enable()
  process.on('SIGUSR2', () => {
    const ms = (ns) => Math.round(ns / 1e4) / 100
    writeFileSync(out, JSON.stringify({ p50: ms(delay.percentile(50)), p99: ms(delay.percentile(99)), max: ms(delay.max), count: delay.count }))
    delay.reset()
  })
}
