// display_component for two real subjects (tokens of the oidc-provider test issuer) over HTTP, on a
// compile pool the test can read: the compile cache is per subject (bob never gets a hit from alice's
// source, counted by compiles, not by time), one subject's flood is answered BUSY with
// retryAfterSeconds while the other's compile goes through, and once a subject's compiles have hit the
// memory limit twice its display_component is answered BUSY at once (cooled down), restarting no worker
// for it, while the other's goes through.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { createAgentAppsServer } from '../../src/apps/agent-apps-server.js'
import { createCompilePool, type CompilePool } from '../../src/apps/compile-pool.js'
import type { AppServer, Listening } from '../../src/server/app-server.js'
import { startIssuer, type TestIssuer } from '../auth/oidc-issuer.js'
import { tempDir } from '../channel/temp-dir.js'

type Result = { isError?: boolean; content: Array<{ type: string; text?: string }>; structuredContent?: Record<string, any> }
type Caller = (name: string, args?: Record<string, unknown>) => Promise<Result>

const COMPONENT = `import { xs } from 'duetkit'
function Secret({ state }) { return <p>{state.text}</p> }
Secret.initialState = { text: 'alice shows her salary review' }
export default Secret
`
// 100,000 nested elements: esbuild needs ~20 s for them, so each holds its worker until the deadline.
const SLOW = `export default () => ${'<b>'.repeat(100_000)}x${'</b>'.repeat(100_000)}\n`

let issuer: TestIssuer
let data: ReturnType<typeof tempDir>
let pool: CompilePool
let app: AppServer
let listening: Listening
const clients: Client[] = []

async function as(subject: string, url = listening.url!): Promise<Caller> {
  const token = await issuer.tokenFor(subject, { audience: url })
  const client = new Client({ name: `test-${subject}`, version: '1' })
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }))
  clients.push(client)
  return (name, args = {}) => client.callTool({ name, arguments: args }) as Promise<Result>
}

