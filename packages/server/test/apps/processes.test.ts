import { rmSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, it } from 'vitest'
import { bundle } from '../server/build-fixture.js'
import { tempDataDir } from './harness.js'
import { raceFourWriters } from './processes.case.js'

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

it('four processes appending to one key and racing for one name on one apps.db lose nothing and save once', async () => {
  await raceFourWriters(script, tmp.dir, { dataDir: tmp.dir })
})
