import type { CallToolResult } from '@modelcontextprotocol/server'
import { RESOURCE_URI_META_KEY } from '@modelcontextprotocol/ext-apps/server'
import * as z from 'zod'
import type { AppServer, ToolExtra } from '../server/app-server.js'
import { subjectOf } from '../server/subject.js'
import { addressOwner, channelKey, scopeChannelStore } from '../channel/subject-scope.js'
import { invalidOption } from '../server/errors.js'
import type { ChannelStore } from '../channel/store.js'
import { CHANNEL_META_KEY, DuetError } from 'duetkit/protocol'
import type { AppStore } from './app-store.js'
import { compileIn } from './compile-component.js'
import { CompileCache } from './compile-cache.js'
import type { CompileLimits } from './compile-limits.js'
import { createCompilePool, type CompilePool, type CompilePoolOptions } from './compile-pool.js'
import { shellHtml, SHELL_URI } from './display-shell.js'
import type { RenderInput } from './render-store.js'
import type { LoadAppHook } from './saved-app-tools.js'
import type { SavedApp } from './saved-apps.js'
import { CHANNEL_SENTENCE } from './shell/channel-in-text.js'
import { HTML_META_KEY } from './shell/globals.js'
import { MovedApps, type MovedApp } from './moved-apps.js'
import { guarded } from '../server/tool-error.js'

/** Options of {@link registerDisplayTools}. */
export interface DisplayToolsOptions {
  /** Mints one channel per render. */
  channels: ChannelStore
  /** Records every render, so save_app can keep it. */
  store: AppStore
  /** The folder the channel store lives in, written into the `duet wait` command the agent is given. */
  dataDir: string
  /** The Redis URL the channel store uses, if any: `duet wait` is then pointed there instead of at `dataDir`. */
  redisUrl?: string
  /** Overrides of the compile limits of `display_component` (defaults: `DEFAULT_COMPILE_LIMITS`). */
  compileLimits?: Partial<CompileLimits>
  /**
   * The compile pool of `display_component`: options for the pool these tools make (and close with the
   * server), or a pool made with `createCompilePool` to share (its owner closes it; then set the limits on it).
   */
  compilePool?: CompilePoolOptions | CompilePool
}

/** What the display tools give back to the server assembly. */
export interface DisplayTools {
  /** `load_app`'s hook: shows the saved app again on a fresh channel. */
  onLoad: LoadAppHook
  /** The `_meta` that makes a tool's result render in the display shell (for load_app). */
  viewMeta: Record<string, unknown>
  /** Where load_app showed again the app last shown on `channelId`, for notify_ui's hint (registerChannelTools' `movedTo`). */
  movedTo(subject: string | undefined, channelId: string): MovedApp | undefined
}

/** `window.duet` as the display tools describe it: every member of the shell's API (shell/api.ts), and what the promises resolve with. */
export const WIDGET_API =
  'window.duet: ready (a promise of the channel id), channelId, notifyAgent(event, data) (resolves { id }), onAgentMessage(fn), ' +
  'callTool(name, args) (resolves the tool result { content, structuredContent }; rejects with an Error whose code says why), ' +
  'updateModelContext(value), sendMessage(text), openLink(url), log(level, message, data), host, hostContext, theme, onTheme(fn), toolInput'

const VIEW_META = { ui: { resourceUri: SHELL_URI }, [RESOURCE_URI_META_KEY]: SHELL_URI }

// Under the 60 s request timeout of the SDK clients, with room for the round trip.
const SUGGESTED_WAIT_SECONDS = 50

/** The display tools' `app`: what the render belongs to, and so the only app data its view may touch. */
const APP_ARG = z
  .string()
  .optional()
  .describe(
    "The app this view belongs to, e.g. 'declaration-reader': the app-data namespace it reads with get_app_data (and the name to save it under). A view may touch only its own app's data; without app it reads none.",
  )

/** The app-only tool the shell calls for what to show when the host dropped it from the result. */
export const GET_RENDER_TOOL = 'get_render'

