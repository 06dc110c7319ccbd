import { afterEach, describe, expect, it } from 'vitest'
import * as z from 'zod'
import { Client } from '@modelcontextprotocol/client'
import { InMemoryTransport } from '@modelcontextprotocol/server'
import { createAppServer, DuetError, type AppServer } from '@duetkit/server'
import { demoApp } from './demo-app.js'

const noop = async () => ({ content: [] })

/** The error a call throws, so tests can check its code and message together. */
function thrown(fn: () => unknown): DuetError {
  try {
    fn()
  } catch (err) {
    if (err instanceof DuetError) return err
    throw err
  }
  throw new Error('expected a DuetError')
}

describe('createAppServer options', () => {
  it('rejects a missing or malformed name and version, naming the factory and the option', () => {
    expect(thrown(() => createAppServer(undefined as never))).toMatchObject({ code: 'INVALID_OPTION', message: expect.stringContaining('createAppServer') })
    expect(thrown(() => createAppServer({ name: 'has space', version: '1' })).message).toMatch(/createAppServer: option 'name'/)
    expect(thrown(() => createAppServer({ name: 'ok', version: '' })).message).toMatch(/createAppServer: option 'version'/)
  })

  it('rejects bad tool registrations at registration time', () => {
    const app = createAppServer({ name: 'x', version: '1' })
    expect(thrown(() => app.tool('bad name!', { description: 'd' }, noop)).message).toMatch(/option 'name'/)
    expect(thrown(() => app.tool('t', {} as never, noop)).message).toMatch(/tool\('t'\): option 'description' is required/)
    expect(thrown(() => app.tool('t', { description: 'd', visibility: ['agent' as never] }, noop)).message).toMatch(/option 'visibility'/)
    expect(thrown(() => app.tool('t', { description: 'd', visibility: [] }, noop)).message).toMatch(/option 'visibility'/)
    expect(thrown(() => app.tool('t', { description: 'd', inputSchema: { a: 'string' } as never }, noop)).message).toMatch(/option 'inputSchema'/)
    expect(thrown(() => app.tool('t', { description: 'd' }, 'nope' as never)).message).toMatch(/option 'handler'/)
  })

  it('rejects a second tool with the same name', () => {
    const app = createAppServer({ name: 'x', version: '1' }).tool('t', { description: 'd' }, noop)
    expect(thrown(() => app.tool('t', { description: 'again' }, noop))).toMatchObject({ code: 'DUPLICATE_NAME', data: { name: 'tool:t' } })
  })

  it('rejects bad views: none, both, bad URI, non-file URL, bad html', () => {
    const app = createAppServer({ name: 'x', version: '1' })
    expect(thrown(() => app.appTool('a', { description: 'd' } as never, noop)).message).toMatch(/appTool\('a'\): option 'view' is required/)
    expect(thrown(() => app.appTool('a', { description: 'd', view: { file: 'a.html', html: '<p>' } }, noop)).message).toMatch(/exactly one of file or html/)
    expect(thrown(() => app.appTool('a', { description: 'd', view: { html: '<p>', uri: 'https://x/y' } }, noop)).message).toMatch(
      /option 'view.uri' must be a ui:/,
    )
    expect(thrown(() => app.appTool('a', { description: 'd', view: { file: new URL('https://x/y.html') } }, noop)).message).toMatch(/option 'view.file'/)
    expect(thrown(() => app.appTool('a', { description: 'd', view: { html: 42 as never } }, noop)).message).toMatch(/option 'view.html'/)
    expect(thrown(() => app.appTool('a', { description: 'd', view: { html: '<p>', prefersBorder: 'yes' as never } }, noop)).message).toMatch(/prefersBorder/)
  })

  it('rejects two views on one URI', () => {
    const app = createAppServer({ name: 'x', version: '1' }).appTool('a', { description: 'd', view: { html: '<p>', uri: 'ui://x/shared.html' } }, noop)
    expect(thrown(() => app.appTool('b', { description: 'd', view: { html: '<p>', uri: 'ui://x/shared.html' } }, noop)).code).toBe('DUPLICATE_NAME')
  })

  it('rejects listen options that name no transport, both, or a bad port', async () => {
    const app = createAppServer({ name: 'x', version: '1' })
    await expect(app.listen({})).rejects.toThrow(/listen: option 'stdio \| http'/)
    await expect(app.listen({ stdio: true, http: {} })).rejects.toThrow(/exactly one/)
    await expect(app.listen({ http: { port: 70000 }, handleSignals: false })).rejects.toThrow(/option 'http.port'/)
    await expect(app.listen({ http: { path: 'mcp' }, handleSignals: false })).rejects.toThrow(/option 'http.path'/)
  })

  it('reports a port in use as LISTEN_FAILED with a hint', async () => {
    const first = createAppServer({ name: 'x', version: '1' })
    const second = createAppServer({ name: 'y', version: '1' })
    try {
      const { url } = await first.listen({ http: { port: 0 }, handleSignals: false })
      const port = Number(new URL(url!).port)
      await expect(second.listen({ http: { port }, handleSignals: false })).rejects.toMatchObject({
        code: 'LISTEN_FAILED',
        message: `listen: 127.0.0.1:${port} is in use; pick another port (0 picks a free one)`,
      })
    } finally {
      await Promise.all([first.close(), second.close()])
    }
  })

  it('refuses to listen once closed', async () => {
    const app = createAppServer({ name: 'x', version: '1' })
    await app.close()
    await expect(app.listen({ http: { port: 0 }, handleSignals: false })).rejects.toMatchObject({ code: 'NOT_LISTENING' })
  })
})

