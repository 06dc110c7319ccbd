import type { GetPromptResult, Prompt } from '@modelcontextprotocol/client'
import { rpc, type ServerView } from './api.js'
import { base64Size, contentView, errorView, isMethodNotFound } from './content-view.js'
import { h, pretty } from './dom.js'
import type { BrowserTabOptions } from './resources-tab.js'

type PromptMessage = GetPromptResult['messages'][number]

/** One message of a prompt as text a person reads: text as is, media as type and size, resources as read. */
function messageView(m: PromptMessage): HTMLElement {
  const c = m.content as { type: string; text?: string; data?: string; mimeType?: string; resource?: unknown; uri?: string; name?: string }
  let body: HTMLElement
  if (c.type === 'text') body = h('pre', { class: 'content-text' }, c.text ?? '')
  else if (c.type === 'image' || c.type === 'audio') body = h('div', {}, `${c.type}: ${base64Size(c.data ?? '')} bytes, ${c.mimeType ?? 'unknown type'}`)
  else if (c.type === 'resource') body = contentView(c.resource as Parameters<typeof contentView>[0])
  else if (c.type === 'resource_link') body = h('div', {}, `link to ${c.uri}${c.name ? ` (${c.name})` : ''}`)
  else body = h('pre', {}, pretty(c))
  return h('div', { class: 'entry', 'data-testid': 'prompt-message' }, h('div', { class: 'dir' }, m.role), body)
}

/** The prompts tab: every connected server's prompts; picking one shows a form from its arguments. */
export function promptsTab(o: BrowserTabOptions): { element: HTMLElement; refresh(): Promise<void> } {
  const list = h('div', { 'data-testid': 'prompt-list' })
  const reload = h('button', { type: 'button', 'data-testid': 'prompts-refresh' }, 'Refresh')
  reload.addEventListener('click', () => void refresh())

  async function refresh(): Promise<void> {
    list.replaceChildren(...(await Promise.all(o.servers().map(serverSection))))
  }

  async function serverSection(server: ServerView): Promise<HTMLElement> {
    const title = h('b', {}, server.serverInfo ? `${server.serverInfo.name} ${server.serverInfo.version}` : server.label)
    if (server.status !== 'connected') return h('div', { class: 'server' }, title, h('div', { class: 'status error' }, server.status))
    const prompts: Prompt[] = []
    let note: HTMLElement | null = null
    try {
      let cursor: string | undefined
      for (let page = 0; page < 100; page++) {
        const result = await rpc<{ prompts?: Prompt[]; nextCursor?: string }>(server.id, 'prompts/list', cursor ? { cursor } : {}, 'user')
        prompts.push(...(result.prompts ?? []))
        cursor = result.nextCursor || undefined
        if (!cursor) break
      }
    } catch (err) {
      // A line of its own under the server's name and version (inline, it read "1.0.0none").
      note = isMethodNotFound(err)
        ? h('div', { class: 'status' }, 'not offered (prompts/list: method not found)')
        : errorView('prompt-list-error', 'prompts/list', err)
    }
    const buttons = prompts.map((p) => {
      const b = h('button', { type: 'button', class: 'tool', 'data-testid': 'prompt-item', 'data-name': p.name, title: p.description ?? '' }, p.title ?? p.name)
      b.addEventListener('click', () => showPrompt(server.id, p))
      return b
    })
    if (!note && prompts.length === 0) note = h('div', { class: 'status' }, 'no prompts')
    return h('div', { class: 'server', 'data-testid': `prompts-${server.id}` }, title, note, ...buttons)
  }

  function showPrompt(server: string, p: Prompt): void {
    const out = h('div', { 'data-testid': 'prompt-output' })
    const form = h('form', { class: 'tool-form', 'data-testid': 'prompt-form' })
    const fields = new Map<string, HTMLTextAreaElement>()
    for (const a of p.arguments ?? []) {
      // Prompt arguments are strings, often several lines (code, a document): a textarea for each.
      const input = h('textarea', { name: a.name, rows: '2', 'data-testid': `prompt-arg-${a.name}` })
      fields.set(a.name, input)
      form.append(
        h(
          'label',
          { title: a.description ?? '' },
          h('span', {}, `${a.name}${a.required ? ' *' : ''}`),
          input,
          a.description ? h('small', {}, a.description) : null,
        ),
      )
    }
    if (fields.size === 0) form.append(h('p', {}, 'This prompt takes no arguments.'))
    form.append(h('button', { type: 'submit', 'data-testid': 'prompt-get' }, 'Get prompt'))
    form.addEventListener('submit', (e) => {
      e.preventDefault()
      const missing = (p.arguments ?? []).filter((a) => a.required && fields.get(a.name)?.value === '').map((a) => a.name)
      if (missing.length) {
        out.replaceChildren(h('div', { class: 'error-banner', 'data-testid': 'prompt-error' }, `required: ${missing.join(', ')}`))
        return
      }
      // Empty optional fields are left out rather than sent as "", which a server would take as a value.
      const args = Object.fromEntries([...fields].filter(([, v]) => v.value !== '').map(([k, v]) => [k, v.value]))
      void get(server, p, args, out)
    })
    o.show(h('div', {}, h('h2', {}, p.title ?? p.name), h('p', {}, p.description ?? ''), form, out))
  }

  async function get(server: string, p: Prompt, args: Record<string, string>, out: HTMLElement): Promise<void> {
    const name = p.name
    out.replaceChildren(h('small', {}, `getting ${name}…`))
    try {
      const result = await rpc<GetPromptResult>(server, 'prompts/get', { name, arguments: args }, 'user')
      // The result's description is shown only when it says more than the listing did.
      const note = result.description && result.description !== p.description ? [h('p', {}, result.description)] : []
      out.replaceChildren(...note, ...(result.messages ?? []).map(messageView))
    } catch (err) {
      out.replaceChildren(errorView('prompt-error', `prompts/get ${name}`, err))
    }
  }

  return { element: h('div', {}, reload, list), refresh }
}
