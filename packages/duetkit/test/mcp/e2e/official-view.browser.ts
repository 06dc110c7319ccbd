// The same conformance view on the official ext-apps `App`, as the reference implementation.
import { App, applyDocumentTheme, applyHostStyleVariables } from '@modelcontextprotocol/ext-apps'
import { z } from 'zod'
import { render, receive, view } from './view-shell.js'

const app = new App({ name: 'official-conformance', version: '1.0.0' }, { availableDisplayModes: ['inline', 'fullscreen'] }, { autoResize: true })
const theme = (ctx: any) => {
  if (ctx?.theme) applyDocumentTheme(ctx.theme)
  if (ctx?.styles?.variables) applyHostStyleVariables(ctx.styles.variables)
}
app.ontoolinput = (p) => receive('tool-input', p.arguments ?? {})
app.ontoolinputpartial = (p) => receive('tool-input-partial', p.arguments ?? {})
app.ontoolresult = (p) => receive('tool-result', p)
app.ontoolcancelled = (p) => receive('tool-cancelled', p)
app.onhostcontextchanged = () => {
  const ctx = app.getHostContext()
  theme(ctx)
  receive('host-context-changed', ctx)
}
app.onteardown = async () => {
  receive('teardown', {})
  view.state.result = 'bye'
  render()
  return {}
}
app.registerTool('card_select', { description: 'Select a day', inputSchema: z.object({ input: z.enum(['Mon', 'Tue', 'Wed']) }) }, async ({ input }: any) => {
  view.state.selected = input
  render()
  return {
    content: [{ type: 'text', text: JSON.stringify({ city: view.state.city, selected: input }) }],
    structuredContent: { city: view.state.city, selected: input },
  }
})

const ok = (value: any, data: unknown) => view.replies.push({ kind: 'ok', action: value.ok, data: JSON.parse(JSON.stringify(data ?? null)) })
const fail = (value: any, err: any) => view.replies.push({ kind: 'error', action: value.error, data: { error: String(err?.message ?? err), code: err?.code } })

// The same sink vocabulary as the Duet view, mapped onto the App's methods.
;(window as any).__send = async (value: any) => {
  try {
    let r: unknown
    if ('callTool' in value) r = await app.callServerTool({ name: value.callTool, arguments: value.args ?? {} })
    else if ('message' in value) r = await app.sendMessage({ role: 'user', content: [{ type: 'text', text: value.message }] })
    else if ('updateModelContext' in value)
      r = await app.updateModelContext(
        typeof value.updateModelContext === 'string'
          ? { content: [{ type: 'text', text: value.updateModelContext }] }
          : { structuredContent: value.updateModelContext },
      )
    else if ('openLink' in value) r = await app.openLink({ url: value.openLink })
    else if ('displayMode' in value) r = await app.requestDisplayMode({ mode: value.displayMode })
    else if ('log' in value) {
      await app.sendLog({ level: value.level ?? 'info', data: value.log })
      r = {}
    } else if ('requestTeardown' in value) {
      await app.requestTeardown()
      r = {}
    } else throw new Error('unsupported in the reference view')
    ok(value, r)
  } catch (err) {
    fail(value, err)
  }
}
;(window as any).__setTall = (tall: boolean) => {
  view.state.tall = tall
  render()
}

app.connect().then(() => {
  const ctx = app.getHostContext()
  theme(ctx)
  receive('host', { hostInfo: app.getHostVersion(), hostCapabilities: app.getHostCapabilities() })
  receive('host-context-changed', ctx)
})
