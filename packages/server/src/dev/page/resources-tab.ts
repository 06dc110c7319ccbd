import type { Resource, ResourceTemplateType } from '@modelcontextprotocol/client'
import { rpc, type ServerView } from './api.js'
import { contentView, errorView, isMethodNotFound, type ResourceContent } from './content-view.js'
import { h } from './dom.js'
import { expandTemplate, templateVariables } from './uri-template.js'

/** What the tab needs from the page: the servers, and where to show what was read. */
export interface BrowserTabOptions {
  servers(): ServerView[]
  show(element: HTMLElement): void
}

/**
 * The resources tab: every connected server's resources and resource templates. A resource is read
 * when picked; a template gets a field per variable and is read with the expanded URI.
 */
export function resourcesTab(o: BrowserTabOptions): { element: HTMLElement; refresh(): Promise<void> } {
  const list = h('div', { 'data-testid': 'resource-list' })
  const reload = h('button', { type: 'button', 'data-testid': 'resources-refresh' }, 'Refresh')
  reload.addEventListener('click', () => void refresh())

  async function refresh(): Promise<void> {
    const sections = await Promise.all(o.servers().map(serverSection))
    list.replaceChildren(...sections)
  }

  async function serverSection(server: ServerView): Promise<HTMLElement> {
    const title = h('b', {}, server.serverInfo ? `${server.serverInfo.name} ${server.serverInfo.version}` : server.label)
    if (server.status !== 'connected') return h('div', { class: 'server' }, title, h('div', { class: 'status error' }, server.status))
    const [resources, templates] = await Promise.all([
      listAll<Resource>(server.id, 'resources/list', 'resources'),
      listAll<ResourceTemplateType>(server.id, 'resources/templates/list', 'resourceTemplates'),
    ])
    const items: (HTMLElement | null)[] = [h('h2', {}, 'Resources')]
    if (resources.error) items.push(resources.error)
    else if (resources.items.length === 0) items.push(h('small', {}, 'none'))
    for (const r of resources.items) {
      const b = h(
        'button',
        { type: 'button', class: 'tool', 'data-testid': 'resource-item', 'data-uri': r.uri, title: r.description ?? '' },
        r.name,
        h('br'),
        h('small', {}, r.uri),
      )
      b.addEventListener('click', () => showResource(server.id, r))
      items.push(b)
    }
    items.push(h('h2', {}, 'Templates'))
    if (templates.error) items.push(templates.error)
    else if (templates.items.length === 0) items.push(h('small', {}, 'none'))
    for (const t of templates.items) {
      const b = h(
        'button',
        { type: 'button', class: 'tool', 'data-testid': 'template-item', title: t.description ?? '' },
        t.name,
        h('br'),
        h('small', {}, t.uriTemplate),
      )
      b.addEventListener('click', () => showTemplate(server.id, t))
      items.push(b)
    }
    return h('div', { class: 'server', 'data-testid': `resources-${server.id}` }, title, ...items)
  }

  // Follows `nextCursor` to the end, so a paginating server shows everything it has.
  async function listAll<T>(server: string, method: string, key: string): Promise<{ items: T[]; error?: HTMLElement }> {
    const items: T[] = []
    let cursor: string | undefined
    try {
      for (let page = 0; page < 100; page++) {
        const result = await rpc<Record<string, unknown>>(server, method, cursor ? { cursor } : {}, 'user')
        items.push(...((result[key] as T[] | undefined) ?? []))
        cursor = typeof result.nextCursor === 'string' && result.nextCursor ? result.nextCursor : undefined
        if (!cursor) break
      }
      return { items }
    } catch (err) {
      if (isMethodNotFound(err)) return { items, error: h('small', {}, `not offered (${method}: method not found)`) }
      return { items, error: errorView('resource-list-error', method, err) }
    }
  }

  function showResource(server: string, r: Resource): void {
    const out = h('div', { 'data-testid': 'resource-output' })
    o.show(h('div', {}, h('h2', {}, r.title ?? r.name), h('p', {}, r.description ?? ''), h('code', {}, r.uri), out))
    void read(server, r.uri, out)
  }

  function showTemplate(server: string, t: ResourceTemplateType): void {
    const out = h('div', { 'data-testid': 'resource-output' })
    const preview = h('code', { 'data-testid': 'template-uri' })
    const form = h('form', { class: 'tool-form', 'data-testid': 'template-form' })
    const fields = new Map<string, HTMLInputElement>()
    let names: string[] = []
    try {
      names = templateVariables(t.uriTemplate)
    } catch (err) {
      out.replaceChildren(errorView('resource-error', 'parsing the template', err))
    }
    for (const name of names) {
      const input = h('input', { name, 'data-testid': `template-var-${name}` })
      input.addEventListener('input', update)
      fields.set(name, input)
      form.append(h('label', {}, h('span', {}, name), input))
    }
    const readButton = h('button', { type: 'submit', 'data-testid': 'template-read' }, 'Read')
    form.append(readButton)
    function values(): Record<string, string> {
      return Object.fromEntries([...fields].map(([k, v]) => [k, v.value]))
    }
    function update(): void {
      preview.textContent = names.length ? expandTemplate(t.uriTemplate, values()) : t.uriTemplate
    }
    form.addEventListener('submit', (e) => {
      e.preventDefault()
      const empty = [...fields].filter(([, v]) => v.value === '').map(([k]) => k)
      if (empty.length) {
        out.replaceChildren(h('div', { class: 'error-banner', 'data-testid': 'resource-error' }, `fill in ${empty.join(', ')} first`))
        return
      }
      void read(server, expandTemplate(t.uriTemplate, values()), out)
    })
    update()
    o.show(h('div', {}, h('h2', {}, t.title ?? t.name), h('p', {}, t.description ?? ''), h('code', {}, t.uriTemplate), form, h('p', {}, 'URI: ', preview), out))
  }

  async function read(server: string, uri: string, out: HTMLElement): Promise<void> {
    out.replaceChildren(h('small', {}, `reading ${uri}…`))
    try {
      const result = await rpc<{ contents?: ResourceContent[] }>(server, 'resources/read', { uri }, 'user')
      const contents = result.contents ?? []
      out.replaceChildren(...(contents.length ? contents.map(contentView) : [h('small', {}, `${uri} returned no contents`)]))
    } catch (err) {
      out.replaceChildren(errorView('resource-error', `resources/read ${uri}`, err))
    }
  }

  return { element: h('div', {}, reload, list), refresh }
}
