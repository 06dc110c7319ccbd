import { getToolUiResourceUri, isToolVisibilityAppOnly } from '@modelcontextprotocol/ext-apps/app-bridge'
import type { Tool } from '@modelcontextprotocol/client'
import { component, xs, type Drivers } from 'duetkit'
import type { JSX } from 'duetkit/jsx-runtime'
import type { ServerView } from './api.js'

/** What the server list asks of the page: select a tool, or send a server's bearer token ("" clears it). */
export type ServerListRequest =
  | { pick: { server: string; tool: string } }
  | { token: { server: string; token: string }; ok: 'TOKEN_SENT'; error: 'TOKEN_REFUSED' }

export type ServerListDrivers = Drivers & { PAGE: { source: undefined; sink: ServerListRequest } }

export interface ServerListState {
  servers: ServerView[]
  selected: { server: string; tool: string } | null
  /** Per server: what is typed in its token field (kept across state events: a retry must not wipe it), and why the last token was refused. */
  tokens: Record<string, { draft: string; error?: string }>
}

type Actions = {
  SERVERS: ServerView[]
  SELECTED: { server: string; tool: string } | null
  PICK: { server: string; tool: string }
  TOKEN_INPUT: { server: string; value: string }
  TOKEN_SET: string
  TOKEN_CLEAR: string
  TOKEN_SENT: { server: string }
  /** The page's refusal, `server: why` (as `{ error }`, the shape a failed request's error action takes). */
  TOKEN_REFUSED: { error: string }
}

const field = (e: Event) => e.target as HTMLInputElement
const tokenOf = (state: ServerListState, server: string) => state.tokens[server] ?? { draft: '' }
const withToken = (state: ServerListState, server: string, t: { draft: string; error?: string }) => ({ ...state, tokens: { ...state.tokens, [server]: t } })

/**
 * The Tools tab's list of servers: each with its status, its token field (HTTP servers), its tools
 * (app tools badged) and, apart, its app-only tools. The page hands it SERVERS and SELECTED.
 */
export const ServerList = component<ServerListState, Record<string, never>, ServerListDrivers, Actions>()(
  function ServerList({ state }) {
    return (
      <div>
        <h2>Servers</h2>
        <div data-testid="servers">{state.servers.map((s) => serverCard(s, state))}</div>
      </div>
    )
  },
  {
    initialState: { servers: [], selected: null, tokens: {} },
    intent: ({ DOM }) => ({
      PICK: DOM.click('.tool').data('pick', (v) => {
        const [server, tool] = JSON.parse(v ?? '["",""]') as [string, string]
        return { server, tool }
      }),
      TOKEN_INPUT: DOM.input('.token-input').map((e) => ({ server: field(e).dataset.server ?? '', value: field(e).value })),
      TOKEN_SET: xs.merge(
        DOM.click('.token-set').data('server', (v) => v ?? ''),
        DOM.keydown('.token-input')
          .filter((e) => e.key === 'Enter')
          .map((e) => field(e).dataset.server ?? ''),
      ),
      TOKEN_CLEAR: DOM.click('.token-clear').data('server', (v) => v ?? ''),
    }),
    model: {
      SERVERS: (state, servers) => ({ ...state, servers }),
      SELECTED: (state, selected) => ({ ...state, selected }),
      PICK: { PAGE: (_state, pick) => ({ pick }) },
      TOKEN_INPUT: (state, { server, value }) => withToken(state, server, { draft: value }),
      TOKEN_SET: {
        STATE: (state, server) => withToken(state, server, { draft: tokenOf(state, server).draft }),
        PAGE: (state, server) => ({ token: { server, token: tokenOf(state, server).draft.trim() }, ok: 'TOKEN_SENT', error: 'TOKEN_REFUSED' }),
      },
      TOKEN_CLEAR: { PAGE: (_state, server) => ({ token: { server, token: '' }, ok: 'TOKEN_SENT', error: 'TOKEN_REFUSED' }) },
      TOKEN_SENT: (state, { server }) => withToken(state, server, { draft: '' }),
      // The page's answer names the server first: "s1: why".
      TOKEN_REFUSED: (state, { error }) => {
        const [server, ...why] = error.split(': ')
        return withToken(state, server, { draft: tokenOf(state, server).draft, error: why.join(': ') })
      },
    },
  },
)

function serverCard(s: ServerView, state: ServerListState): JSX.Element {
  const appOnly = s.tools.filter((t) => isToolVisibilityAppOnly(t))
  const visible = s.tools.filter((t) => !isToolVisibilityAppOnly(t))
  const button = (t: Tool, apponly: boolean) => (
    <button
      type="button"
      key={t.name}
      className={`tool${state.selected?.server === s.id && state.selected.tool === t.name ? ' selected' : ''}`}
      data-testid={`tool-${t.name}`}
      title={t.description ?? ''}
      data={{ pick: JSON.stringify([s.id, t.name]) }}
    >
      {t.name}
      {getToolUiResourceUri(t) ? <span className={`badge${apponly ? ' apponly' : ''}`}>app</span> : null}
    </button>
  )
  return (
    <div key={s.id} className="server" data-testid={`server-${s.id}`}>
      <div>
        <b>{s.serverInfo ? `${s.serverInfo.name} ${s.serverInfo.version}` : s.label}</b>
      </div>
      <div className={`status ${s.status}`} data-testid={`server-status-${s.id}`}>
        {s.status === 'error' ? `error: ${s.error}` : s.status}
      </div>
      <small>{s.label}</small>
      {s.tokenSet === undefined ? null : tokenField(s.id, s.tokenSet, tokenOf(state, s.id))}
      {visible.map((t) => button(t, false))}
      {appOnly.length ? <h2>App-only (hidden from the model)</h2> : null}
      {appOnly.map((t) => button(t, true))}
    </div>
  )
}

// The bearer token of a protected HTTP server: the dev server keeps it and connects again with it. The
// field never shows the token back (the page only learns whether one is set).
function tokenField(server: string, tokenSet: boolean, t: { draft: string; error?: string }): JSX.Element {
  return (
    <div className="token" data-testid={`token-form-${server}`}>
      <input
        type="password"
        className="token-input"
        autocomplete="off"
        placeholder={tokenSet ? 'token set; paste another' : 'bearer token (access token)'}
        value={t.draft}
        data-server={server}
        data-testid={`token-input-${server}`}
      />
      <button type="button" className="token-set" data-server={server} data-testid={`token-set-${server}`}>
        Set token
      </button>
      {tokenSet ? (
        <button type="button" className="token-clear" data-server={server} data-testid={`token-clear-${server}`}>
          Clear
        </button>
      ) : null}
      <div className="status error" data-testid={`token-error-${server}`}>
        {t.error ?? ''}
      </div>
    </div>
  )
}
