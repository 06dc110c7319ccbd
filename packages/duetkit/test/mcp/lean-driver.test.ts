import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { build } from 'vite'
import { makeLeanMcpAppDriver, withCapabilityChecks, withDisplayModes, withDownloads, withOpenAiExtras, type McpFeature } from 'duetkit/mcp'
import { duetkitAliases } from '../../../../test/support/duetkit-aliases.js'
import { fakeHost, harness, sinkValue } from './fake-host.js'

const open: Array<ReturnType<typeof harness>> = []
afterEach(() => {
  for (const h of open.splice(0)) h.dispose()
})

function start(features: McpFeature[], handlers: Parameters<typeof fakeHost>[0] = {}, init?: Parameters<typeof fakeHost>[1]) {
  const fake = fakeHost(handlers, init)
  const h = harness()
  open.push(h)
  makeLeanMcpAppDriver({ window: fake.win as any, host: fake.host, features })(h.sink$, h.context)
  const send = async (value: Record<string, any>) => {
    const s = sinkValue({ ok: 'OK', error: 'FAILED', ...value })
    h.send(s.value)
    return s.replied
  }
  return { fake, send }
}

const download = { downloadFile: { uri: 'file:///a.txt', mimeType: 'text/plain', text: 'a' } }

describe('makeLeanMcpAppDriver: the core and the features a view names', () => {
  it('without withDownloads, downloadFile is an INVALID_SINK naming what the driver understands, and nothing is posted', async () => {
    const { send, fake } = start([], { 'ui/download-file': () => ({}) })
    const r = await send(download)
    expect(r).toMatchObject({ kind: 'error', data: { code: 'INVALID_SINK' } })
    expect(r.data.error).toMatch(/names none of callTool, updateModelContext, message, openLink, requestTeardown$/)
    expect(fake.posted.some((m) => m.method === 'ui/download-file')).toBe(false)
  })

  it('with withDownloads, downloadFile becomes ui/download-file', async () => {
    const { send, fake } = start([withDownloads()], { 'ui/download-file': () => ({}) })
    expect(await send(download)).toMatchObject({ kind: 'ok' })
    expect(fake.posted.find((m) => m.method === 'ui/download-file')?.params).toEqual({
      contents: [{ type: 'resource', resource: { uri: 'file:///a.txt', mimeType: 'text/plain', text: 'a' } }],
    })
  })

  it('announces the display modes of withDisplayModes in the handshake, and only then', async () => {
    const plain = start([])
    const withModes = start([withDisplayModes(['inline', 'fullscreen'])])
    const caps = async (f: ReturnType<typeof start>) => (await f.fake.waitFor((m) => m.method === 'ui/initialize')).params.appCapabilities
    expect(await caps(plain)).toEqual({})
    expect(await caps(withModes)).toEqual({ availableDisplayModes: ['inline', 'fullscreen'] })
  })

  it('refuses an unadvertised method before posting it only with withCapabilityChecks', async () => {
    // The host has the handler but does not advertise message: without checks the request goes out.
    const init = { hostCapabilities: {} }
    const unchecked = start([], { 'ui/message': () => ({}) }, init)
    expect(await unchecked.send({ message: 'hi' })).toMatchObject({ kind: 'ok' })
    const checked = start([withCapabilityChecks()], { 'ui/message': () => ({}) }, init)
    expect(await checked.send({ message: 'hi' })).toMatchObject({ kind: 'error', data: { code: 'UNSUPPORTED' } })
    expect(checked.fake.posted.some((m) => m.method === 'ui/message')).toBe(false)
  })

  it('takes the ChatGPT-only { openai } sink only with withOpenAiExtras, and outside an Apps SDK host refuses it as UNSUPPORTED', async () => {
    const plain = start([])
    const without = await plain.send({ openai: 'uploadFile', args: {} })
    expect(without).toMatchObject({ kind: 'error', data: { code: 'INVALID_SINK' } })
    expect(without.data.error).toMatch(/names none of callTool, updateModelContext, message, openLink, requestTeardown$/)
    const extras = start([withOpenAiExtras()])
    const refused = await extras.send({ openai: 'uploadFile', args: {} })
    expect(refused).toMatchObject({
      kind: 'error',
      data: { code: 'UNSUPPORTED', error: 'openai/uploadFile: window.openai.uploadFile is not available in this host' },
    })
    // Refused after the handshake answered, with nothing posted for it.
    expect(extras.fake.posted.map((m) => m.method).filter((m) => m && m !== 'ui/initialize' && m !== 'ui/notifications/initialized')).toEqual([])
  })

  it('refuses bad options and bad features, naming the option', () => {
    expect(() => makeLeanMcpAppDriver({ features: [{} as any] })).toThrow(/option features must be an array of features/)
    expect(() => makeLeanMcpAppDriver({ timeoutMs: -1 })).toThrow(/option timeoutMs/)
    expect(() => withDisplayModes(['sidebar' as any])).toThrow(/withDisplayModes: modes must be/)
  })
})

// Inside the workspace, so xstream and snabbdom resolve through node_modules as in a real project.
const cache = join(__dirname, '../../../../node_modules/.cache')
mkdirSync(cache, { recursive: true })
const dir = mkdtempSync(join(cache, 'duet-lean-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** A minified Vite bundle of an entry that makes a driver, with duetkit from source. */
async function bundle(name: string, driver: string): Promise<string> {
  writeFileSync(join(dir, `${name}.js`), `import * as mcp from 'duetkit/mcp'\nglobalThis.driver = ${driver}\n`)
  const out: any = await build({
    root: dir,
    configFile: false,
    logLevel: 'silent',
    resolve: { alias: duetkitAliases },
    build: { write: false, lib: { entry: join(dir, `${name}.js`), formats: ['es'], fileName: name } },
  })
  return (Array.isArray(out) ? out : [out]).flatMap((o: any) => o.output).find((f: any) => f.type === 'chunk').code
}

describe('a lean driver carries only the features it names', () => {
  // A string only each feature's code contains.
  const marks = {
    viewState: 'the view state is not kept',
    capabilityChecks: 'the host does not offer it',
    displayModes: 'displayMode must be',
    downloads: 'ui/download-file',
    serverRequests: 'sampling/createMessage',
    agentTools: 'notifications/tools/list_changed',
    agentChannel: 'its channel is closed',
    openAiExtras: 'is not available in this host',
  }

  it('the core alone has none of them; makeMcpAppDriver has all', async () => {
    const lean = await bundle('lean', 'mcp.makeLeanMcpAppDriver()')
    const full = await bundle('full', 'mcp.makeMcpAppDriver({ tools: mcp.agentTools, channel: mcp.agentChannel() })')
    for (const [feature, mark] of Object.entries(marks)) {
      expect(lean.includes(mark), `${feature} in the lean bundle`).toBe(false)
      expect(full.includes(mark), `${feature} in the full bundle`).toBe(true)
    }
    expect(lean.length).toBeLessThan(full.length)
  })

  it('each named feature brings its own code and no other', async () => {
    const code = await bundle('some', 'mcp.makeLeanMcpAppDriver({ features: [mcp.withViewState(), mcp.withDownloads()] })')
    for (const [feature, mark] of Object.entries(marks)) {
      expect(code.includes(mark), feature).toBe(feature === 'viewState' || feature === 'downloads')
    }
  })
})
