import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Script } from 'node:vm'
import { Stream } from 'xstream'
import { renderComponent, type RenderedComponent } from 'duetkit/testing'
import { openChannelStore, registerChannelTools, type ChannelStore } from '@duetkit/server/channels'
import { RECIPES, registerDisplayTools, type DisplayTools } from '../../src/apps/index.js'
import { createShellApi } from '../../src/apps/shell/api.js'
import type { Command } from '../../src/cli/command.js'
import { connect, tempDataDir, textOf, type Connected } from './harness.js'
import { importComponent, samplesOf, shellWords, type Sample } from './samples.js'

const all = RECIPES.flatMap((r) => samplesOf(r.name, r.text))
const byKind = (kind: string) => all.filter((s) => s.kind === kind)
const label = (s: Sample) => `${s.recipe} sample ${s.index}`

let tmp: ReturnType<typeof tempDataDir>
let channels: ChannelStore
let server: Connected
beforeAll(async () => {
  tmp = tempDataDir()
  channels = await openChannelStore({ backend: 'sqlite', dataDir: tmp.dir })
  let display: DisplayTools
  server = await connect(tmp.dir, { onLoad: (saved, extra) => display.onLoad(saved, extra) }, (app, store) => {
    registerChannelTools(app, channels)
    display = registerDisplayTools(app, { channels, store, dataDir: tmp.dir })
  })
})
afterAll(async () => {
  await server.close()
  await channels.dispose()
  tmp.remove()
})

/** Sends every `callTool` request a component made to the real server, and answers it with the real result. */
async function serveToolCalls(t: RenderedComponent, from = 0): Promise<number> {
  const requests = t.requests('MCP').slice(from) as Array<{ callTool?: string; args?: Record<string, unknown>; ok?: string; error?: string }>
  for (const request of requests) {
    if (!request.callTool) continue
    const result = await server.call(request.callTool, request.args)
    expect(result.isError, `${request.callTool}: ${textOf(result)}`).toBeFalsy()
    if (request.ok) await t.respond('MCP', result, request.ok)
  }
  return from + requests.length
}

