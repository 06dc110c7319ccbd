// The compile cool-down with two real subjects (tokens of the oidc-provider test issuer) over HTTP: once
// mallory's compiles have hit the memory limit twice, her display_component is answered BUSY with
// retryAfterSeconds at once, without a worker being killed and restarted for it, while alice's
// display_component goes through.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { createAgentAppsServer } from '../../src/apps/agent-apps-server.js'
import { createCompilePool, type CompilePool } from '../../src/apps/compile-pool.js'
import type { AppServer, Listening } from '../../src/server/app-server.js'
import { startIssuer, type TestIssuer } from '../auth/oidc-issuer.js'
import { tempDir } from '../channel/temp-dir.js'

type Result = { isError?: boolean; content: Array<{ type: string; text?: string }>; structuredContent?: Record<string, any> }
type Caller = (name: string, args?: Record<string, unknown>) => Promise<Result>

// esbuild folds a chain of string literals keeping every partial string: past any memory limit here.
const BALLOON = (i: number) => `const x = ${'"xxxxxxxxxx"+'.repeat(20_000)}"x"\nexport default () => <p>{x}</p>\n// ${i}\n`
const code = (r: Result) => (r.structuredContent?.error as { code?: string } | undefined)?.code

let issuer: TestIssuer
let data: ReturnType<typeof tempDir>
let pool: CompilePool
let app: AppServer
let listening: Listening
const clients: Client[] = []

async function as(subject: string): Promise<Caller> {
  const token = await issuer.tokenFor(subject, { audience: listening.url! })
  const client = new Client({ name: `test-${subject}`, version: '1' })
  await client.connect(new StreamableHTTPClientTransport(new URL(listening.url!), { requestInit: { headers: { authorization: `Bearer ${token}` } } }))
  clients.push(client)
  return (name, args = {}) => client.callTool({ name, arguments: args }) as Promise<Result>
}

beforeAll(async () => {
  issuer = await startIssuer()
  data = tempDir('duet-compile-cool-down-')
  pool = createCompilePool({ workers: 2, compileLimits: { maxMemoryMb: 150 }, coolDownAfter: 2, coolDownSeconds: 120 })
  app = await createAgentAppsServer({ dataDir: data.dir, auth: { issuer: issuer.url }, compilePool: pool })
  listening = await app.listen({ http: { port: 0 }, handleSignals: false })
}, 60_000)
afterAll(async () => {
  for (const client of clients) await client.close().catch(() => {})
  await app?.close()
  await pool?.close()
  await issuer?.close()
  data?.remove()
})

describe('the compile cool-down, two subjects over HTTP', () => {
  it('answers mallory BUSY once her compiles keep hitting the memory limit, restarting no worker for her, and serves alice', async () => {
    const alice = await as('alice')
    const mallory = await as('mallory')
    for (const i of [1, 2]) {
      const hit = await mallory('display_component', { source: BALLOON(i) })
      expect(code(hit), hit.content[0]?.text).toBe('COMPILE_ERROR')
      expect(hit.structuredContent!.error.data).toMatchObject({ limit: 'memory', maxMemoryMb: 150 })
    }
    const replaced = pool.stats().replaced
    expect(replaced).toBe(2)
    for (const i of [3, 4, 5]) {
      const refused = await mallory('display_component', { source: BALLOON(i) })
      expect(code(refused), refused.content[0]?.text).toBe('BUSY')
      expect(refused.structuredContent!.error.data).toMatchObject({ queue: 'cool-down', coolDownAfter: 2, coolDownSeconds: 120 })
      expect(refused.structuredContent!.error.data.retryAfterSeconds).toBeGreaterThan(60)
      expect(refused.content[0]!.text).toMatch(/^BUSY: Your last 2 compiles were stopped at a limit/)
    }
    // Not one more worker was killed for her, and her cool-down is hers alone.
    expect(pool.stats().replaced).toBe(replaced)
    const shown = await alice('display_component', { source: `export default () => <p>alice</p>\n` })
    expect(shown.isError, shown.content[0]?.text).toBeFalsy()
    expect(shown.structuredContent!.channel_id).toBeTruthy()
  }, 90_000)
})
