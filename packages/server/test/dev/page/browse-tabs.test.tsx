import { renderComponent } from 'duetkit'
import { describe, expect, it } from 'vitest'
import type { PromptSection, ResourceSection } from '../../../src/dev/page/browse.js'
import { PromptList } from '../../../src/dev/page/PromptList.js'
import { PromptView, promptViewState } from '../../../src/dev/page/PromptView.js'
import { ResourceList } from '../../../src/dev/page/ResourceList.js'
import { ResourceView, resourceViewState, templateViewState } from '../../../src/dev/page/ResourceView.js'

const resources: ResourceSection[] = [
  {
    id: 's1',
    title: 'fixture 1.0.0',
    resources: [{ uri: 'config://settings', name: 'settings', description: 'JSON' }],
    templates: [{ uriTemplate: 'books://{book}/chapters/{chapter}', name: 'chapter' }],
  },
  { id: 's2', title: 'duet-serve 0.1.0', resources: [], templates: [], templatesProblem: { note: 'not offered (resources/templates/list: method not found)' } },
  { id: 's3', title: 'node down.js', status: 'error', resources: [], templates: [] },
]
const prompts: PromptSection[] = [
  { id: 's1', title: 'fixture 1.0.0', prompts: [{ name: 'review', title: 'Review code', arguments: [{ name: 'code', required: true }, { name: 'focus' }] }] },
  { id: 's2', title: 'empty 1.0.0', prompts: [] },
  { id: 's3', title: 'broken 1.0.0', prompts: [], problem: { error: 'prompts/list failed (-32603): boom' } },
]

describe('ResourceList (the resources tab)', () => {
  it('lists on REFRESH; shows each server with its resources and templates, notes apart from the title, and opens what is picked', async () => {
    const t = renderComponent(ResourceList)
    await t.simulateEvent('.resources-refresh', 'click')
    expect(t.requests('PAGE')).toEqual([{ list: true, ok: 'LISTED', error: 'LIST_FAILED' }])
    await t.respond('PAGE', resources, 'LISTED')
    const html = t.html()
    expect(html).toContain('data-uri="config://settings"')
    expect(html).toContain('books://{book}/chapters/{chapter}')
    // The server's name and version never run into a note ("1.0.0none").
    expect(html).toContain('<div><b>duet-serve 0.1.0</b></div>')
    expect(html).toContain('<small>no resources</small>')
    expect(html).toContain('<small>not offered (resources/templates/list: method not found)</small>')
    expect(html).toContain('<div class="status error">error</div>')
    await t.simulateEvent('[data-testid=resource-item]', 'click')
    expect(t.requests('PAGE').at(-1)).toEqual({ open: { server: 's1', resource: resources[0].resources[0] } })
    await t.simulateEvent('[data-testid=template-item]', 'click')
    expect(t.requests('PAGE').at(-1)).toEqual({ template: { server: 's1', template: resources[0].templates[0] } })
  })

  it('says when listing failed as a whole', async () => {
    const t = renderComponent(ResourceList)
    await t.simulateAction('REFRESH', null)
    await t.fail('PAGE', 'fetch failed', 'LIST_FAILED')
    expect(t.html()).toContain('listing resources failed: fetch failed')
  })
})