const quote = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`)

/**
 * The text the agent reads: the channel, the ways to wait for the user, and where failures go. `duet wait`
 * reads the store directly, so it is given the channel's store key (its id in the caller's subject scope).
 */
function shownText(lead: string, channelId: string, storeFlag: string, waitKey = channelId): string {
  return (
    `${lead} ${CHANNEL_SENTENCE} ${channelId} (fresh for this render; an older copy of the app keeps its own).\n` +
    'To hear from the app, either:\n' +
    `- run \`duet wait ${waitKey}${storeFlag}\` as a background command; it exits as soon as the app has written (at once if it already has). Then call poll_agent_messages({ "channel_id": "${channelId}" }), or\n` +
    `- stay in your turn: poll_agent_messages({ "channel_id": "${channelId}", "wait_seconds": ${SUGGESTED_WAIT_SECONDS} }) returns as soon as the app writes; call it again if it comes back empty.\n` +
    `Answer with notify_ui({ "channel_id": "${channelId}", "event": ..., "data": ... }). Keep it with save_app({ "name": ..., "channel_id": "${channelId}" }).\n` +
    `If the app misbehaves: its script errors, thrown components and failed sends are logged with channel_id ${channelId}; read them with tail_server_log({ "level": "error" }).`
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
  const { redisUrl } = options
  if (redisUrl !== undefined && (typeof redisUrl !== 'string' || !/^rediss?:\/\//.test(redisUrl))) {
    invalidOption('registerDisplayTools', 'redisUrl', "must be a Redis URL like 'redis://127.0.0.1:6379'")
  }
  // A URL with a password is not repeated to the model; `duet wait` then reads DUET_REDIS_URL, which the agent's shell has.
  const storeFlag = redisUrl === undefined ? ` --data-dir ${quote(dataDir)}` : /\/\/[^@/]*@/.test(redisUrl) ? '' : ` --redis-url ${quote(redisUrl)}`
  const pool = compilePoolOf(options, app)
  const moved = new MovedApps()
  const cache = new CompileCache()
  /**
   * The compiled script of a source, compiled once per subject for its recent sources (anonymous callers
   * share ''); the pool's share (its line, its cool-down) is the subject's, else the client address's.
   */
  const compiled = (source: string, subject: string | undefined): Promise<string> =>
    cache.get(subject ?? '', source, async () => (await compileIn(pool, source, subject ?? addressOwner() ?? '')).script)

  /**
   * Mints the channel and records the render, both in the caller's subject space (shared without auth); a
   * render the store refuses closes its channel again.
   */
  async function render(input: RenderInput, subject: string | undefined): Promise<string> {
    // Both are charged to the subject, or without auth to the caller's address: its renders evict only its own.
    const owner = addressOwner()
    const own = scopeChannelStore(channels, subject, owner)
    const channelId = await own.open()
    try {
      await store.forSubject(subject, owner).recordRender(channelId, input)
    } catch (err) {
      await own.close(channelId).catch(() => {})
      throw err
    }
    moved.shown(subject, channelId, input)
    return channelId
  }

  async function showHtml(
    input: { html: string; title?: string; app?: string },
    lead: (id: string) => string,
    withBody: boolean,
    subject: string | undefined,
  ): Promise<CallToolResult> {
    const channelId = await render(
      { kind: 'html', html: input.html, ...(input.title !== undefined && { title: input.title }), ...(input.app !== undefined && { app: input.app }) },
      subject,
    )
    return {
      content: [{ type: 'text', text: shownText(lead(channelId), channelId, storeFlag, channelKey(subject, channelId)) }],
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

  async function showComponent(
    input: { source: string; title?: string; props?: Record<string, unknown>; app?: string },
    lead: string,
    subject: string | undefined,
  ): Promise<CallToolResult> {
    // Compile first: a broken module must not cost a channel or a render record.
    await compiled(input.source, subject)
    const channelId = await render(
      {
        kind: 'component',
        source: input.source,
        ...(input.title !== undefined && { title: input.title }),
        ...(input.props !== undefined && { props: input.props }),
        ...(input.app !== undefined && { app: input.app }),
      },
      subject,
    )
    return {
      content: [{ type: 'text', text: shownText(lead, channelId, storeFlag, channelKey(subject, channelId)) }],
      // The compiled script stays out of what the agent reads: the shell fetches it with get_render.
      structuredContent: {
        channel_id: channelId,
        kind: 'component',
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
        'Plain HTML is styled with the host\'s colours and fonts (light and dark); your own <style> wins, and data-duet-style="none" on any element drops the default look. ' +
        'Script errors are logged with the channel id (tail_server_log). ' +
        'Returns a fresh channel_id for this render: talk to the app with notify_ui and poll_agent_messages (recipe getting-started).',
      inputSchema: {
        html: z.string().min(1).describe('The fragment: markup with inline <style> and <script>. Escape user or model text you insert.'),
        title: z.string().max(200).optional().describe('A short name for the app, shown in saved-app lists.'),
        app: APP_ARG,
      },
      view: { html: shellHtml, uri: SHELL_URI },
    },
    (args: { html: string; title?: string; app?: string }, extra: ToolExtra) =>
      guarded(() => showHtml(args, () => `Showing ${args.title ? `"${args.title}"` : 'the fragment'} to the user.`, false, subjectOf(extra))),
  )

  app.tool(
    'display_component',
    {
      title: 'Show a Duet component',
      description:
        'Show the user a Duet component (recipe duet-components): source is one JSX module whose default export is the view function ' +
        'with initialState, intent and model statics. It may import only duetkit and duetkit/mcp. The server compiles it (never runs it); ' +
        `a syntax error comes back with line and column; limits: ${Math.floor(pool.limits.maxSourceBytes / 1024)} KB of source, brackets ${pool.limits.maxNesting} deep, ` +
        `${pool.limits.timeoutMs / 1000} s and ${pool.limits.maxMemoryMb} MB of compile (past them, or when the compiler is BUSY, the error says so). ` +
        "The component gets notify_ui messages from MCP.select('agent-message') and sends with the MCP sink value " +
        "{ notifyAgent: { event, data }, error: 'ACTION' }. Returns a fresh channel_id for this render (the compiled script is not returned: the app fetches it).",
      inputSchema: {
        source: z.string().min(1).describe('The component module (JSX).'),
        title: z.string().max(200).optional().describe('A short name for the app, shown in saved-app lists.'),
        props: z
          .record(z.string(), z.unknown())
          .optional()
          .describe('JSON props for the view, which gets them as { state, props } (intent and model do not); save_app keeps them.'),
        app: APP_ARG,
      },
      _meta: VIEW_META,
    },
    (args: { source: string; title?: string; props?: Record<string, unknown>; app?: string }, extra: ToolExtra) =>
      guarded(() => showComponent(args, `Showing ${args.title ? `"${args.title}"` : 'the component'} to the user.`, subjectOf(extra))),
  )

  app.tool(
    GET_RENDER_TOOL,
    {
      title: 'What a render shows',
      description:
        'App-only (the display shell calls it through the host; the model does not): what the render on channel_id shows ({ kind, title?, html? | script and props }), the component compiled. ' +
        'The shell calls it for a component, and for anything a host dropped from the tool result.',
      inputSchema: { channel_id: z.string().describe('The channel the render minted.') },
      annotations: { readOnlyHint: true },
      visibility: ['app'],
    },
    (args: { channel_id: string }, extra: ToolExtra) =>
      guarded(async () => {
        const record = await store.forSubject(subjectOf(extra)).getRender(args.channel_id)
        if (!record) {
          throw new DuetError(
            'NOT_FOUND',
            `No render on channel '${args.channel_id}' (it was never shown here, or it is older than the kept renders). Ask the agent to show the app again.`,
            { channel_id: args.channel_id },
          )
        }
        const base = { channel_id: args.channel_id, kind: record.kind, ...(record.title !== undefined && { title: record.title }) }
        if (record.kind === 'html')
          return { content: [{ type: 'text', text: `The fragment of ${args.channel_id}.` }], structuredContent: { ...base, html: record.html } }
        const script = await compiled(record.source!, subjectOf(extra))
        return {
          content: [{ type: 'text', text: `The compiled component of ${args.channel_id}.` }],
          structuredContent: { ...base, script, props: record.props ?? {} },
        }
      }),
  )

  const onLoad: LoadAppHook = (saved: SavedApp, extra: ToolExtra) =>
    guarded(async () => {
      const subject = subjectOf(extra)
      const previous = moved.newestOf(subject, saved)
      const shown = await showSaved(saved, subject)
      const channelId = (shown.structuredContent as { channel_id: string }).channel_id
      moved.loaded(subject, previous, channelId, saved.name)
      return shown
    })

  function showSaved(saved: SavedApp, subject: string | undefined): Promise<CallToolResult> {
    const about = `Loaded the saved app '${saved.name}'${saved.description ? ` (${saved.description})` : ''} and showing it again.`
    // The view of a saved app belongs to the app of its name: it reads that app's data.
    const app = saved.name
    if (saved.kind === 'component') {
      return showComponent(
        { source: saved.source!, ...(saved.title !== undefined && { title: saved.title }), ...(saved.props !== undefined && { props: saved.props }), app },
        about,
        subject,
      )
    }
    return showHtml({ html: saved.html!, ...(saved.title !== undefined && { title: saved.title }), app }, () => about, true, subject)
  }

  return { onLoad, viewMeta: VIEW_META, movedTo: (subject, channelId) => moved.movedTo(subject, channelId) }
}

/** The pool `options` name: a shared one as given, else one of the tools' own, closed with the server. */
function compilePoolOf(options: DisplayToolsOptions, app: AppServer): CompilePool {
  const given = options.compilePool
  if (given !== undefined && (typeof given !== 'object' || given === null))
    invalidOption('registerDisplayTools', 'compilePool', 'must be pool options or a pool from createCompilePool')
  if (given !== undefined && 'run' in given) {
    if (typeof given.run !== 'function') invalidOption('registerDisplayTools', 'compilePool', 'must be pool options or a pool from createCompilePool')
    if (options.compileLimits !== undefined)
      invalidOption('registerDisplayTools', 'compileLimits', 'cannot be set with a shared compilePool; give the limits to createCompilePool')
    return given
  }
  const pool = createCompilePool({ ...given, ...(options.compileLimits !== undefined && { compileLimits: options.compileLimits }) })
  app.onClose(() => pool.close())
  return pool
}
