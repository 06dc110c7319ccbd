import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Script } from 'node:vm'
import { Stream } from 'xstream'
import { renderComponent, type RenderedComponent } from 'duetkit/testing'
import { openChannelStore, registerChannelTools, type ChannelStore } from '@duetkit/server/channels'
import { RECIPES, registerDisplayTools, type DisplayTools } from '../../src/apps/index.js'
import { WIDGET_API } from '../../src/apps/display-tools.js'
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

  const recipe = (name: string) => RECIPES.find((r) => r.name === name)!.text
  const component = (code: string) => importComponent({ recipe: 'claims', index: 0, lang: 'jsx', kind: 'duet-component', code })
  /** What the runtime wrote with console.error while `work` ran. */
  async function consoleErrors(work: () => Promise<void>): Promise<string[]> {
    const seen: string[] = []
    const original = console.error
    console.error = (...args: unknown[]) => seen.push(args.map(String).join(' ')) > 0 && undefined
    try {
      await work()
    } finally {
      console.error = original
    }
    return seen
  }

  it('duet-components: props reach the view as { state, props, children } and each model entry as (state, data, next, props); intent gets the sources only', async () => {
    const text = recipe('duet-components')
    expect(text).toContain('The view gets it as `{ state, props, children }`, and every model entry as\n  its fourth argument: `(state, data, next, props)`')
    expect(text).toContain('`initialState` and `intent` never see props')
    const source = `function Hello({ state, props, children }) {
  return <p className="out">{props.name}:{state.intentArgs}:{state.modelProps}</p>
}
Hello.initialState = { intentArgs: 0, modelArgs: 0, modelProps: '' }
Hello.intent = (...args) => ({ GO: args[0].DOM.click('.out').mapTo(args.length) })
Hello.model = { GO: (...args) => ({ ...args[0], intentArgs: args[1], modelArgs: args.length, next: typeof args[2], modelProps: args[3].name }) }
export default Hello
`
    // display_component takes the props and the render hands them to the shell as they were given.
    const shown = await server.call('display_component', { source, props: { name: 'Ada' } })
    expect(shown.isError, textOf(shown)).toBeFalsy()
    expect(shown.structuredContent.props).toEqual({ name: 'Ada' })
    const render = await server.call('get_render', { channel_id: shown.structuredContent.channel_id })
    expect(render.structuredContent.props).toEqual({ name: 'Ada' })
    const t = renderComponent(await component(source), { props: { name: 'Ada' } })
    try {
      expect(t.html()).toContain('Ada:')
      await t.simulateEvent('.out', 'click')
      expect(t.state, 'intent got one argument (the sources); the reducer (state, data, next, props)').toEqual({
        intentArgs: 1,
        modelArgs: 4,
        next: 'function',
        modelProps: 'Ada',
      })
      expect(t.html()).toContain('Ada:1:Ada')
    } finally {
      t.dispose()
    }
  })

  it('duet-components: an import the module uses is refused by name; an unused one is dropped and loads nothing', async () => {
    const text = recipe('duet-components')
    expect(text).toContain('that the module uses is a compile error naming the import; an import the\nmodule never uses is dropped without a word')
    const used = await server.call('display_component', {
      source: "import React from 'react'\nexport default function V() { return <p>{String(React)}</p> }\n",
    })
    expect(used.isError).toBe(true)
    expect(textOf(used)).toContain('Cannot import "react"')
    const unused = await component("import React from 'react'\nimport { helper } from './helpers.js'\nexport default function V() { return <p>fine</p> }\n")
    expect(typeof unused).toBe('function')
    const { compileComponent } = await import('../../src/apps/compile-component.js')
    const { script } = await compileComponent("import React from 'react'\nexport default function V() { return <p>fine</p> }\n")
    expect(script.split('//# sourceMappingURL=')[0]).not.toContain('react')
  })

  it('duet-components: save_app keeps the module, title and props, not the state; a loaded app starts from initialState', async () => {
    const text = recipe('duet-components')
    expect(text).not.toContain('so the app can be saved and restored')
    expect(text).toContain('`save_app` keeps the\n  module, title and props, not the state')
    const source =
      'function Count({ state }) { return <p>{state.n}</p> }\nCount.initialState = { n: 0 }\nCount.intent = () => ({})\nCount.model = {}\nexport default Count\n'
    const shown = await server.call('display_component', { source, title: 'Count', props: { step: 2 } })
    await server.call('save_app', { name: 'claims-count', channel_id: shown.structuredContent.channel_id })
    const loaded = await server.call('load_app', { name: 'claims-count' })
    expect(loaded.isError, textOf(loaded)).toBeFalsy()
    expect(Object.keys(loaded.structuredContent).sort()).toEqual(['channel_id', 'kind', 'props', 'title'])
    const render = await server.call('get_render', { channel_id: loaded.structuredContent.channel_id })
    // All the shell gets to mount is the compiled module and its props: nothing of an earlier state.
    expect(Object.keys(render.structuredContent).sort()).toEqual(['channel_id', 'kind', 'props', 'script', 'title'])
    expect(render.structuredContent.props).toEqual({ step: 2 })
  })

  it('duet-components: a throwing intent gives no actions, a throwing reducer keeps the state, a throwing driver entry sends nothing; each is logged', async () => {
    const text = recipe('duet-components')
    expect(text).toContain('A view that throws shows "<Name> failed to render" in its place. An intent that throws gives the\n  component no actions')
    expect(text).not.toMatch(/view, intent or model that throws shows a fallback/)
    const Broken = await component(`function Broken({ state }) { return <button type="button" className="b">{state.n}</button> }
Broken.initialState = { n: 1 }
Broken.intent = ({ DOM }) => ({ BAD: DOM.click('.b'), SEND: DOM.click('.b') })
Broken.model = { BAD: () => { throw new Error('reducer broke') }, SEND: { MCP: () => { throw new Error('sink broke') } } }
export default Broken
`)
    const t = renderComponent(Broken)
    try {
      const logged = await consoleErrors(() => t.simulateEvent('.b', 'click'))
      expect(t.state).toEqual({ n: 1 })
      expect(t.requests('MCP')).toEqual([])
      expect(logged.join('\n')).toMatch(/\[duet\] USER_CODE_THREW: Broken: BAD reducer threw; state kept/)
      expect(logged.join('\n')).toMatch(/\[duet\] USER_CODE_THREW: Broken: SEND\.MCP threw; nothing sent/)
      expect(t.html()).not.toContain('failed to render')
    } finally {
      t.dispose()
    }
    const NoIntent = await component(`function NoIntent() { return <p>still here</p> }
NoIntent.initialState = {}
NoIntent.intent = () => { throw new Error('intent broke') }
NoIntent.model = {}
export default NoIntent
`)
    let u: RenderedComponent | undefined
    const logged = await consoleErrors(async () => {
      u = renderComponent(NoIntent)
    })
    try {
      expect(logged.join('\n')).toMatch(/\[duet\] USER_CODE_THREW: NoIntent: intent threw; no actions/)
      expect(u!.html()).toContain('still here')
    } finally {
      u?.dispose()
    }
  })

  it('getting-started and display_ui_to_user list every member of window.duet, with what ready and callTool resolve', async () => {
    const silent = { source: { select: () => Stream.never() }, request: () => new Promise(() => {}), forComponent: () => ({ select: () => Stream.never() }) }
    const members = Object.keys(createShellApi(silent as never, { id: () => undefined, ready: new Promise(() => {}) }))
    const section = recipe('getting-started').split('## What a fragment')[1].split('\n## ')[0]
    const { tools } = await server.client.listTools()
    const description = tools.find((t) => t.name === 'display_ui_to_user')!.description!
    expect(description).toContain(WIDGET_API)
    for (const name of members) {
      expect(section, `duet.${name} in getting-started`).toContain(`\`duet.${name}`)
      expect(WIDGET_API, `${name} in the tool description`).toMatch(new RegExp(`\\b${name}\\b`))
    }
    // Nothing listed that the API lacks.
    for (const [, name] of section.matchAll(/`duet\.(\w+)/g)) expect(members).toContain(name)
    expect(section).toContain("`duet.ready`: a promise of the render's channel id")
    expect(section).toContain('resolves with\n  the tool result `{ content, structuredContent }`')
    expect(WIDGET_API).toContain('ready (a promise of the channel id)')
    expect(WIDGET_API).toContain('callTool(name, args) (resolves the tool result { content, structuredContent }')
  })

  it('every app-only tool says so in its description, and no tool the model may call does', async () => {
    const { tools } = await server.client.listTools()
    // duet_view_state belongs to createAppServer's view state, which `duet serve` turns off.
    const listed = tools.filter((t) => t.name !== 'duet_view_state')
    const appOnly = listed.filter((t) => JSON.stringify((t._meta as any)?.ui?.visibility) === '["app"]')
    expect(appOnly.map((t) => t.name).sort()).toEqual(['get_app_data', 'get_render', 'notify_agent', 'poll_ui_messages', 'write_server_log'])
    for (const t of listed) {
      if (appOnly.includes(t)) expect(t.description, t.name).toMatch(/^App-only \(/)
      else expect(t.description, t.name).not.toMatch(/App-only/)
    }
  })
})
