import type { CallToolResult } from '@modelcontextprotocol/server'
import { RESOURCE_URI_META_KEY } from '@modelcontextprotocol/ext-apps/server'
import * as z from 'zod'
import type { AppServer } from '../server/app-server.js'
import { invalidOption } from '../server/errors.js'
import type { ChannelStore } from '../channel/store.js'
import { CHANNEL_META_KEY } from 'duetkit/protocol'
import type { AppStore } from './app-store.js'
import { compileComponent } from './compile-component.js'
import { shellHtml, SHELL_URI } from './display-shell.js'
import type { RenderInput } from './render-store.js'
import type { LoadAppHook } from './saved-app-tools.js'
import type { SavedApp } from './saved-apps.js'
import { HTML_META_KEY } from './shell/globals.js'
import { guarded } from '../server/tool-error.js'

/** Options of {@link registerDisplayTools}. */
export interface DisplayToolsOptions {
  /** Mints one channel per render. */
  channels: ChannelStore
  /** Records every render, so save_app can keep it. */
  store: AppStore
  /** The folder the channel store lives in, written into the `duet wait` command the agent is given. */
  dataDir: string
}

/** What the display tools give back to the server assembly. */
export interface DisplayTools {
  /** `load_app`'s hook: shows the saved app again on a fresh channel. */
  onLoad: LoadAppHook
  /** The `_meta` that makes a tool's result render in the display shell (for load_app). */
  viewMeta: Record<string, unknown>
}

const WIDGET_API =
  'window.duet.notifyAgent(event, data), onAgentMessage(fn), callTool(name, args), updateModelContext(value), sendMessage(text), ' +
  'openLink(url), log(level, message, data), theme, onTheme(fn), channelId'

const VIEW_META = { ui: { resourceUri: SHELL_URI }, [RESOURCE_URI_META_KEY]: SHELL_URI }

const quote = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`)

/** The text the agent reads: the channel and the two ways to wait for the user. */
function shownText(lead: string, channelId: string, dataDir: string): string {
  return (
    `${lead} Its channel is ${channelId} (fresh for this render; an older copy of the app keeps its own).\n` +
    'To hear from the app, either:\n' +
    `- run \`duet wait ${channelId} --data-dir ${quote(dataDir)}\` as a background command; it exits when the app has written. Then call poll_agent_messages({ "channel_id": "${channelId}" }), or\n` +
    `- stay in your turn: poll_agent_messages({ "channel_id": "${channelId}", "wait_seconds": 120 }) returns as soon as the app writes.\n` +
    `Answer with notify_ui({ "channel_id": "${channelId}", "event": ..., "data": ... }). Keep it with save_app({ "name": ..., "channel_id": "${channelId}" }).`
  )
}

/**
 * Registers `display_ui_to_user` and `display_component` on the server, with the display shell as
 * their `ui://` resource. Each render mints a channel, is recorded for save_app, and returns
 * `structuredContent.channel_id` (plus `_meta`) so the shell can wire the view to it.
 */