describe('every recipe sample is tagged with a kind the tests know how to run', () => {
  it.each(RECIPES.map((r) => [r.name, r.text] as const))('%s', (name, text) => {
    const samples = samplesOf(name, text)
    const fences = text.match(/^```/gm)?.length ?? 0
    expect(samples.length * 2, 'every fence opens and closes a sample').toBe(fences)
    for (const s of samples) {
      expect(['jsx duet-component', 'html fragment', 'json tool-call', 'sh '], label(s)).toContain(`${s.lang} ${s.kind}`)
    }
  })
})

describe('jsx duet-component samples render and behave', () => {
  // What each component is for, driven the way a user and the agent would drive it.
  const scripts: Record<string, (t: RenderedComponent) => Promise<void>> = {
    async Ping(t) {
      await t.simulateEvent('.ping', 'click')
      expect(t.requests('MCP').at(-1)).toEqual({ notifyAgent: { event: 'ping', data: { at: 'now' } } })
      await t.simulateAction('MESSAGE', { id: '1', event: 'pong', data: 'Hello from the agent' })
      expect(t.html()).toContain('Hello from the agent')
    },
    async Margin(t) {
      await t.simulateEvent('.passage', 'click', { data: { id: 'p2' } })
      await t.simulateEvent('.question', 'input', { value: 'Who is "men"?' })
      await t.simulateEvent('.ask', 'click')
      expect(t.requests('MCP').at(-1)).toMatchObject({
        notifyAgent: { event: 'ask', data: { thread_id: 't1', question: 'Who is "men"?', quote: expect.stringContaining('self-evident') } },
      })
      await t.simulateAction('MESSAGE', { id: '1', event: 'answer', data: { thread_id: 't1', text: 'Everyone, in its ideal.' } })
      expect((t.state as { threads: { messages: { from: string }[] }[] }).threads[0].messages.map((m) => m.from)).toEqual(['user', 'agent'])
      expect(t.html()).toContain('Everyone, in its ideal.')
    },
    async Viewer(t) {
      await server.call('put_app_data', { app: 'moby-dick', key: 'pages', value: ['Page one', 'Page two'] })
      await t.simulateAction('START', { hostInfo: { name: 'test', version: '1' }, hostCapabilities: {} })
      let seen = await serveToolCalls(t)
      expect(t.html()).toContain('Page one')
      await t.simulateEvent('.next', 'click')
      seen = await serveToolCalls(t, seen)
      expect(t.html()).toContain('Page two')
      expect(t.html()).toContain('2 / 2')
    },
    async Capabilities(t) {
      await t.simulateAction('HOST', { hostInfo: { name: 'TestHost', version: '2' }, hostCapabilities: { downloadFile: {} } })
      await serveToolCalls(t)
      expect((await server.call('tail_server_log', { n: 1 })).structuredContent.entries[0]).toMatchObject({
        message: 'host capabilities',
        data: { downloadFile: {} },
      })
      await t.simulateAction('CONTEXT', { theme: 'dark', availableDisplayModes: ['inline', 'fullscreen'] })
      await t.simulateEvent('.full', 'click')
      expect(t.requests('MCP').at(-1)).toEqual({ displayMode: 'fullscreen' })
      expect(t.html()).toContain('caps dark')
    },
    async Logged(t) {
      await t.simulateEvent('.go', 'click')
      await serveToolCalls(t)
      expect((await server.call('tail_server_log', { n: 1 })).structuredContent.entries[0]).toMatchObject({ message: 'clicked', data: { clicks: 1 } })
      expect(t.html()).toContain('Clicked 1 times')
    },
    async Reader(t) {
      await t.simulateAction('SELECT', { paragraph: 'truths', quote: 'all men are created equal' })
      await t.simulateEvent('.question', 'input', { value: 'Who counted?' })
      await t.simulateEvent('.ask', 'click')
      expect(t.requests('MCP').at(-1)).toMatchObject({
        notifyAgent: {
          event: 'ask',
          data: { thread_id: 't1', quote: 'all men are created equal', question: 'Who counted?', paragraph_id: 'truths', history: [] },
        },
      })
      await t.simulateAction('MESSAGE', { id: '1', event: 'answer', data: { thread_id: 't1', text: 'Property-owning men, then.' } })
      expect(t.html()).toContain('Property-owning men, then.')
    },
    // The declaration-reader recipe: the example's Reader wrapped with its stylesheet.
    async StyledReader(t) {
      await scripts.Reader(t)
      expect(t.html()).toMatch(/<style>[^<]*\.margin \{/)
    },
    async Quote(t) {
      // The selection itself is read in a real browser by selectedIn; here its result drives the model.
      await t.simulateAction('PICK', { quote: 'these truths', id: 'p1' })
      expect(t.state).toMatchObject({ picked: { quote: 'these truths', id: 'p1' } })
      expect(t.html()).toContain('these truths')
      await t.simulateEvent('.send', 'click')
      expect(t.requests('MCP').at(-1)).toEqual({ notifyAgent: { event: 'quote', data: { quote: 'these truths', id: 'p1' } }, error: 'SEND_FAILED' })
      await t.fail('MCP', { error: 'CHANNEL_CLOSED: closed' }, 'SEND_FAILED')
      expect(t.html()).toContain('Not sent: CHANNEL_CLOSED: closed')
    },
    async Todo(t) {
      await t.simulateAction('MESSAGE', { id: '1', event: 'add', data: 'Buy milk' })
      await t.simulateEvent('.done', 'change', { data: { id: '1' } })
      expect(t.requests('MCP').at(-1)).toEqual({ notifyAgent: { event: 'done', data: { id: '1', text: 'Buy milk' } } })
      expect((t.state as { items: { done: boolean }[] }).items[0].done).toBe(true)
    },
  }

  it.each(byKind('duet-component').map((s) => [label(s), s] as const))('%s', async (_, sample) => {
    for (const [, from] of sample.code.matchAll(/^\s*import\s.*from\s+'([^']+)'/gm))
      expect(['duetkit', 'duetkit/mcp'], 'display_component imports').toContain(from)
    const Component = await importComponent(sample)
    expect(typeof Component, 'default export is the view').toBe('function')
    expect(Component.initialState).toBeDefined()
    expect(typeof Component.intent).toBe('function')
    expect(Component.model).toBeTypeOf('object')
    const script = scripts[Component.name]
    expect(script, `a behaviour script for ${Component.name}`).toBeDefined()
    const t = renderComponent(Component)
    try {
      expect(t.html().length).toBeGreaterThan(0)
      await script(t)
    } finally {
      t.dispose()
    }
  })
})

describe('html fragment samples use only the window.duet API and app-callable tools', () => {
  // The display shell's API, built over a driver that never answers: only its names matter here.
  const silent = { source: { select: () => Stream.never() }, request: () => new Promise(() => {}), forComponent: () => ({ select: () => Stream.never() }) }
  const api = createShellApi(silent as never, { id: () => undefined, ready: new Promise(() => {}) })
  const apiNames = new Set(Object.keys(api))

  it.each(byKind('fragment').map((s) => [label(s), s] as const))('%s', async (_, sample) => {
    const { tools } = await server.client.listTools()
    const scripts = [...sample.code.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1])
    expect(scripts.length).toBeGreaterThan(0)
    for (const code of scripts) new Script(code, { filename: label(sample) }) // compiles, never runs
    const used = [...sample.code.matchAll(/\bduet\.(\w+)/g)].map((m) => m[1])
    expect(used.length).toBeGreaterThan(0)
    for (const name of used) expect(apiNames, `duet.${name}`).toContain(name)
    const called = [...sample.code.matchAll(/duet\.callTool\(\s*'([^']+)'/g)].map((m) => m[1])
    if (used.includes('log')) called.push('write_server_log')
    for (const tool of called) {
      const listed = tools.find((t) => t.name === tool)
      expect(listed, tool).toBeDefined()
      expect((listed!._meta as any)?.ui?.visibility ?? ['model', 'app'], tool).toContain('app')
    }
  })
})

describe('json tool-call samples run against a real server, in recipe order', () => {
  it.each(RECIPES.filter((r) => samplesOf(r.name, r.text).some((s) => s.kind === 'tool-call')).map((r) => [r.name] as const))('%s', async (name) => {
    let channel = await channels.open()
    const samples = samplesOf(name, RECIPES.find((r) => r.name === name)!.text)
    for (const sample of samples.filter((s) => s.kind === 'tool-call')) {
      // "<the module above>" stands for the last component sample before this call.
      const module = samples.filter((s) => s.kind === 'duet-component' && s.index < sample.index).at(-1)
      const code = sample.code.replaceAll('<channel_id>', channel).replace('"<the module above>"', () => JSON.stringify(module?.code ?? ''))
      const call = JSON.parse(code) as { tool: string; arguments: Record<string, unknown> }
      expect(Object.keys(call).sort(), label(sample)).toEqual(['arguments', 'tool'])
      if (call.tool === 'poll_agent_messages') await channels.send(channel, 'app-to-agent', { event: 'ask', data: 'from the app' })
      const result = await server.call(call.tool, call.arguments)
      expect(result.isError, `${label(sample)}: ${textOf(result)}`).toBeFalsy()
      // A display tool (or load_app) opened a fresh channel; the samples after it use that one.
      if (typeof result.structuredContent?.channel_id === 'string') channel = result.structuredContent.channel_id
      if (call.tool === 'poll_agent_messages') expect(result.structuredContent.messages).toMatchObject([{ event: 'ask', data: 'from the app' }])
    }
  })
})

describe('sh samples are valid duet invocations', () => {
  async function command(name: string): Promise<Command | undefined> {
    const modules: Record<string, () => Promise<Command>> = {
      wait: async () => (await import('../../src/cli/wait.js')).wait,
      serve: async () => (await import('../../src/cli/serve.js')).serve,
      dev: async () => (await import('../../src/cli/dev.js')).dev,
    }
    return modules[name]?.()
  }
  const lines = byKind('')
    .filter((s) => s.lang === 'sh')
    .flatMap((s) =>
      s.code
        .split('\n')
        .filter((l) => l.trim())
        .map((line) => ({ s, line })),
    )

  it.each(lines.map(({ s, line }) => [`${label(s)}: ${line}`, line] as const))('%s', async (_, line) => {
    const [program, name, ...args] = shellWords(line)
    expect(program).toBe('duet')
    const cmd = await command(name)
    expect(cmd, `duet ${name} exists`).toBeDefined()
    for (const flag of args.filter((a) => a.startsWith('--'))) expect(cmd!.help, `duet ${name} ${flag}`).toContain(flag)
    for (const inner of args.filter((a) => a.startsWith('duet '))) expect(shellWords(inner)[1], 'a nested duet command').toMatch(/^(serve|wait|dev)$/)
    if (name === 'dev') {
      const { parseDevArgs } = await import('../../src/dev/options.js')
      expect(() => parseDevArgs(args)).not.toThrow()
    }
    if (name === 'wait') {
      // Run it for real: with a message already waiting it exits 0 at once, whatever the timeout.
      const channel = await channels.open()
      await channels.send(channel, 'app-to-agent', { event: 'ready' })
      const argv = args.map((a) => (a === '<channel_id>' ? channel : a === '/path/to/duet-data' ? tmp.dir : a))
      if (!argv.includes('--data-dir')) argv.push('--data-dir', tmp.dir)
      if (argv.includes('--follow')) {
        // The line monitor keeps running: run it for one second, and check the line it printed.
        argv.splice(argv.indexOf('--timeout'), 2, '--timeout', '1')
        const printed: string[] = []
        const write = process.stdout.write
        process.stdout.write = ((chunk: string) => printed.push(String(chunk)) > 0) as typeof process.stdout.write
        try {
          expect(await cmd!.run(argv)).toBe(2)
        } finally {
          process.stdout.write = write
        }
        expect(printed.map((l) => JSON.parse(l))).toMatchObject([{ event: 'ready', id: expect.any(String) }])
      } else {
        expect(await cmd!.run(argv)).toBe(0)
      }
      expect(await channels.peek(channel, 'app-to-agent'), 'the watcher consumes nothing').toBe(1)
    }
  })
})

describe('what the recipes say the tools do', () => {
  it('getting-started: load_app shows the saved app again by itself, on a fresh channel, and returns the new id (and the html)', async () => {
    const text = RECIPES.find((r) => r.name === 'getting-started')!.text
    expect(text).toContain('`load_app` shows the saved app to the user again by itself, on a fresh channel')
    const shown = await server.call('display_ui_to_user', { html: '<p>hello</p>', title: 'Hello' })
    await server.call('save_app', { name: 'claims-hello', channel_id: shown.structuredContent.channel_id })
    const loaded = await server.call('load_app', { name: 'claims-hello' })
    expect(loaded.isError, textOf(loaded)).toBeFalsy()
    expect(loaded.structuredContent).toMatchObject({ kind: 'html', html: '<p>hello</p>' })
    expect(loaded.structuredContent.channel_id).not.toBe(shown.structuredContent.channel_id)
    // The new channel is live: the agent can answer on it at once.
    const sent = await server.call('notify_ui', { channel_id: loaded.structuredContent.channel_id, event: 'hi', data: 1 })
    expect(sent.isError, textOf(sent)).toBeFalsy()
  })

  it('bidirectional-events: the wait modes name the commands duet wait --help documents', async () => {
    const text = RECIPES.find((r) => r.name === 'bidirectional-events')!.text
    const { wait } = await import('../../src/cli/wait.js')
    for (const mode of ['In-turn long poll', 'Background exit', 'Line monitor', 'Schedule']) expect(text).toMatch(new RegExp(`\\*\\*\\d\\. ${mode}`))
    for (const flag of ['--follow', '--json', '--timeout', '--data-dir', '--redis-url']) {
      expect(text).toContain(flag)
      expect(wait.help).toContain(flag)
    }
    expect(text).not.toMatch(/before you render/)
    expect(text).toContain('"wait_seconds": 50')
  })
})
