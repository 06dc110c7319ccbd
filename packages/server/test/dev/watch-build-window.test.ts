import type { ChildProcess } from 'node:child_process'
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ServerConnection, type ConnectionEvent } from '../../src/dev/connections.js'
import { copyForecast, FORECAST_NEEDS, startForecastServer } from './fixtures/forecast-copy.mjs'
import { builtOutputs } from '../../../../test/support/built.js'

// A `--watch` build empties Vite's output folder and writes the view again, and a second build can start
// the moment the first ends (one save can give two file events). The forecast server reads its view file
// at each request, so a read that overlaps a build can get half a file: announcing that as the new view
// re-mounted a broken page that then waited for an `initialized` that never came. Here the build window is
// played by hand on the real file the real server reads, so the timing is the test's, not Vite's.
const VIEW = 'ui://forecast/view.html'
const page = (title: string) => `<!doctype html><html><head><title>${title}</title></head><body><main>${'x'.repeat(2000)}</main></body></html>`

const READY = builtOutputs('duet dev and a view file being rebuilt', FORECAST_NEEDS)

describe.skipIf(!READY)('duet dev and a view file being rebuilt', { timeout: 60_000 }, () => {
  let dir: string
  let file: string
  let forecast: ChildProcess
  let conn: ServerConnection
  const changes: string[] = []

  beforeAll(async () => {
    dir = copyForecast()
    mkdirSync(join(dir, 'dist'), { recursive: true })
    file = join(dir, 'dist/index.html')
    writeFileSync(file, page('first'))
    const f = await startForecastServer(dir)
    forecast = f.child
    const emit = (e: ConnectionEvent) => {
      if (e.type === 'resource-changed') changes.push(e.uri)
    }
    // A poll interval of a minute: only the rebuild hooks can be what announces a change here.
    conn = new ServerConnection('s1', { kind: 'http', url: f.url }, { pollMs: 60_000, emit })
    await conn.start()
    // Reading the view is what a render does; from then on the connection watches it.
    await conn.request('resources/read', { uri: VIEW })
  })

  afterAll(async () => {
    await conn?.close()
    forecast?.kill()
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  it('announces nothing read while a build runs, and the written view once it ends', async () => {
    conn.buildStarted()
    // Half of the next view, as a read can find it in the middle of Vite's write.
    writeFileSync(file, page('second').slice(0, 60))
    await conn.recheck()
    expect(changes).toEqual([])

    writeFileSync(file, page('second'))
    await conn.buildEnded(true)
    expect(changes).toEqual([VIEW])
    const read = (await conn.request('resources/read', { uri: VIEW })) as { contents: Array<{ text: string }> }
    expect(read.contents[0].text).toContain('<title>second</title>')
  })

  it('announces nothing for a build that failed, and nothing again for a rebuild of the same view', async () => {
    conn.buildStarted()
    await conn.buildEnded(false)
    conn.buildStarted()
    await conn.buildEnded(true)
    expect(changes).toEqual([VIEW])
  })
})
