// The display shell's rules for its view's tool calls (unit level; the server's side is in
// test/isolation/quotas-http.case.ts, the shell in a real browser in e2e-display.test.ts).
import { describe, expect, it } from 'vitest'
import { isAgentOnly, withViewChannel } from '../../src/apps/shell/view-calls.js'

describe('the display shell names the render of a view data call and refuses the agent-only tools', () => {
  it('adds the render channel to get_app_data and put_app_data, replacing one the page made up', () => {
    expect(withViewChannel('get_app_data', { app: 'reader', key: 'pages' }, 'ch_mine')).toEqual({ app: 'reader', key: 'pages', channel_id: 'ch_mine' })
    expect(withViewChannel('put_app_data', { app: 'x', key: 'k', value: 1, channel_id: 'ch_theirs' }, 'ch_mine')).toMatchObject({ channel_id: 'ch_mine' })
    // An empty channel (none known in time) is sent as such, and the server refuses it.
    expect(withViewChannel('get_app_data', { app: 'x', key: 'k' }, '')).toMatchObject({ channel_id: '' })
  })

  it('leaves other calls as they are', () => {
    const args = { channel_id: 'ch_mine', event: 'e' }
    expect(withViewChannel('notify_agent', args, 'ch_other')).toBe(args)
  })

  it('refuses list_saved_apps, load_app and delete_saved_app, nothing else', () => {
    for (const name of ['list_saved_apps', 'load_app', 'delete_saved_app']) expect(isAgentOnly(name)).toBe(true)
    for (const name of ['get_app_data', 'notify_agent', 'save_app', 42]) expect(isAgentOnly(name)).toBe(false)
  })
})