describe('ResourceView (a resource or template in the middle column)', () => {
  it('reads a resource and shows JSON indented, a blob as size and type, as text never HTML', async () => {
    const t = renderComponent(ResourceView, { initialState: resourceViewState('s1', resources[0].resources[0]) })
    await t.simulateAction('READ', null)
    expect(t.requests('RPC')).toEqual([
      { rpc: { server: 's1', method: 'resources/read', params: { uri: 'config://settings' } }, ok: 'READ_DONE', error: 'READ_FAILED' },
    ])
    expect(t.html()).toContain('reading config://settings…')
    await t.respond('RPC', {
      contents: [
        { uri: 'config://settings', mimeType: 'application/json', text: '{"units":"metric"}' },
        { uri: 'file:///logo.png', mimeType: 'image/png', blob: 'iVBORw0KGgoAAAANSUhEUg==' },
        { uri: 'file:///p.html', mimeType: 'text/html', text: '<main><h1>T</h1></main>' },
      ],
    })
    const html = t.html()
    expect(html).toContain('{\n  &quot;units&quot;: &quot;metric&quot;\n}')
    expect(html).toContain('blob: 16 bytes, image/png')
    expect(html).toContain('&lt;main&gt;\n&lt;h1&gt;T&lt;/h1&gt;\n&lt;/main&gt;')
  })

  it('names the failed read with its code and the server message', async () => {
    const t = renderComponent(ResourceView, { initialState: resourceViewState('s1', resources[0].resources[0]) })
    await t.simulateAction('READ', null)
    await t.fail('RPC', { error: 'the disk is on fire', code: -32603 })
    expect(t.html()).toMatch(/data-testid="resource-error">resources\/read config:\/\/settings failed \(-32603\): the disk is on fire</)
  })

  it('gives a template a labelled field per variable, shows the expanded URI, and refuses empty variables before any request', async () => {
    const t = renderComponent(ResourceView, { initialState: templateViewState('s1', resources[0].templates[0]) })
    expect(t.html()).toMatch(/<label><span>book<\/span><input class="template-var"/)
    await t.simulateEvent('[data-testid=template-var-book]', 'input', { value: 'moby dick' })
    await t.simulateEvent('.template-form', 'submit')
    expect(t.requests('RPC')).toEqual([])
    expect(t.html()).toContain('fill in chapter first')
    await t.simulateEvent('[data-testid=template-var-chapter]', 'input', { value: '3' })
    expect(t.html()).toContain('<code data-testid="template-uri">books://moby%20dick/chapters/3</code>')
    await t.simulateEvent('.template-form', 'submit')
    expect(t.requests('RPC')).toEqual([
      { rpc: { server: 's1', method: 'resources/read', params: { uri: 'books://moby%20dick/chapters/3' } }, ok: 'READ_DONE', error: 'READ_FAILED' },
    ])
    await t.respond('RPC', { contents: [] })
    expect(t.html()).toContain('books://moby%20dick/chapters/3 returned no contents')
  })

  it('says a template that does not parse cannot be read', async () => {
    const t = renderComponent(ResourceView, { initialState: templateViewState('s1', { uriTemplate: 'x://{broken', name: 'bad' }) })
    await t.simulateEvent('.template-form', 'submit')
    expect(t.requests('RPC')).toEqual([])
    expect(t.html()).toContain("parsing the template failed: the template &quot;x://{broken&quot; has a '{' without its '}'")
  })
})

describe('PromptList (the prompts tab)', () => {
  it('lists prompts per server, "no prompts" on a line of its own, errors as a banner, and opens the one picked', async () => {
    const t = renderComponent(PromptList)
    await t.simulateAction('REFRESH', null)
    await t.respond('PAGE', prompts, 'LISTED')
    const html = t.html()
    expect(html).toContain('data-name="review"')
    expect(html).toContain('>Review code</button>')
    expect(html).toContain('<div><b>empty 1.0.0</b></div><small>no prompts</small>')
    expect(html).not.toMatch(/1\.0\.0none/)
    expect(html).toContain('data-testid="prompt-list-error">prompts/list failed (-32603): boom')
    await t.simulateEvent('[data-testid=prompt-item]', 'click')
    expect(t.requests('PAGE').at(-1)).toEqual({ open: { server: 's1', prompt: prompts[0].prompts[0] } })
  })
})

describe('PromptView (a prompt in the middle column)', () => {
  const review = prompts[0].prompts[0]

  it('refuses a missing required argument, sends only the filled ones, and shows the messages', async () => {
    const t = renderComponent(PromptView, { initialState: promptViewState('s1', review) })
    expect(t.html()).toContain('<span>code *</span>')
    await t.simulateEvent('.prompt-form', 'submit')
    expect(t.requests('RPC')).toEqual([])
    expect(t.html()).toContain('required: code')
    await t.simulateEvent('[data-testid=prompt-arg-code]', 'input', { value: 'let x = 1\n// why?' })
    await t.simulateEvent('.prompt-form', 'submit')
    expect(t.requests('RPC')).toEqual([
      { rpc: { server: 's1', method: 'prompts/get', params: { name: 'review', arguments: { code: 'let x = 1\n// why?' } } }, ok: 'GOT', error: 'GET_FAILED' },
    ])
    await t.respond('RPC', { description: 'A review', messages: [{ role: 'user', content: { type: 'text', text: 'Review this:\nlet x = 1' } }] })
    expect(t.html()).toContain('<p>A review</p>')
    expect(t.html()).toContain(
      '<div class="entry" data-testid="prompt-message"><div class="dir">user</div><pre class="content-text">Review this:\nlet x = 1</pre>',
    )
  })

  it('shows a prompt that fails as an error, and one without arguments as such', async () => {
    const t = renderComponent(PromptView, { initialState: promptViewState('s1', { name: 'fails' }) })
    expect(t.html()).toContain('This prompt takes no arguments.')
    await t.simulateEvent('.prompt-form', 'submit')
    await t.fail('RPC', { error: 'prompt exploded', code: -32603 })
    expect(t.html()).toContain('prompts/get fails failed (-32603): prompt exploded')
  })
})
