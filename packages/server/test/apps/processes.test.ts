import { execFile } from 'node:child_process'
import { rmSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { openAppStore } from '../../src/apps/index.js'
import { bundle } from '../server/build-fixture.js'
import { tempDataDir } from './harness.js'

// Hosts run several copies of the server at once; they must share apps.db without losing a write.
const run = promisify(execFile)
let script: string
let tmp: ReturnType<typeof tempDataDir>

beforeAll(async () => {
  script = await bundle(fileURLToPath(new URL('./fixtures/store-writer.ts', import.meta.url)), 'apps-store-writer')
  tmp = tempDataDir()
})
afterAll(() => {
  rmSync(script, { force: true })
  tmp.remove()
})

it('four processes appending to one key and racing for one name lose nothing and save once', async () => {
  const setup = openAppStore({ dataDir: tmp.dir })
  setup.recordRender('ch-race', { kind: 'html', html: '<p>race</p>' })
  setup.close()

  const perProcess = 150
  const outputs = await Promise.all(['a', 'b', 'c', 'd'].map((who) => run(process.execPath, [script, tmp.dir, who, String(perProcess)], { timeout: 120_000 })))
  const results = outputs.map((o) => JSON.parse(o.stdout) as { who: string; saved: boolean })
  expect(results.filter((r) => r.saved)).toHaveLength(1)

  const store = openAppStore({ dataDir: tmp.dir })
  try {
    const page = store.getData('shared', 'items', { limit: 1000 })
    const items = page.value as string[]
    expect(page.total).toBe(4 * perProcess)
    expect(new Set(items).size).toBe(items.length)
    for (const who of ['a', 'b', 'c', 'd']) {
      // Each process's own writes keep their order.
      expect(items.filter((x) => x.startsWith(`${who}-`))).toEqual(Array.from({ length: perProcess }, (_, i) => `${who}-${i}`))
    }
    expect(store.tail(500).length).toBe(500)
    expect(store.loadApp('race').html).toBe('<p>race</p>')
  } finally {
    store.close()
  }
})