describe('app.mcp and configure', () => {
  let app: AppServer | undefined
  let cleanup = () => {}
  afterEach(async () => {
    await app?.close()
    cleanup()
  })

  it('app.mcp holds every registration and serves a custom transport', async () => {
    const demo = demoApp()
    app = demo.app
    cleanup = demo.cleanup
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
    await app.mcp.connect(serverSide)
    const client = new Client({ name: 't', version: '1' })
    await client.connect(clientSide)
    expect(client.getServerVersion()).toMatchObject({ name: 'demo', version: '1.2.3' })
    expect(client.getInstructions()).toBe('demo instructions')
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('show')
    expect((await client.callTool({ name: 'echo', arguments: { text: 'mem' } })).content).toEqual([{ type: 'text', text: 'echo: mem' }])
    await client.close()
  })

  it('configure reaches app.mcp and every instance the factory builds, including later ones', async () => {
    app = createAppServer({ name: 'cfg', version: '1' })
    app.configure((mcp) => {
      mcp.registerPrompt('greet', { description: 'Say hi', argsSchema: z.object({ who: z.string() }) }, ({ who }) => ({
        messages: [{ role: 'user', content: { type: 'text', text: `hi ${who}` } }],
      }))
    })
    for (const server of [app.mcp, await app.factory({ era: 'legacy' })]) {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
      await server.connect(serverSide)
      const client = new Client({ name: 't', version: '1' })
      await client.connect(clientSide)
      const prompt = await client.getPrompt({ name: 'greet', arguments: { who: 'duet' } })
      expect(prompt.messages[0].content).toEqual({ type: 'text', text: 'hi duet' })
      await client.close()
      await server.close()
    }
  })

  it('runs onClose hooks once, after the listeners closed', async () => {
    app = createAppServer({ name: 'hooks', version: '1' })
    const events: string[] = []
    const listening = await app.listen({ http: { port: 0 }, handleSignals: false })
    app.onClose(async () => {
      const refused = await fetch(listening.url!, { method: 'POST', body: '{}' }).then(
        () => false,
        () => true,
      )
      events.push(refused ? 'hook after listener closed' : 'hook while listening')
    })
    await Promise.all([app.close(), app.close()])
    expect(events).toEqual(['hook after listener closed'])
  })
})
