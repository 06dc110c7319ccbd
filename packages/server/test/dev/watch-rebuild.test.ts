import type { ChildProcess } from 'node:child_process'
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { startDevServer, type DevServer } from '../../src/dev/dev-server.js'
import { copyForecast, FORECAST_NEEDS, startForecastServer } from './fixtures/forecast-copy.mjs'
import { builtOutputs } from '../../../../test/support/built.js'

// The server half of `duet dev --watch`, without a browser: a save rebuilds the copy's view with its
// own Vite, and the change of the rendered ui:// resource is announced as soon as the build is
// written. The poll interval is a minute, so only the rebuild can be what announces it.
const VIEW = 'ui://forecast/view.html'

interface DevEvent {
  type: string
  uri?: string
  level?: string
  data?: unknown
}

/** Reads the dev server's event stream into `events` until `stop()`. */
async function listen(url: string, events: DevEvent[]): Promise<() => void> {
  const abort = new AbortController()
  const res = await fetch(new URL('/api/events', url), { signal: abort.signal })
  const reader = res.body!.getReader()
  let buffer = ''
  void (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read()
        if (done) return
        buffer += new TextDecoder().decode(value)
        let end = buffer.indexOf('\n\n')
        while (end >= 0) {
          const data = buffer
            .slice(0, end)
            .split('\n')
            .find((l) => l.startsWith('data: '))
          if (data) events.push(JSON.parse(data.slice(6)))
          buffer = buffer.slice(end + 2)
          end = buffer.indexOf('\n\n')
        }
      }
    } catch {
      // aborted at the end of the test
    }
  })()
  return () => abort.abort()
}

function until<T>(what: string, fn: () => T | undefined, ms = 30_000): Promise<T> {
  return vi.waitFor(
    () => {
      const v = fn()
      if (v === undefined) throw new Error(`timed out waiting for ${what}`)
      return v
    },
    { timeout: ms, interval: 20 },
  )
}

const READY = builtOutputs('duet dev --watch rebuilds', FORECAST_NEEDS)

describe.skipIf(!READY)('duet dev --watch rebuilds and announces the changed view', { timeout: 90_000 }, () => {
  let dir: string
  let forecast: ChildProcess
  let dev: DevServer
  const events: DevEvent[] = []
  let stop = () => {}

  const rpc = async (method: string, params: Record<string, unknown>) => {
    const res = await fetch(new URL('/api/rpc', dev.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ server: 's1', method, params, caller: 'user' }),
    })
    return (await res.json()) as { result?: { contents: { text: string }[] }; error?: unknown }
  }

  beforeAll(async () => {
    dir = copyForecast()
    const f = await startForecastServer(dir)
    forecast = f.child
    dev = await startDevServer({ servers: [{ kind: 'http', url: f.url }], port: 0, pollMs: 60_000, watch: dir })
    stop = await listen(dev.url, events)
  })

  afterAll(async () => {
    stop()
    await dev?.close()
    forecast?.kill()
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  it('announces a rebuilt view once the build is written, with the new HTML served', async () => {
    // Reading the view is what a render does; from then on duet dev watches it.
    const before = await rpc('resources/read', { uri: VIEW })
    expect(before.result?.contents[0].text).toContain('Forecast for ')
    const source = `${dir}/src/App.jsx`
    writeFileSync(source, readFileSync(source, 'utf8').replace('`Forecast for ', '`Rebuilt for '))
    await until('resource-changed', () => events.find((e) => e.type === 'resource-changed' && e.uri === VIEW))
    expect(events.some((e) => e.type === 'log' && String(e.data).startsWith('view rebuilt in'))).toBe(true)
    const after = await rpc('resources/read', { uri: VIEW })
    expect(after.result?.contents[0].text).toContain('Rebuilt for ')
  })

  it('reports a save that does not build as an error and announces nothing', async () => {
    const changed = events.filter((e) => e.type === 'resource-changed').length
    const source = `${dir}/src/App.jsx`
    const good = readFileSync(source, 'utf8')
    writeFileSync(source, `${good}\nexport const broken = (\n`)
    const failure = await until('a build error', () => events.find((e) => e.type === 'log' && e.level === 'error'))
    expect(String(failure.data)).toMatch(/^the view did not build: /)
    expect(events.filter((e) => e.type === 'resource-changed').length).toBe(changed)
    // The last good build is still what the server serves.
    expect((await rpc('resources/read', { uri: VIEW })).result?.contents[0].text).toContain('Rebuilt for ')
    writeFileSync(source, good)
  })
})
