import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, request, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { startDevServer } from '../../src/dev/dev-server.js'
import { startFixtureServer, type FixtureServer } from './fixtures/app-server.mjs'
import { writeView } from './fixtures/build-view.js'

// Closing `duet dev` fails what its connections still have in flight: a tick's ping fails, and that failure
// used to be broadcast to the page's event stream after close() had ended it ("write after end", unhandled).

/** A pass-through to `target` that holds every `ping` (never answers it) and counts requests. */
async function pingHoldingProxy(target: string) {
  const to = new URL(target)
  let held!: () => void
  const pingHeld = new Promise<void>((resolve) => {
    held = resolve
  })
  let requests = 0
  const server: Server = createServer((req, res) => {
    requests++
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks)
      if (/"method"\s*:\s*"ping"/.test(body.toString('utf8'))) {
        held()
        return // left open: the ping is in flight when the dev server closes
      }
      const out = request({ host: to.hostname, port: to.port, path: req.url, method: req.method, headers: req.headers }, (answer: IncomingMessage) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
      })
      out.on('error', () => res.destroy())
      out.end(body)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${to.pathname}`,
    pingHeld,
    requests: () => requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** GET /api/events with the Host the dev server accepts; resolves once the stream has started. */
function openEvents(devUrl: string) {
  const url = new URL(devUrl)
  return new Promise<{ ended: Promise<void> }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: url.port, path: '/api/events', headers: { host: url.host } }, (res) => {
      const ended = new Promise<void>((done) => {
        res.on('end', done)
        res.on('close', done)
      })
      res.once('data', () => resolve({ ended }))
      res.resume()
    })
    req.on('error', reject)
    req.end()
  })
}

const cleanups: Array<() => unknown> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

it('closes while a connection tick is in flight without writing to the ended event stream', { timeout: 30_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'duet-dev-close-'))
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
  const viewPath = join(dir, 'view.html')
  await writeView(viewPath, 'v1')
  const fixture: FixtureServer = await startFixtureServer({ viewPath })
  cleanups.push(() => fixture.close())
  const proxy = await pingHoldingProxy(fixture.url)
  cleanups.push(() => proxy.close())

  const unhandled: unknown[] = []
  const onError = (err: unknown) => unhandled.push(err)
  process.on('uncaughtException', onError)
  process.on('unhandledRejection', onError)
  cleanups.push(() => {
    process.off('uncaughtException', onError)
    process.off('unhandledRejection', onError)
  })

  const dev = await startDevServer({ servers: [{ kind: 'http', url: proxy.url }], port: 0, pollMs: 50 })
  const events = await openEvents(dev.url)
  // No resource is watched, so the first tick pings; the proxy holds it.
  await proxy.pingHeld
  await dev.close()
  await events.ended
  // The stream's error would be emitted on the next tick of the event loop.
  await new Promise((resolve) => setImmediate(resolve))
  expect(unhandled).toEqual([])

  // And the loop is over: no request reaches the server after close, over several poll intervals. (A window
  // is the only way to see that nothing happens; six intervals of 50 ms.)
  const after = proxy.requests()
  await new Promise((resolve) => setTimeout(resolve, 300))
  expect(proxy.requests()).toBe(after)
})
