import { invalidOption } from '../server/errors.js'
import type { AppServer } from '../server/app-server.js'
import { resolveDataDir } from '../channel/data-dir.js'
import { registerAppDataTools } from './app-data-tools.js'
import { openSqliteAppStore, type AppStore } from './app-store.js'
import type { AppLimits } from './limits.js'
import { registerLogTools } from './log-tools.js'
import { registerRecipes } from './recipe-tools.js'
import { registerSavedAppTools, type LoadAppHook } from './saved-app-tools.js'

/** Options of {@link registerAgentAppTools}. */
export interface AgentAppToolsOptions {
  /** Where `apps.db` lives; default `resolveDataDir()` (`$DUET_DATA_DIR`, else the per-user data folder). */
  dataDir?: string
  /** An already open store (SQLite or Redis, from `openAppStore`) to use instead of opening one in `dataDir`; the caller closes it. */
  store?: AppStore
  limits?: Partial<AppLimits>
  /** Replaces `load_app`'s default result (the saved record), e.g. to display the app again at once. */
  onLoad?: LoadAppHook
  /** `load_app`'s `_meta`: with `onLoad` showing the app, the display shell's `ui` resource, so the host renders it. */
  loadAppMeta?: Record<string, unknown>
}

/**
 * Registers the agent-apps tools on an app server: `save_app`, `list_saved_apps`, `load_app`,
 * `delete_saved_app`, `put_app_data`, `get_app_data` (app only), `write_server_log` (app only),
 * `tail_server_log`, `list_recipes`, `get_recipe`, and one prompt per recipe. Returns the store, whose
 * `recordRender` the display tools call after each render. A store it opened closes with the server.
 *
 * @example
 * const app = createAppServer({ name: 'duet', version: '0.1.0' })
 * const apps = registerAgentAppTools(app, { dataDir })
 * await apps.recordRender(channelId, { kind: 'html', html })
 */
export function registerAgentAppTools(app: AppServer, options: AgentAppToolsOptions = {}): AppStore {
  if (!app || typeof app.tool !== 'function' || typeof app.configure !== 'function') {
    invalidOption('registerAgentAppTools', 'app', 'must be an AppServer from createAppServer')
  }
  if (options.onLoad !== undefined && typeof options.onLoad !== 'function') invalidOption('registerAgentAppTools', 'onLoad', 'must be a function')
  if (options.store !== undefined && (options.dataDir !== undefined || options.limits !== undefined)) {
    invalidOption('registerAgentAppTools', 'store', 'cannot be combined with dataDir or limits (the store already has its own)')
  }
  const store = options.store ?? openSqliteAppStore(options.dataDir ?? resolveDataDir(), options.limits)
  try {
    registerSavedAppTools(app, store, options.onLoad, options.loadAppMeta)
    registerAppDataTools(app, store)
    registerLogTools(app, store)
    registerRecipes(app)
  } catch (err) {
    if (!options.store) void store.close()
    throw err
  }
  if (!options.store) app.onClose(() => store.close())
  return store
}