export function registerDisplayTools(app: AppServer, options: DisplayToolsOptions): DisplayTools {
  if (!app || typeof app.appTool !== 'function') invalidOption('registerDisplayTools', 'app', 'must be an AppServer from createAppServer')
  const { channels, store, dataDir } = options ?? ({} as DisplayToolsOptions)
  if (!channels || typeof channels.open !== 'function') invalidOption('registerDisplayTools', 'channels', 'must be a ChannelStore (from openChannelStore)')
  if (!store || typeof store.recordRender !== 'function') invalidOption('registerDisplayTools', 'store', 'must be an AppStore (from openAppStore)')
  if (typeof dataDir !== 'string' || dataDir === '') invalidOption('registerDisplayTools', 'dataDir', 'must be the channel store folder')

  /** Mints the channel and records the render; a render the store refuses closes its channel again. */
  async function render(input: RenderInput): Promise<string> {
    const channelId = await channels.open()
    try {
      store.recordRender(channelId, input)
    } catch (err) {
      await channels.close(channelId).catch(() => {})
      throw err
    }
    return channelId
  }

  async function showHtml(input: { html: string; title?: string }, lead: (id: string) => string, withBody: boolean): Promise<CallToolResult> {
    const channelId = await render({ kind: 'html', html: input.html, ...(input.title !== undefined && { title: input.title }) })
    return {
      content: [{ type: 'text', text: shownText(lead(channelId), channelId, dataDir) }],
      // The fragment travels in the tool input already; only load_app, whose input is a name, repeats it here.
      structuredContent: {
        channel_id: channelId,
        kind: 'html',
        ...(input.title !== undefined && { title: input.title }),
        ...(withBody && { html: input.html }),
      },
      _meta: { [CHANNEL_META_KEY]: channelId, [HTML_META_KEY]: input.html },
    }
  }

  async function showComponent(input: { source: string; title?: string; props?: Record<string, unknown> }, lead: string): Promise<CallToolResult> {
    // Compile first: a broken module must not cost a channel or a render record.
    const { script } = await compileComponent(input.source)
    const channelId = await render({
      kind: 'component',
      source: input.source,
      ...(input.title !== undefined && { title: input.title }),
      ...(input.props !== undefined && { props: input.props }),
    })
    return {
      content: [{ type: 'text', text: shownText(lead, channelId, dataDir) }],
      // The shell cannot compile; the host hands it this result, so the compiled app rides here.
      structuredContent: {
        channel_id: channelId,
        kind: 'component',
        script,
        props: input.props ?? {},
        ...(input.title !== undefined && { title: input.title }),
      },
      _meta: { [CHANNEL_META_KEY]: channelId },
    }
  }

  app.appTool(
    'display_ui_to_user',
    {
      title: 'Show an HTML app',
      description:
        'Show the user an interactive HTML fragment inside the chat. Inline <style> and <script> run, in order; there is no network. ' +
        `Scripts get ${WIDGET_API}. The view grows to fit its content, so no fixed pixel heights are needed. ` +
        'Returns a fresh channel_id for this render: talk to the app with notify_ui and poll_agent_messages (recipe getting-started).',
      inputSchema: {
        html: z.string().min(1).describe('The fragment: markup with inline <style> and <script>. Escape user or model text you insert.'),
        title: z.string().max(200).optional().describe('A short name for the app, shown in saved-app lists.'),
      },
      view: { html: shellHtml, uri: SHELL_URI },
    },
    (args: { html: string; title?: string }) =>
      guarded(() => showHtml(args, () => `Showing ${args.title ? `"${args.title}"` : 'the fragment'} to the user.`, false)),
  )

  app.tool(
    'display_component',
    {
      title: 'Show a Duet component',
      description:
        'Show the user a Duet component (recipe duet-components): source is one JSX module whose default export is the view function ' +
        'with initialState, intent and model statics. It may import only duetkit and duetkit/mcp. The server compiles it (never runs it); ' +
        "a syntax error comes back with line and column. The component gets notify_ui messages from MCP.select('agent-message') and sends " +
        'with the MCP sink value { notifyAgent: { event, data } }. Returns a fresh channel_id for this render.',
      inputSchema: {
        source: z.string().min(1).describe('The component module (JSX).'),
        title: z.string().max(200).optional().describe('A short name for the app, shown in saved-app lists.'),
        props: z.record(z.string(), z.unknown()).optional().describe('JSON props passed to the view.'),
      },
      _meta: VIEW_META,
    },
    (args: { source: string; title?: string; props?: Record<string, unknown> }) =>
      guarded(() => showComponent(args, `Showing ${args.title ? `"${args.title}"` : 'the component'} to the user.`)),
  )

  const onLoad: LoadAppHook = (saved: SavedApp) =>
    guarded(() => {
      const about = `Loaded the saved app '${saved.name}'${saved.description ? ` (${saved.description})` : ''} and showing it again.`
      if (saved.kind === 'component') {
        return showComponent(
          { source: saved.source!, ...(saved.title !== undefined && { title: saved.title }), ...(saved.props !== undefined && { props: saved.props }) },
          about,
        )
      }
      return showHtml({ html: saved.html!, ...(saved.title !== undefined && { title: saved.title }) }, () => about, true)
    })

  return { onLoad, viewMeta: VIEW_META }
}
