// The per-subject quotas over HTTP with two users from a real issuer, on a real SQLite file (see quotas-http.case.ts).
import { tempDir } from '../channel/temp-dir.js'
import { describeQuotasOverHttp } from './quotas-http.case.js'

let data: ReturnType<typeof tempDir> | undefined
describeQuotasOverHttp({
  name: 'sqlite',
  async start() {
    data = tempDir('duet-quotas-http-')
    return ['--data-dir', data.dir]
  },
  async stop() {
    data?.remove()
  },
})
