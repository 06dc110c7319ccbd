import { openAppStore, type AppStore } from './app-store.js'
import type { CompilePool, CompilePoolOptions } from './compile-pool.js'
import type { AppLimits } from './limits.js'
import { registerDisplayTools } from './display-tools.js'
import { registerAgentAppTools } from './register.js'
import { openChannelStore, registerChannelTools, resolveDataDir, type ChannelLimits } from '../channel/index.js'
import { importWithPeer } from '../channel/optional-peer.js'
import type { RedisRateLimit } from '../channel/redis-rate-limit.js'
import { createAppServer, type AppServer, type AppServerOptions } from '../server/app-server.js'

/** Options of {@link createAgentAppsServer}. */
export interface AgentAppsOptions {
  /** Where the channel store keeps its data; default `$DUET_DATA_DIR`, else the per-user data folder. */
  dataDir?: string
  /**
   * A Redis URL (`redis://…`): channels, saved apps, app data, render records and the server log all
   * live there, so several `duet serve` replicas on one Redis act as one server. Without it, SQLite in `dataDir`.
   */
  redisUrl?: string
  /** Reported to clients as the server version. */
  version?: string
  /** Limits of the channel store, e.g. its quotas `maxStoreBytes` and `maxChannels` and their per-subject twins (see `ChannelLimits`). */
  channelLimits?: Partial<ChannelLimits>
  /** Limits of the agent-apps store, e.g. `maxRenders` and `maxRendersPerSubject` (see `AppLimits`). */
  appLimits?: Partial<AppLimits>
  /**
   * Authorization of the HTTP listener (see `createAppServer`). With it, channels, saved apps, app data,
   * render records and the server log belong to the token's subject: another subject's channel id is
   * UNKNOWN_CHANNEL, another subject's app NOT_FOUND.
   */
  auth?: AppServerOptions['auth']
  /** Per-subject, per-tool rate limit of the HTTP listener (see `createAppServer`); with `redisUrl`, its buckets live in Redis, shared by the replicas. */
  rateLimit?: AppServerOptions['rateLimit']
  /**
   * The compile pool of `display_component` (see `createCompilePool`): options, e.g. `{ workers: 2,
   * compileLimits: { maxMemoryMb: 256 } }`, for a pool closed with the server; or a pool to share.
   */
  compilePool?: CompilePoolOptions | CompilePool
}

const INSTRUCTIONS =
  'Duet agent-apps server. Show the user an app with display_ui_to_user (HTML) or display_component (a Duet component); ' +
  'each render returns a channel_id: send to the app with notify_ui and read what it sends with poll_agent_messages. ' +
  'To get a turn when the app writes: poll_agent_messages with wait_seconds (50 or less) inside your turn, or after the render run the `duet wait` ' +
  'command the display result gives you (a background command that exits when the app has written; --follow prints one line per message). ' +
  'Components may import only duetkit and duetkit/mcp. App errors are logged with their channel id: tail_server_log. ' +
  'Recipes explain how to build apps: list_recipes, then get_recipe (start with getting-started).'

/**
 * Builds the server `duet serve` runs: the display tools, the channel tools and the agent-apps tools
 * (saved apps, app data, logs, recipes) over stores opened in `dataDir`, so every transport serves the
 * same assembly. The stores close with the server.
 */
export async function createAgentAppsServer(options: AgentAppsOptions = {}): Promise<AppServer> {
  // One folder for channels and apps, resolved once, so the `duet wait` command the display tools hand out points at it.
  const dataDir = resolveDataDir(options.dataDir)
  const redisUrl = options.redisUrl
  const limits = options.channelLimits === undefined ? {} : { limits: options.channelLimits }
  const store = await openChannelStore(redisUrl === undefined ? { dataDir, ...limits } : { backend: 'redis', url: redisUrl, ...limits })
  let apps: AppStore | undefined
  let buckets: RedisRateLimit | undefined
  try {
    if (redisUrl !== undefined && options.rateLimit !== undefined && options.rateLimit.store === undefined) {
      // Loaded only with Redis: `redis` is an optional peer.
      const { openRedisRateLimit } = await importWithPeer(
        'redis',
        'createAgentAppsServer: the shared rate limit',
        () => import('../channel/redis-rate-limit.js'),
      )
      buckets = await openRedisRateLimit(redisUrl)
    }
    const appLimits = options.appLimits === undefined ? {} : { limits: options.appLimits }
    const opened = (apps = await openAppStore(redisUrl === undefined ? { dataDir, ...appLimits } : { backend: 'redis', url: redisUrl, ...appLimits }))
    // Its display shell keeps no App.persist state, so it serves no duet_view_state tool.
    const app = createAppServer({
      name: 'duet',
      version: options.version ?? '0.1.0',
      instructions: INSTRUCTIONS,
      viewState: false,
      ...(options.auth !== undefined && { auth: options.auth }),
      ...(options.rateLimit !== undefined && { rateLimit: buckets ? { ...options.rateLimit, store: buckets } : options.rateLimit }),
    })
    // notify_ui on a channel whose app load_app showed again names the new channel (the display tools know it).
    registerChannelTools(app, store, { movedTo: (subject, channelId) => display.movedTo(subject, channelId) })
    // Corrupt rows the channel store set aside go to the log the agent reads with tail_server_log.
    store.onSetAside((e) => {
      const message = `channel ${e.channelId}: ${e.count} unreadable stored message(s) set aside (${e.direction}); the others were delivered`
      Promise.resolve(opened.log('warning', message, { channel_id: e.channelId, direction: e.direction, count: e.count })).catch(() => {})
    })
    const display = registerDisplayTools(app, {
      channels: store,
      store: opened,
      dataDir,
      ...(redisUrl !== undefined && { redisUrl }),
      ...(options.compilePool !== undefined && { compilePool: options.compilePool }),
    })
    registerAgentAppTools(app, { store: opened, onLoad: display.onLoad, loadAppMeta: display.viewMeta })
    return app.onClose(async () => {
      await buckets?.close()
      await opened.close()
      await store.dispose()
    })
  } catch (err) {
    await buckets?.close()
    await apps?.close()
    await store.dispose()
    throw err
  }
}
