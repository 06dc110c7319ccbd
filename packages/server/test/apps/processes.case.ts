import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { expect } from 'vitest'
import { openAppStore, type AppStoreOptions } from '../../src/apps/index.js'

// Hosts run several copies of the server at once, and replicas share one Redis: four processes
// writing one store must not lose a write. Shared by the SQLite and the Redis runs.
const run = promisify(execFile)

/** Four store-writer processes on `target` (a data dir or a redis:// URL), checked through a store opened with `options`. */
export async function raceFourWriters(script: string, target: string, options: AppStoreOptions): Promise<void> {
  const setup = await openAppStore(options)
  await setup.recordRender('ch-race', { kind: 'html', html: '<p>race</p>' })
  await setup.close()

  const perProcess = 150
  const outputs = await Promise.all(['a', 'b', 'c', 'd'].map((who) => run(process.execPath, [script, target, who, String(perProcess)], { timeout: 120_000 })))
  const results = outputs.map((o) => JSON.parse(o.stdout) as { who: string; saved: boolean })
  expect(results.filter((r) => r.saved)).toHaveLength(1)

  const store = await openAppStore(options)
  try {
    const page = await store.getData('shared', 'items', { limit: 1000 })
    const items = page.value as string[]
    expect(page.total).toBe(4 * perProcess)
    expect(new Set(items).size).toBe(items.length)
    for (const who of ['a', 'b', 'c', 'd']) {
      // Each process's own writes keep their order.
      expect(items.filter((x) => x.startsWith(`${who}-`))).toEqual(Array.from({ length: perProcess }, (_, i) => `${who}-${i}`))
    }
    expect((await store.tail(500)).length).toBe(500)
    expect((await store.loadApp('race')).html).toBe('<p>race</p>')
  } finally {
    await store.close()
  }
}