beforeAll(async () => {
  issuer = await startIssuer()
  data = tempDir('duet-compile-subjects-')
  // No cool-down within the flood below (compile-cool-down.test.ts has it): each admitted compile runs to its limit.
  pool = createCompilePool({ workers: 2, maxQueued: 4, maxQueuedPerSubject: 2, compileLimits: { timeoutMs: 1500 }, coolDownAfter: 100 })
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

describe('display_component for two subjects', () => {
  it("keeps the compile cache per subject: bob's display of alice's source compiles again, and each one's repeat is a hit", async () => {
    const alice = await as('alice')
    const bob = await as('bob')
    const compiles = () => pool.stats().compiles
    const before = compiles()
    const shown = await alice('display_component', { source: COMPONENT })
    expect(shown.isError, shown.content[0]?.text).toBeFalsy()
    expect(compiles()).toBe(before + 1)
    // The shell's get_render and a second display by alice find her compile.
    const render = await alice('get_render', { channel_id: shown.structuredContent!.channel_id })
    expect(render.structuredContent!.script).toContain('__duetMount')
    expect((await alice('display_component', { source: COMPONENT })).isError).toBeFalsy()
    expect(compiles()).toBe(before + 1)
    // Bob sends the very same source: no hit on alice's entry, his own compile.
    expect((await bob('display_component', { source: COMPONENT })).isError).toBeFalsy()
    expect(compiles()).toBe(before + 2)
    expect((await bob('display_component', { source: COMPONENT })).isError).toBeFalsy()
    expect(compiles()).toBe(before + 2)
  }, 60_000)

  it("answers a subject's flood past its share BUSY with retryAfterSeconds, and serves the other subject meanwhile", async () => {
    const alice = await as('alice')
    const mallory = await as('mallory')
    // One of mallory's runs (her share of two workers is one), two wait, the rest are past her bound. Sent
    // at once, so the refusals do not depend on how soon her running compile hits its limit.
    const flooding = Promise.all(Array.from({ length: 6 }, (_, i) => mallory('display_component', { source: `${SLOW}// ${i}\n` })))
    // Alice is not behind mallory's line: her compile runs meanwhile, on the worker mallory may not take.
    await expect.poll(() => pool.stats().queued, { timeout: 10_000 }).toBeGreaterThanOrEqual(1)
    const mine = await alice('display_component', { source: `export default () => <p>alice</p>\n` })
    expect(mine.isError, mine.content[0]?.text).toBeFalsy()
    const flood = await flooding
    const refused = flood.filter((r) => (r.structuredContent?.error as { code?: string } | undefined)?.code === 'BUSY')
    expect(refused.length).toBeGreaterThanOrEqual(1)
    for (const r of refused) {
      expect(r.structuredContent!.error).toMatchObject({ code: 'BUSY', data: { queue: 'subject', limit: 2 } })
      expect(r.structuredContent!.error.data.retryAfterSeconds).toBeGreaterThanOrEqual(1)
      expect(r.content[0]!.text).toMatch(/^BUSY: .*Retry in \d+ s/)
    }
    // Mallory's admitted compiles were each answered by a limit, not dropped: at most her running one and two waiting.
    const admitted = flood.filter((r) => !refused.includes(r))
    expect(admitted.length).toBeGreaterThanOrEqual(1)
    for (const answer of admitted) expect(answer.content[0]!.text).toMatch(/^COMPILE_ERROR: .*(limit of 1500 ms|limit of 256 MB)/)
  }, 60_000)
})

// esbuild folds a chain of string literals keeping every partial string: past any memory limit here.
const BALLOON = (i: number) => `const x = ${'"xxxxxxxxxx"+'.repeat(20_000)}"x"\nexport default () => <p>{x}</p>\n// ${i}\n`
const codeOf = (r: Result) => (r.structuredContent?.error as { code?: string } | undefined)?.code

describe('the compile cool-down, two subjects over HTTP', () => {
  it('answers mallory BUSY once her compiles keep hitting the memory limit, restarting no worker for her, and serves alice', async () => {
    const cooling = createCompilePool({ workers: 2, compileLimits: { maxMemoryMb: 150 }, coolDownAfter: 2, coolDownSeconds: 120 })
    const server = await createAgentAppsServer({ dataDir: data.dir, auth: { issuer: issuer.url }, compilePool: cooling })
    try {
      const url = (await server.listen({ http: { port: 0 }, handleSignals: false })).url!
      const alice = await as('alice', url)
      const mallory = await as('mallory', url)
      for (const i of [1, 2]) {
        const hit = await mallory('display_component', { source: BALLOON(i) })
        expect(codeOf(hit), hit.content[0]?.text).toBe('COMPILE_ERROR')
        expect(hit.structuredContent!.error.data).toMatchObject({ limit: 'memory', maxMemoryMb: 150 })
      }
      expect(cooling.stats().replaced).toBe(2)
      for (const i of [3, 4, 5]) {
        const refused = await mallory('display_component', { source: BALLOON(i) })
        expect(codeOf(refused), refused.content[0]?.text).toBe('BUSY')
        expect(refused.structuredContent!.error.data).toMatchObject({ queue: 'cool-down', coolDownAfter: 2, coolDownSeconds: 120 })
        expect(refused.structuredContent!.error.data.retryAfterSeconds).toBeGreaterThan(60)
        expect(refused.content[0]!.text).toMatch(/^BUSY: Your last 2 compiles were stopped at a limit/)
      }
      // Not one more worker was killed for her, and her cool-down is hers alone.
      expect(cooling.stats().replaced).toBe(2)
      const shown = await alice('display_component', { source: `export default () => <p>alice</p>\n` })
      expect(shown.isError, shown.content[0]?.text).toBeFalsy()
      expect(shown.structuredContent!.channel_id).toBeTruthy()
    } finally {
      await server.close()
      await cooling.close()
    }
  }, 90_000)
})
