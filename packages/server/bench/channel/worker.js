// Child process of bench/channel.js, driving the built channel store.
//   append DIR CH N     wait for a line on stdin, send N messages, print {"done", "seconds"}
//   longpoll DIR CH     drain with a long wait in a loop; print the hrtime of each receipt
import { openChannelStore } from '../../dist/channel/index.js'

const [mode, dataDir, channel, count] = process.argv.slice(2)
const MESSAGE = { event: 'ask', data: { quote: 'We hold these truths to be self-evident', question: 'What does self-evident mean here?' } }
const store = await openChannelStore({ dataDir, limits: { maxPending: 10_000_000 } })

if (mode === 'append') {
  const n = Number(count)
  process.stdout.write('ready\n')
  await new Promise((resolve) => process.stdin.once('data', resolve))
  const start = process.hrtime.bigint()
  for (let i = 0; i < n; i++) await store.send(channel, 'app-to-agent', MESSAGE)
  const seconds = Number(process.hrtime.bigint() - start) / 1e9
  process.stdout.write(`${JSON.stringify({ done: n, seconds })}\n`)
  await store.dispose()
  process.exit(0)
} else if (mode === 'longpoll') {
  process.stdout.write('ready\n')
  // The parent closes stdin to stop this reader; reading is what makes 'end' fire.
  process.stdin.on('end', () => process.exit(0)).resume()
  for (;;) {
    const got = await store.drain(channel, 'agent-to-app', { waitMs: 30_000 })
    if (got.length) process.stdout.write(`${process.hrtime.bigint()}\n`)
  }
}
