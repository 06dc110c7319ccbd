// The bearer token of a protected HTTP server, pasted into the page: the dev server keeps it and connects
// again with it. The field never shows the token back (the page only learns whether one is set).
import type { ServerView } from './api.js'
import { h } from './dom.js'

// One form per server and token state, reused across redraws of the server list: what is typed into it,
// and the reason a token was refused, survive a state change of another server or a tool selection.
const forms = new Map<string, { tokenSet: boolean; form: HTMLElement }>()

/** A token form for an HTTP server, `null` for a stdio one. The new state arrives as a `state` event. */
export function tokenField(server: ServerView): HTMLElement | null {
  if (server.tokenSet === undefined) return null
  const kept = forms.get(server.id)
  if (kept && kept.tokenSet === server.tokenSet) return kept.form
  const form = buildForm(server, server.tokenSet)
  forms.set(server.id, { tokenSet: server.tokenSet, form })
  return form
}

function buildForm(server: ServerView, tokenSet: boolean): HTMLElement {
  const input = h('input', {
    type: 'password',
    placeholder: tokenSet ? 'token set; paste another' : 'bearer token (access token)',
    autocomplete: 'off',
    'data-testid': `token-input-${server.id}`,
  })
  const problem = h('div', { class: 'status error', 'data-testid': `token-error-${server.id}` })
  const form = h(
    'form',
    { class: 'token', 'data-testid': `token-form-${server.id}` },
    input,
    h('button', { type: 'submit', 'data-testid': `token-set-${server.id}` }, 'Set token'),
    tokenSet ? h('button', { type: 'button', 'data-testid': `token-clear-${server.id}` }, 'Clear') : null,
    problem,
  )
  const send = async (token: string) => {
    problem.textContent = ''
    const res = await fetch('/api/token', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ server: server.id, token }),
    })
    if (!res.ok) problem.textContent = ((await res.json()) as { error?: { message?: string } }).error?.message ?? `HTTP ${res.status}`
  }
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    void send(input.value.trim())
  })
  form.querySelector(`[data-testid="token-clear-${server.id}"]`)?.addEventListener('click', () => void send(''))
  return form
}
