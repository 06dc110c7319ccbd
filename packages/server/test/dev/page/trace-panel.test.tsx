import { renderComponent } from 'duetkit'
import { describe, expect, it } from 'vitest'
import { addEntry, initialTraceState, MAX_ENTRIES } from '../../../src/dev/page/trace-rows.js'
import { TracePanel } from '../../../src/dev/page/TracePanel.js'

const at = 1_700_000_000_000
const call = (id: number, name: string, args: Record<string, unknown> = {}) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } })

describe('TracePanel (the JSON-RPC trace)', () => {
  it('shows rows newest first and pairs an answer with its request: duration and failure on both', async () => {
    const t = renderComponent(TracePanel)
    await t.simulateAction('ADD', { dir: 'host->server', server: 's1', message: call(7, 'fail_tool'), at })
    await t.simulateAction('ADD', {
      dir: 'server->host',
      server: 's1',
      message: { jsonrpc: '2.0', id: 7, result: { isError: true, content: [] } },
      at: at + 42,
    })
    const [answer, request] = t.state.rows
    expect(answer).toMatchObject({ method: 'tools/call', answer: true, durationMs: 42, failed: 'tool result isError' })
    expect(request).toMatchObject({ method: 'tools/call', answer: false, durationMs: 42, failed: 'tool result isError' })
    const html = t.html()
    expect(html.indexOf('tools/call (answer)')).toBeLessThan(html.indexOf('>tools/call<'))
    expect(html.match(/class="entry trace-entry failed"/g)).toHaveLength(2)
    expect(html).toContain('42 ms')
    expect(html).toContain('data-testid="trace-count">(2)')
  })

  it('does not pair answers across sides: a view answer never closes a server request with the same id', async () => {
    const t = renderComponent(TracePanel)
    await t.simulateAction('ADD', { dir: 'host->server', server: 's1', message: call(1, 'echo'), at })
    await t.simulateAction('ADD', { dir: 'view->host', message: { jsonrpc: '2.0', id: 1, result: {} }, at: at + 5 })
    expect(t.state.rows[0]).toMatchObject({ answer: false })
    expect(t.state.rows[0].method).toBeUndefined()
    expect(t.state.rows[1].durationMs).toBeUndefined()
    expect(t.html()).toContain('>response<')
  })

  it('collapses a large payload behind a toggle with an abridged preview, and builds its full text only when opened', async () => {
    const t = renderComponent(TracePanel)
    const html = `<!doctype html>${'x'.repeat(20_000)}`
    await t.simulateAction('ADD', { dir: 'host->view', message: { jsonrpc: '2.0', method: 'ui/notifications/sandbox-resource-ready', params: { html } }, at })
    expect(t.html()).toContain('data-testid="trace-collapsed"')
    expect(t.html()).toMatch(/&quot;html&quot;:&quot;&lt;!doctype html&gt;x+… \(20015 chars\)&quot;/)
    expect(t.html()).not.toContain('x'.repeat(1000))
    await t.simulateEvent('.payload', 'toggle', { target: { open: true } })
    expect(t.html()).toContain('x'.repeat(1000))
    await t.simulateEvent('.payload', 'toggle', { target: { open: false } })
    expect(t.html()).not.toContain('x'.repeat(1000))
  })

  it('filters by text, by side or direction, errors only, and hides the agent panel’s watching polls unless asked', async () => {
    const t = renderComponent(TracePanel)
    await t.simulateAction('ADD', { dir: 'host->server', server: 's1', message: call(1, 'poll_agent_messages', { channel_id: 'c', since: '0' }), at })
    await t.simulateAction('ADD', { dir: 'view->host', message: { jsonrpc: '2.0', id: 3, method: 'ui/update-model-context', params: {} }, at })
    await t.simulateAction('ADD', { dir: 'host->view', message: { jsonrpc: '2.0', id: 3, error: { code: -32601, message: 'Method not found' } }, at })
    const shown = () => t.state.rows.filter((r) => !r.hidden).map((r) => `${r.dir} ${r.method ?? ''}`)
    expect(shown()).toEqual(['host->view ui/update-model-context', 'view->host ui/update-model-context'])
    await t.simulateEvent('.trace-background', 'change', { checked: true })
    expect(shown()).toHaveLength(3)
    await t.simulateEvent('.trace-errors', 'change', { checked: true })
    expect(shown()).toEqual(['host->view ui/update-model-context', 'view->host ui/update-model-context'])
    await t.simulateEvent('.trace-errors', 'change', { checked: false })
    await t.simulateEvent('.trace-dir', 'change', { value: 'server' })
    expect(shown()).toEqual(['host->server tools/call'])
    await t.simulateEvent('.trace-dir', 'change', { value: 'host->view' })
    expect(shown()).toEqual(['host->view ui/update-model-context'])
    await t.simulateEvent('.trace-dir', 'change', { value: '' })
    await t.simulateEvent('.trace-filter', 'input', { value: 'POLL_AGENT' })
    expect(shown()).toEqual(['host->server tools/call'])
    expect(t.html()).toContain('<div class="entry trace-entry failed" hidden data-dir="host-&gt;view">')
  })

  it('exports every row oldest first with its time, direction, method, id, duration and failure; Clear empties it', async () => {
    const t = renderComponent(TracePanel)
    await t.simulateAction('ADD', { dir: 'host->server', server: 's1', message: call(1, 'x'), at })
    await t.simulateAction('ADD', {
      dir: 'server->host',
      server: 's1',
      message: { jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'bad' } },
      at: at + 3,
    })
    await t.simulateEvent('.trace-export', 'click')
    const [request] = t.requests('PAGE') as { export: Record<string, unknown>[] }[]
    expect(request.export).toEqual([
      {
        at: new Date(at).toISOString(),
        dir: 'host->server',
        server: 's1',
        method: 'tools/call',
        id: 1,
        durationMs: 3,
        failed: 'error -32602 bad',
        message: call(1, 'x'),
      },
      {
        at: new Date(at + 3).toISOString(),
        dir: 'server->host',
        server: 's1',
        method: 'tools/call',
        id: 1,
        durationMs: 3,
        failed: 'error -32602 bad',
        message: { jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'bad' } },
      },
    ])
    await t.simulateEvent('.trace-clear', 'click')
    expect(t.state.rows).toEqual([])
    expect(t.html()).not.toContain('trace-entry')
  })

  it(`keeps the newest ${MAX_ENTRIES} rows, forgetting requests whose rows were dropped`, () => {
    let s = initialTraceState
    for (let i = 0; i < MAX_ENTRIES + 5; i++) s = addEntry(s, { dir: 'host->server', server: 's1', message: call(i, 'x'), at })
    expect(s.rows).toHaveLength(MAX_ENTRIES)
    expect(s.rows.at(-1)?.rpcId).toBe(5)
    expect(Object.keys(s.pending)).toHaveLength(MAX_ENTRIES)
    s = addEntry(s, { dir: 'server->host', server: 's1', message: { jsonrpc: '2.0', id: 0, result: {} }, at })
    expect(s.rows[0].method).toBeUndefined()
  })
})
